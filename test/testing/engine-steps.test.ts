/* istanbul ignore file */
/**
 * Issue 32, third part: the order and the concurrency of steps (dependsOn, parallel creates), replaced objects left
 * pending deletion and deleted by the next up, resources pending replacement (not read by a refresh), and customTimeouts, through the testing kit (ProgramTest, the SDK's
 * real dynamic-provider host) with the Memo resource of test/fixtures/engine-program (kept in a JSON file). Each
 * case states the real engine's rule and cites it (pulumi/pulumi).
 */
import * as fs from "node:fs";
import { ProgramRunError, type ProgramPlan } from "../../testing";
import { MEMO, STEP_MS, useMemoProgram } from "./engine-program";

const memo = useMemoProgram("engine-steps");
const { db, edit, logSince } = memo;
const declare = (memos: unknown[]) => memo.test.runner.setConfig("engine:memos", JSON.stringify(memos));
const memoOps = (plan: ProgramPlan) => plan.filter((e) => e.type === MEMO).map((e) => [e.name, e.op]);
const memos = () => memo.test.state().resources.filter((r) => r.type === MEMO);

describe("dependsOn and parallel steps", () => {
  // Creates: the SDK resolves a dependency's URN only when its RegisterResource answer is back (sdk/nodejs
  // runtime/resource.ts, dependsOn awaits `dependency.urn`), so a dependent registers after its dependency is
  // created; independent registrations are stepped concurrently (the step executor's workers, `--parallel`).
  // Deletes: step_generator.go ScheduleDeletes, dependents first.
  it("a dependent is created after what it depends on, and deleted before it", async () => {
    const from = db().log.length;
    declare([
      { resource: "base", text: "base" },
      { resource: "top", text: "top", opts: { dependsOn: ["base"] } },
    ]);
    await memo.test.up();
    const ids = Object.fromEntries(memos().map((r) => [r.name, r.id]));
    expect(logSince(from)).toEqual([`create ${ids.base}`, `create ${ids.top}`]);
    expect(memos().find((r) => r.name === "top")!.dependencies).toContain(memos().find((r) => r.name === "base")!.urn);

    const next = db().log.length;
    declare([]);
    expect(memoOps(await memo.test.up())).toEqual([
      ["top", "delete"],
      ["base", "delete"],
    ]);
    expect(logSince(next)).toEqual([`delete ${ids.top}`, `delete ${ids.base}`]);
  }, STEP_MS);

  it("two independent creates run at the same time, and so do their deletes (each waits until the other has started)", async () => {
    // ScheduleDeletes: resources that do not depend on each other are one antichain, deleted at once.
    declare([
      { resource: "left", text: "left", waitFor: "right" },
      { resource: "right", text: "right", waitFor: "left" },
    ]);
    // The real engine lists parallel steps in the order they finished.
    expect(memoOps(await memo.test.up()).sort()).toEqual([
      ["left", "create"],
      ["right", "create"],
    ]);
    declare([]);
    expect(memoOps(await memo.test.up()).sort()).toEqual([
      ["left", "delete"],
      ["right", "delete"],
    ]);
    expect(memos()).toEqual([]);
    expect(db().log.filter((l) => l.startsWith("start-delete")).sort()).toEqual(["start-delete left", "start-delete right"]);
  }, STEP_MS);
});

describe("a replaced object whose delete failed stays pending deletion", () => {
  // step.go CreateStep.Apply marks the old object `Delete = true` when the replacement is created; a failed (or
  // never reached) delete leaves it in the snapshot so, and step_generator.go GenerateDeletes deletes every
  // `res.Delete` resource at the next up (DeleteReplacementStep: no protect check). TestDestroyWithPendingDelete
  // (pkg/engine/lifecycletest).
  it("the up fails naming it; the state keeps it marked for deletion; the next up deletes it", async () => {
    declare([{ resource: "pd", text: "one", opts: { replaceOnChanges: ["text"] } }]);
    await memo.test.up();
    const oldId = memos()[0]!.id;
    edit((d) => {
      d.failDeletes = [oldId];
    });

    declare([{ resource: "pd", text: "two", opts: { replaceOnChanges: ["text"] } }]);
    const e = (await memo.test.up().catch((err: unknown) => err)) as ProgramRunError;
    expect(e).toBeInstanceOf(ProgramRunError);
    // The engine's error is the provider's, named by the resource.
    expect(e.message).toContain(`urn:pulumi:dev::engine-program::${MEMO}::pd: ${oldId} cannot be deleted now`);
    const newId = memos().find((r) => !r.delete)!.id;
    expect(memos().map((r) => [r.id, r.delete ?? false])).toEqual([
      [newId, false],
      [oldId, true],
    ]);
    expect(Object.keys(db().objects).sort()).toEqual([newId, oldId].sort());

    edit((d) => {
      d.failDeletes = [];
    });
    const from = db().log.length;
    expect(memoOps(await memo.test.up())).toEqual([
      ["pd", "same"],
      ["pd", "delete"],
    ]);
    expect(logSince(from)).toEqual([`delete ${oldId}`]);
    expect(memos().map((r) => r.id)).toEqual([newId]);
    declare([]);
    await memo.test.up();
  }, STEP_MS);
});

describe("a delete-before-replace whose create failed is pending replacement", () => {
  // step.go DeleteStep.Apply sets PendingReplacement on the old entry once its delete succeeded; if the create then
  // fails the snapshot keeps it so. step_generator.go continueStepsFromDiff: a resource pending replacement is
  // replaced (`|| old.PendingReplacement`) without a delete step; dropped, it goes without a provider delete
  // (GenerateDeletes: RemovePendingReplaceStep).
  const dbr = (text: string, failCreate?: boolean) => ({ resource: "dbr", text, failCreate, opts: { replaceOnChanges: ["text"], deleteBeforeReplace: true } });

  it("the state keeps the deleted one marked; the next up replaces it with a create only", async () => {
    declare([dbr("one")]);
    await memo.test.up();
    const oldId = memos()[0]!.id;

    let from = db().log.length;
    declare([dbr("two", true)]);
    const e = (await memo.test.up().catch((err: unknown) => err)) as ProgramRunError;
    expect(e).toBeInstanceOf(ProgramRunError);
    expect(e.message).toContain('the create of "two" is refused');
    expect(logSince(from)).toEqual([`delete ${oldId}`]);
    expect(memos().map((r) => [r.id, r.pendingReplacement ?? false])).toEqual([[oldId, true]]);

    from = db().log.length;
    declare([dbr("two")]);
    const plan = await memo.test.up();
    expect(memoOps(plan)).toEqual([["dbr", "replace"]]);
    const newId = memos()[0]!.id;
    expect(logSince(from)).toEqual([`create ${newId}`]);
    expect(memos().map((r) => [r.id, r.pendingReplacement ?? false])).toEqual([[newId, false]]);
  }, STEP_MS);

  it("a refresh does not read one pending replacement: it stays in the state as it was", async () => {
    // step.go RefreshStep.Apply: "pending-replace resources never change with a refresh" (no Read; its new state is
    // the old one). Its object is gone already: a read would find nothing and drop it from the state.
    declare([dbr("three", true)]);
    await memo.test.up().catch(() => undefined);
    const before = memos();
    expect(before.map((r) => r.pendingReplacement)).toEqual([true]);
    expect(db().objects[before[0]!.id]).toBeUndefined();
    const plan = await memo.test.refresh();
    expect(plan.filter((e) => e.type === MEMO).map((e) => [e.name, e.op, e.changedFields, e.dropped ?? false])).toEqual([["dbr", "refresh", [], false]]);
    // What the resource is (the real engine's refresh writes its entry anew, without the empty property dependencies).
    const kept = (rs: typeof before) => rs.map((r) => ({ id: r.id, pendingReplacement: r.pendingReplacement, inputs: r.inputs, outputs: r.outputs }));
    expect(kept(memos())).toEqual(kept(before));
  }, STEP_MS);

  it("dropped while pending replacement: gone from the state without a provider delete", async () => {
    expect(memos()[0]!.pendingReplacement).toBe(true);
    const from = db().log.length;
    declare([]);
    expect(memoOps(await memo.test.up())).toEqual([["dbr", "delete"]]);
    expect(logSince(from)).toEqual([]);
    expect(memos()).toEqual([]);
  }, STEP_MS);
});

describe("the dependents of a delete-before-replace resource", () => {
  // step_generator.go calculateDependentReplacements: before deleting a resource replaced delete-first, the engine
  // diffs each dependent with the inputs that came from it made unknown; those whose diff replaces are deleted
  // first (dependents first), then created again when they register. A protected one refuses the replacement.
  const root = (text: string) => ({ resource: "root", text, opts: { replaceOnChanges: ["text"], deleteBeforeReplace: true } });
  const child = (protect = false) => ({ resource: "child", kind: "stamp", textFrom: "root", opts: { protect } });

  it("a dependent its diff replaces is deleted before it and created after it", async () => {
    declare([root("r1"), child()]);
    await memo.test.up();
    const before = Object.fromEntries(memo.test.state().resources.filter((r) => r.name === "root" || r.name === "child").map((r) => [r.name, r.id]));

    const from = db().log.length;
    declare([root("r2"), child()]);
    const plan = await memo.test.up();
    // The real engine lists a replacement where its first step finished (the child's delete comes first).
    expect(plan.filter((e) => e.name === "root" || e.name === "child").map((e) => [e.name, e.op]).sort()).toEqual([
      ["child", "replace"],
      ["root", "replace"],
    ]);
    const after = Object.fromEntries(memo.test.state().resources.filter((r) => r.name === "root" || r.name === "child").map((r) => [r.name, r.id]));
    expect(logSince(from)).toEqual([`delete ${before.child}`, `delete ${before.root}`, `create ${after.root}`, `create ${after.child}`]);
    expect(db().objects[after.child!]).toMatchObject({ text: "r2" });
    expect(memo.test.state().resources.some((r) => r.pendingReplacement)).toBe(false);
  }, STEP_MS);

  it("a protected dependent refuses the replacement before anything is deleted", async () => {
    declare([root("r2"), child(true)]);
    await memo.test.up();
    const from = db().log.length;
    declare([root("r3"), child(true)]);
    const e = (await memo.test.up().catch((err: unknown) => err)) as ProgramRunError;
    expect(e).toBeInstanceOf(ProgramRunError);
    expect(e.message).toContain(
      `unable to replace resource "urn:pulumi:dev::engine-program::pulumi-nodejs:dynamic/engine:Stamp::child" as part of replacing ` +
        `"urn:pulumi:dev::engine-program::${MEMO}::root" as it is currently marked for protection`,
    );
    expect(logSince(from)).toEqual([]);
    declare([root("r2"), child(false)]);
    await memo.test.up();
    declare([]);
    await memo.test.up();
  }, STEP_MS);
});

describe("deletedWith", () => {
  // step.go DeleteStep.Apply: no provider Delete for a resource whose deletedWith resource is deleted in the same
  // deployment (isDeletedWith); step_generator.go ScheduleDeletes orders it as a dependent.
  it("deleted along with its owner: only the owner's delete reaches the provider; alone: its own delete", async () => {
    declare([
      { resource: "owner", text: "owner" },
      { resource: "part", text: "part", opts: { deletedWith: "owner" } },
      { resource: "piece", text: "piece", opts: { deletedWith: "owner" } },
    ]);
    await memo.test.up();
    const ids = Object.fromEntries(memos().map((r) => [r.name, r.id]));

    let from = db().log.length;
    declare([
      { resource: "owner", text: "owner" },
      { resource: "part", text: "part", opts: { deletedWith: "owner" } },
    ]);
    expect(memoOps(await memo.test.up())).toEqual([
      ["owner", "same"],
      ["part", "same"],
      ["piece", "delete"],
    ]);
    expect(logSince(from)).toEqual([`delete ${ids.piece}`]);

    from = db().log.length;
    declare([]);
    const plan = await memo.test.up();
    expect(plan.filter((e) => e.type === MEMO).map((e) => [e.name, e.op, e.deletedWith ?? ""])).toEqual([
      ["part", "delete", `urn:pulumi:dev::engine-program::${MEMO}::owner`],
      ["owner", "delete", ""],
    ]);
    expect(logSince(from)).toEqual([`delete ${ids.owner}`]);
    expect(memos()).toEqual([]);
  }, STEP_MS);
});

describe("customTimeouts", () => {
  // The engine sends the option's create/update/delete timeouts in the provider requests (step.go: `Timeout:
  // s.new.CustomTimeouts.Create`, ...), but the SDK's dynamic-provider host never reads them
  // (cmd/dynamic-provider/index.js): a dynamic provider's calls run to their own deadlines. The kit runs the same
  // host, so the option changes nothing offline either; this checks that the host still ignores it.
  it("the dynamic-provider host does not read a request's timeout", () => {
    const host = fs.readFileSync(require.resolve("@pulumi/pulumi/cmd/dynamic-provider/index.js"), "utf8");
    expect(host).toMatch(/async create\(call, callback\)/);
    expect(host).not.toMatch(/getTimeout\(/);
  });

  it("a program that sets it runs as without it", async () => {
    const from = db().log.length;
    declare([{ resource: "timed", text: "t", opts: { customTimeouts: { create: "1s", update: "1s", delete: "1s" } } }]);
    expect(memoOps(await memo.test.up())).toEqual([["timed", "create"]]);
    expect(logSince(from)).toEqual([`create ${memos()[0]!.id}`]);
  }, STEP_MS);
});
