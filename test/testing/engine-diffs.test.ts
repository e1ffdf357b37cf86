/* istanbul ignore file */
/**
 * Issue 32, second part: replaceOnChanges, nested ignoreChanges paths, refresh judged by the provider's diff,
 * partial creates (init errors) and (issues 43, 52) the words of a failed check, through the testing kit (ProgramTest, the
 * SDK's real dynamic-provider host). The
 * program (test/fixtures/engine-program) declares, next to a Flag on the emulator, two small dynamic resources kept
 * in a JSON file: Memo (no `diff`: the engine compares the inputs itself) and Stamp (a `diff` that compares `text`
 * only, and a `read` whose `reads` output moves on every read). Each case states the real engine's rule and cites
 * it (pulumi/pulumi).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ProgramRunError, PulumiCliRunner, secret, type ProgramPlan } from "../../testing";
import { FLAG, MEMO, RELOAD, STAMP, STEP_MS, useMemoProgram } from "./engine-program";

const memo = useMemoProgram("engine-diffs");
const { db, edit, logSince } = memo;

function declare(memos: unknown[], flags: unknown[] = []): void {
  memo.test.runner.setConfig("engine:memos", JSON.stringify(memos));
  memo.test.runner.setConfig("engine:flags", JSON.stringify(flags));
}

const ops = (plan: ProgramPlan) => plan.filter((e) => e.type !== "pulumi-nodejs:dynamic/cloudbees:Application").map((e) => [e.name, e.op]);
const memoUrn = (name: string) => `urn:pulumi:dev::engine-program::${MEMO}::${name}`;
const idOf = (name: string) => memo.test.state().resources.find((r) => r.name === name)!.id;

async function failing(step: Promise<unknown>): Promise<ProgramRunError> {
  const e = await step.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ProgramRunError);
  return e as ProgramRunError;
}

describe("replaceOnChanges", () => {
  // step_generator.go applyReplaceOnChanges: a changed key that a replaceOnChanges path contains (PropertyPath.
  // Contains) becomes a replace key, and an entry of the detailed diff that one contains becomes a replacing one
  // (DiffResult.Replace). The changed keys and the detailed diff are the provider's (provider_plugin.go Diff), which
  // the dynamic host never sets (cmd/dynamic-provider/index.js diff), or, for DIFF_UNKNOWN, the engine's own diff of
  // the inputs (diffResource: the top-level keys that differ, and NewDetailedDiffFromObjectDiff, a path for every
  // nested value that differs). So the option bites only for a provider without a definite diff, and there nested
  // paths too: `spec.x` contains the detailed diff's `spec.x`, though no replace key is added (seen under the CLI).
  const memos = (text: string, x: number) => [
    { resource: "roc-text", text, opts: { replaceOnChanges: ["text"] } },
    { resource: "roc-none", text },
    { resource: "roc-nested", spec: { x }, opts: { replaceOnChanges: ["spec.x"] } },
  ];

  beforeAll(async () => {
    declare(memos("a", 1), [{ resource: "roc-flag", name: "eng.roc", opts: { replaceOnChanges: ["isPermanent"] } }]);
    await memo.test.up();
  }, STEP_MS);

  it("a provider without diff: a top-level path replaces, and so does a nested one; no option updates", async () => {
    const old = { text: idOf("roc-text"), nested: idOf("roc-nested") };
    const from = db().log.length;
    declare(memos("b", 2), [{ resource: "roc-flag", name: "eng.roc", opts: { replaceOnChanges: ["isPermanent"] } }]);
    const plan = await memo.test.up();
    // The three run in parallel: the real engine lists them in the order they finished.
    expect(ops(plan.filter((e) => e.type === MEMO)).sort()).toEqual([
      ["roc-nested", "replace"],
      ["roc-none", "update"],
      ["roc-text", "replace"],
    ]);
    expect(plan.find((e) => e.name === "roc-text")!.replaces).toEqual(["text"]);
    expect(plan.find((e) => e.name === "roc-nested")!.replaces).toEqual([]);
    // The old objects' deletes come after all three steps (create before delete).
    const log = logSince(from);
    expect(log.slice(0, 3).sort()).toEqual([`create ${idOf("roc-nested")}`, `create ${idOf("roc-text")}`, `update ${idOf("roc-none")}`].sort());
    expect(log.slice(3).sort()).toEqual([`delete ${old.nested}`, `delete ${old.text}`].sort());
  }, STEP_MS);

  it("a provider with a definite diff (the Flag): replaceOnChanges has nothing to match, the change is an update", async () => {
    declare(memos("b", 2), [{ resource: "roc-flag", name: "eng.roc", isPermanent: true, opts: { replaceOnChanges: ["isPermanent"] } }]);
    const plan = await memo.test.preview();
    expect(plan.filter((e) => e.type === FLAG).map((e) => [e.name, e.op, e.replaces])).toEqual([["roc-flag", "update", []]]);
  }, STEP_MS);
});

describe("ignoreChanges with nested paths", () => {
  // step_generator.go generateSteps -> processIgnoreChanges before Check: each path (properties_path.go
  // ParsePropertyPath, PropertyPath.Reset) is set back to its old value. In pulumi v3.248.0 (the CLI of the
  // lockfile's SDK) a path whose elements are missing on one side is only reported in an info message ("cannot ignore
  // changes in added or removed elements of the path"), and the step goes on. On a replacement the engine checks the
  // program's values again (continueStepsFromDiff: Check with goal.Properties), but processIgnoreChanges copied them
  // shallowly (PropertyMap.Copy) and Reset set the nested values in place: the new object gets the old value at a
  // nested ignored path, and the program's at a top-level one. Both seen under the real CLI.
  const ignoring = (spec: object, rules: object[], ignoreChanges = ["spec.a", "rules[0].value"]) => ({ resource: "ic", spec, rules, opts: { ignoreChanges } });

  beforeAll(async () => {
    declare([ignoring({ a: 1, b: 1 }, [{ value: 1 }, { value: 2 }])]);
    await memo.test.up();
  }, STEP_MS);

  it("changes under ignored paths alone: same, nothing sent to the provider", async () => {
    const from = db().log.length;
    declare([ignoring({ a: 5, b: 1 }, [{ value: 9 }, { value: 2 }])]);
    const plan = await memo.test.up();
    expect(ops(plan)).toEqual([["ic", "same"]]);
    expect(logSince(from)).toEqual([]);
  }, STEP_MS);

  it("another change: an update that keeps the old values at the ignored paths", async () => {
    const from = db().log.length;
    declare([ignoring({ a: 5, b: 2 }, [{ value: 9 }, { value: 3 }])]);
    const plan = await memo.test.up();
    expect(ops(plan)).toEqual([["ic", "update"]]);
    expect(logSince(from)).toEqual([`update ${idOf("ic")}`]);
    expect(db().objects[idOf("ic")]).toMatchObject({ spec: { a: 1, b: 2 }, rules: [{ value: 1 }, { value: 3 }] });
  }, STEP_MS);

  it("a path with missing elements ignores nothing: the engine says so in an info message and the step goes on", async () => {
    declare([ignoring({ a: 5, b: 2 }, [{ value: 9 }, { value: 3 }], ["rules[5].value"])]);
    const plan = await memo.test.up();
    expect(ops(plan)).toEqual([["ic", "update"]]);
    expect(memo.test.runner.last!.programOutput).toContain('cannot ignore changes in added or removed elements of the path: "rules[5].value"');
    expect(db().objects[idOf("ic")]).toMatchObject({ spec: { a: 5, b: 2 }, rules: [{ value: 9 }, { value: 3 }] });
  }, STEP_MS);

  it("a replacement creates the new object with the old value at a nested ignored path, the program's at a top-level one", async () => {
    declare([{ resource: "ic", text: "new", spec: { a: 7, b: 2 }, rules: [{ value: 4 }], opts: { ignoreChanges: ["spec.a", "rules"], replaceOnChanges: ["text"] } }]);
    const plan = await memo.test.up();
    expect(ops(plan)).toEqual([["ic", "replace"]]);
    expect(db().objects[idOf("ic")]).toMatchObject({ text: "new", spec: { a: 5, b: 2 }, rules: [{ value: 4 }] });
  }, STEP_MS);
});

describe("refresh, judged by the provider's diff", () => {
  // step.go RefreshStep.Apply (since "refresh diffs relative to desired state", PULUMI_ENABLE_LEGACY_REFRESH_DIFF
  // reverts it): diffResource(refreshed inputs and outputs as olds, the old inputs as news), inverted; the step is a
  // change only when that diff is. DIFF_UNKNOWN compares the refreshed inputs with the old ones: a `read` that
  // returns no inputs never shows drift. `--expect-no-changes` counts the changed steps (pkg/engine/update.go).
  beforeAll(async () => {
    declare([
      { resource: "stamp", kind: "stamp", text: "x" },
      { resource: "memo", text: "x" },
    ]);
    await memo.test.up();
  }, STEP_MS);

  it("an output that moves on every read is no change when the diff ignores it (Stamp) or reads give no inputs (Memo)", async () => {
    const before = db().objects[idOf("stamp")]!.reads as number;
    const plan = await memo.test.refresh({ expectNoChanges: true });
    expect(plan.map((e) => [e.name, e.op, e.changedFields])).toEqual(expect.arrayContaining([["stamp", "refresh", []], ["memo", "refresh", []]]));
    // The read did move the output, and the state has it.
    expect(db().objects[idOf("stamp")]!.reads).toBe(before + 1);
    expect(memo.test.state().resources.find((r) => r.name === "stamp")!.outputs.reads).toBe(before + 1);
  }, STEP_MS);

  it("a change the diff sees fails --expect-no-changes; one a read without inputs hides does not show", async () => {
    edit((d) => {
      d.objects[idOf("stamp")]!.text = "changed";
      d.objects[idOf("memo")]!.text = "changed";
    });
    const e = await failing(memo.test.refresh({ expectNoChanges: true }));
    expect(e.message).toMatch(/but 1 were found:\n[^]*stamp\s+engine:Stamp\s+refresh\s+reads, text/);
    expect(e.message).not.toMatch(/memo\s+engine:Memo\s+refresh/);
    // Both refreshed outputs are in the state all the same.
    expect(memo.test.state().resources.filter((r) => r.type === STAMP || r.type === MEMO).map((r) => r.outputs.text)).toEqual(["changed", "changed"]);
  }, STEP_MS);
});

describe("a failed check", () => {
  // step_generator.go issueCheckFailures prints one error per failure, diag.GetResourcePropertyInvalidValueError
  // (2003) "%v resource '%v': property %v value %v has a problem: %v" with the type, the name and the input's value as
  // Go prints a resource.PropertyValue (`{%v}`), then bails with "resource <urn> is invalid", printed no more. The
  // Flag's check refuses a name that cannot stand in a URL path, and available values that are not a list (an object:
  // Go prints a map with its keys sorted, a number as %g).
  const flagUrn = (name: string) => `urn:pulumi:dev::engine-program::${FLAG}::${name}`;

  it("fails the up with the engine's words for each failure; the flag is not created", async () => {
    declare([], [{ resource: "badflag", name: "a/b", availableValues: { s: "t", k: 1234567 } }]);
    const e = await failing(memo.test.up());
    const problem = " has a problem: ";
    const lines = e.message.replace(/^pulumi up failed: /, "").split("\n--- warnings ---")[0]!.split("\n").sort();
    expect(lines.map((l) => l.slice(0, l.indexOf(problem) + problem.length))).toEqual([
      `${flagUrn("badflag")}: ${FLAG} resource 'badflag': property availableValues value {map[k:{1.234567e+06} s:{t}]}${problem}`,
      `${flagUrn("badflag")}: ${FLAG} resource 'badflag': property name value {a/b}${problem}`,
    ]);
    expect(memo.test.state().resources.map((r) => r.name)).not.toContain("badflag");
  }, STEP_MS);

  it("a preview says the same", async () => {
    const e = await failing(memo.test.preview());
    expect(e.message).toContain(`${flagUrn("badflag")}: ${FLAG} resource 'badflag': property name value {a/b} has a problem: `);
    declare([]);
  }, STEP_MS);

  // Issue 52: a failure about a value that holds a credential (here a token in instanceUrl's query) names no
  // property, so the engine prints its other line (2002, "%v resource '%v' has a problem: %v") and no value; the
  // reason names the input and the rule. Nothing the step leaves holds the token: the error, the program's and the
  // providers' output, the state; under the CLI also its own stdout, stderr and event log of a preview.
  it("a credential in the value: the input and the rule named, the token nowhere", async () => {
    const token = "9f2c4e1a7b3d5f6e8a0c1b2d3e4f5a6b";
    // A secret in the stack config (the CLI's event log opens with the plain config), a plain input in the program.
    memo.test.runner.setConfig("engine:reloads", secret(JSON.stringify([{ resource: "leaky", instanceUrl: `https://ci.example.com/team-a/?token=${token}` }])));
    try {
      const e = await failing(memo.test.up());
      const urn = `urn:pulumi:dev::engine-program::${RELOAD}::leaky`;
      expect(e.message).toContain(`${urn}: ${RELOAD} resource 'leaky' has a problem: instanceUrl "https://ci.example.com/team-a/" must not have a query or fragment`);
      const seen = [e.message, e.programOutput, e.hostOutput, String((e.cause as Error | undefined)?.message), JSON.stringify(memo.test.state())];
      const runner = memo.test.runner;
      if (runner instanceof PulumiCliRunner) {
        const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "engine-diffs-")), "events.jsonl");
        // The CLI takes --event-log as the Automation API gives it, with its debug commands on.
        const preview = await runner.run(["preview", "--event-log", log], { env: { PULUMI_DEBUG_COMMANDS: "true" } });
        expect(preview.code).not.toBe(0);
        expect(preview.stdout).toContain(`${RELOAD} resource 'leaky' has a problem: instanceUrl `);
        seen.push(preview.stdout, preview.stderr, fs.readFileSync(log, "utf8"));
        fs.rmSync(path.dirname(log), { recursive: true, force: true });
      }
      for (const text of seen) expect(text).not.toContain(token);
    } finally {
      memo.test.runner.setConfig("engine:reloads", undefined);
    }
  }, STEP_MS);
});

describe("a partial create (init errors)", () => {
  // step.go CreateStep.Apply: a create that fails with an id (the dynamic host's ErrorResourceInitFailed) is a
  // partial failure: the resource is saved with its InitErrors. step_generator.go continueStepsFromDiff: with init
  // errors and no diff, an update runs anyway ("to attempt to 'continue' awaiting initialization"); a
  // replaceOnChanges path containing "#initerror" would replace it instead (applyReplaceOnChanges). The error names
  // the provider's reasons (provider_plugin.go InitError, in go-multierror's form), not its message.
  beforeAll(async () => {
    declare([]);
    await memo.test.up();
  }, STEP_MS);

  it("fails the up, keeps the object in the state with its reasons, and the next unchanged up updates it", async () => {
    declare([{ resource: "slow", initFail: true }]);
    const e = await failing(memo.test.up());
    expect(e.message).toContain(`${memoUrn("slow")}: 1 error occurred:\n\t* not ready yet`);
    const saved = memo.test.state().resources.find((r) => r.name === "slow")!;
    expect(saved.initErrors).toEqual(["not ready yet"]);
    expect(db().objects[saved.id]).toMatchObject({ ready: false });

    const from = db().log.length;
    const plan = await memo.test.up();
    expect(ops(plan)).toEqual([["slow", "update"]]);
    expect(logSince(from)).toEqual([`update ${saved.id}`]);
    expect(memo.test.state().resources.find((r) => r.name === "slow")!.initErrors).toBeUndefined();
    expect(ops(await memo.test.up())).toEqual([["slow", "same"]]);
  }, STEP_MS);

  it("replaceOnChanges [\"#initerror\"] replaces it instead", async () => {
    declare([{ resource: "slow2", initFail: true, opts: { replaceOnChanges: ["#initerror"] } }]);
    await failing(memo.test.up());
    const first = memo.test.state().resources.find((r) => r.name === "slow2")!.id;
    // Unchanged inputs: without the path this would be an update; with it, a replacement, whose create fails the
    // same way (initFail is still declared): a new partial object, no update.
    const from = db().log.length;
    const e = await failing(memo.test.up());
    expect(e.message).toContain(`${memoUrn("slow2")}: 1 error occurred:\n\t* not ready yet`);
    const log = logSince(from);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(/^create memo-\d+$/);
    expect(log[0]).not.toBe(`create ${first}`);
  }, STEP_MS);
});
