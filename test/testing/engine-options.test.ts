/* istanbul ignore file */
/**
 * Issue 32: the resource options that decide what a replacement, a delete or a rename does, through the testing kit
 * (ProgramTest: a real program, the SDK's real dynamic-provider host, the emulator). Each case states the real
 * engine's rule and where it is (pulumi/pulumi), and checks what the service holds over HTTP, the provider's calls
 * in the emulator's journal, and the state.
 *
 * A Flag's name cannot change on the service: a name change replaces it (its diff: `replaces: ["name"]`, create
 * before delete); a change of its available values under the same name replaces it deleting first (the diff says
 * deleteBeforeReplace).
 */
import * as path from "node:path";
import { startEmulator, type Emulator } from "../../emulator";
import type { FeatureManagementClient } from "../../provider";
import { featureManagementClientAs, ProgramRunError, ProgramTest, type ProgramPlan } from "../../testing";
import { testEngine } from "./engine-program";

const PROGRAM = path.resolve(__dirname, "..", "fixtures", "engine-program");
const FLAG = "pulumi-nodejs:dynamic/cloudbees:Flag";
const STEP_MS = 120_000;

interface FlagSpec {
  resource: string;
  name: string;
  availableValues?: string[];
  isPermanent?: boolean;
  opts?: Record<string, unknown>;
}

let emu: Emulator;
let reader: FeatureManagementClient;
beforeAll(async () => {
  emu = await startEmulator({});
  reader = featureManagementClientAs(emu, { email: "reader@example.com", name: "Reader" });
}, STEP_MS);
afterAll(async () => {
  await reader?.close();
  await emu?.close();
});

/** One stack (its own state and its own application on the shared emulator). */
class Stack {
  private constructor(readonly t: ProgramTest) {}

  static async start(app: string): Promise<Stack> {
    return new Stack(await ProgramTest.start({ dir: PROGRAM, emulator: emu, stack: "dev", config: { "engine:appName": app }, ...testEngine() }));
  }

  get appId(): string {
    return String(this.t.outputs().appId);
  }

  urn(resource: string, qualifiedType = FLAG): string {
    return `urn:pulumi:dev::engine-program::${qualifiedType}::${resource}`;
  }

  /** The engine's refusal to delete a protected resource (step.go deleteProtectedError). */
  refusedDelete(resource: string): string {
    const urn = this.urn(resource);
    return (
      `resource "${urn}" cannot be deleted\nbecause it is protected. To unprotect the resource, either remove the \`protect\` flag from ` +
      `the resource in your Pulumi program and run \`pulumi up\`, or use the command:\n\`pulumi state unprotect '${urn}'\``
    );
  }

  /** `pulumi up` of the program with these flags, the journal cleared first. */
  async up(flags: FlagSpec[], groups?: unknown[]): Promise<ProgramPlan> {
    this.declare(flags, groups);
    emu.journal.clear();
    return this.t.up();
  }

  async preview(flags: FlagSpec[], groups?: unknown[]): Promise<ProgramPlan> {
    this.declare(flags, groups);
    emu.journal.clear();
    return this.t.preview();
  }

  /** The step's error (the step must fail). */
  async failing(step: Promise<unknown>): Promise<ProgramRunError> {
    const e = await step.then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(ProgramRunError);
    return e as ProgramRunError;
  }

  private declare(flags: FlagSpec[], groups?: unknown[]): void {
    this.t.runner.setConfig("engine:flags", JSON.stringify(flags));
    this.t.runner.setConfig("engine:groups", groups ? JSON.stringify(groups) : undefined);
  }

  /** The flags of the application, as the service lists them (GET .../Production/flags). */
  async serviceFlags(): Promise<string[]> {
    return (await reader.listFlags(this.appId, "Production")).map((f) => f.name).sort();
  }

  /** The provider's writes to the application's flags since the step began: "PUT <name>" / "DELETE <name>". */
  flagWrites(): string[] {
    const prefix = `/feature-management/public-api/applications/${this.appId}/flags`;
    return emu.journal
      .entries()
      .filter((e) => e.path.startsWith(prefix) && (e.method === "PUT" || e.method === "DELETE"))
      .map((e) => `${e.method} ${e.method === "PUT" ? (JSON.parse(e.body.toString("utf8")) as { name: string }).name : decodeURIComponent(e.path.split("/").at(-1)!)}`);
  }

  /** The state's flags: resource name -> flag name. */
  stateFlags(): Record<string, string> {
    return Object.fromEntries(this.t.state().resources.filter((r) => r.type === FLAG).map((r) => [r.name, String(r.outputs.name)]));
  }

  close(): Promise<void> {
    return this.t.close();
  }
}

const ops = (plan: ProgramPlan) => plan.filter((e) => e.type === FLAG).map((e) => [e.name, e.op]);

describe("protect: true", () => {
  // step_generator.go continueStepsFromDiff: a replacement of a resource protected in the program and in the state
  // fails before any step ("unable to replace resource ... as it is currently marked for protection"); in an update
  // the generator bails out at once, so nothing is created; a preview shows the plan and fails.
  // step.go DeleteStep.Apply: deleting a protected resource fails (deleteProtectedError); the other deletes go on.
  let s: Stack;
  const guarded = (name: string, protect = true): FlagSpec => ({ resource: "guarded", name, opts: { protect } });
  beforeAll(async () => {
    s = await Stack.start("engine-protect");
    await s.up([guarded("eng.guarded")]);
  }, STEP_MS);
  afterAll(() => s?.close());

  it("a replacing up fails naming the resource and the option, and writes nothing", async () => {
    const before = s.t.state();
    const e = await s.failing(s.up([guarded("eng.guarded-2")]));
    expect(e.message).toContain(`unable to replace resource "${s.urn("guarded")}"\nas it is currently marked for protection`);
    expect(e.message).toContain("remove the `protect` flag from the resource in your Pulumi program and run `pulumi up`");
    expect(s.flagWrites()).toEqual([]);
    expect(await s.serviceFlags()).toEqual(["eng.guarded"]);
    expect(s.t.state().resources).toEqual(before.resources);
  }, STEP_MS);

  it("a preview of it plans the replacement and fails the same way", async () => {
    const e = await s.failing(s.preview([guarded("eng.guarded-2")]));
    expect(e.plan.filter((p) => p.type === FLAG).map((p) => [p.name, p.op, p.replaces])).toEqual([["guarded", "replace", ["name"]]]);
    expect(e.message).toContain(`unable to replace resource "${s.urn("guarded")}"\nas it is currently marked for protection`);
    expect(s.flagWrites()).toEqual([]);
  }, STEP_MS);

  it("an up that drops it fails naming it; it stays on the service and in the state; the other deletes go on", async () => {
    await s.up([guarded("eng.guarded"), { resource: "plain", name: "eng.plain" }]);
    expect(await s.serviceFlags()).toEqual(["eng.guarded", "eng.plain"]);
    // The CLI's `pulumi up` previews first (unless --skip-preview): that preview fails, and nothing is deleted.
    const p = await s.failing(s.preview([]));
    expect(p.message).toContain(`Preview failed: ${s.refusedDelete("guarded")}`);
    expect(s.flagWrites()).toEqual([]);
    // The update itself (as with --skip-preview): the engine goes on with the other deletes.
    const e = await s.failing(s.up([]));
    expect(e.message).toContain(s.refusedDelete("guarded"));
    expect(s.flagWrites()).toEqual(["DELETE eng.plain"]);
    expect(await s.serviceFlags()).toEqual(["eng.guarded"]);
    expect(s.stateFlags()).toEqual({ guarded: "eng.guarded" });
  }, STEP_MS);

  it("removing protect in the same up as the replacing change lets the replacement through (old.Protect && new.Protect)", async () => {
    const plan = await s.up([guarded("eng.guarded-2", false)]);
    expect(ops(plan)).toEqual([["guarded", "replace"]]);
    expect(s.flagWrites()).toEqual(["PUT eng.guarded-2", "DELETE eng.guarded"]);
    expect(await s.serviceFlags()).toEqual(["eng.guarded-2"]);
  }, STEP_MS);

  it("destroy deletes the others, keeps it with what it depends on, and fails naming it", async () => {
    await s.up([guarded("eng.guarded-2"), { resource: "plain", name: "eng.plain" }]);
    emu.journal.clear();
    const e = await s.failing(s.t.destroy());
    expect(e.message).toContain(s.refusedDelete("guarded"));
    expect(s.flagWrites()).toEqual(["DELETE eng.plain"]);
    expect(await s.serviceFlags()).toEqual(["eng.guarded-2"]);
    // The application it depends on stays too.
    expect(s.t.state().resources.map((r) => r.name).sort()).toEqual(["app", "guarded"]);
    await s.up([guarded("eng.guarded-2", false)]);
    await s.t.destroy();
    expect(s.t.state().resources).toEqual([]);
  }, STEP_MS);
});

describe("retainOnDelete: true", () => {
  // step.go DeleteStep.Apply: a resource whose state says RetainOnDelete is not deleted (no provider Delete), for a
  // dropped resource and for the old half of a replacement alike; the state drops it.
  let s: Stack;
  const kept = (name: string): FlagSpec => ({ resource: "kept", name, opts: { retainOnDelete: true } });
  beforeAll(async () => {
    s = await Stack.start("engine-retain");
    await s.up([kept("eng.kept")]);
  }, STEP_MS);
  afterAll(() => s?.close());

  it("a replacement creates the new flag and leaves the old one on the service; the state has the new one only", async () => {
    const plan = await s.up([kept("eng.kept-2")]);
    expect(plan.filter((e) => e.type === FLAG).map((e) => [e.name, e.op, e.retained])).toEqual([["kept", "replace", true]]);
    expect(s.flagWrites()).toEqual(["PUT eng.kept-2"]);
    expect(await s.serviceFlags()).toEqual(["eng.kept", "eng.kept-2"]);
    expect(s.stateFlags()).toEqual({ kept: "eng.kept-2" });
  }, STEP_MS);

  it("dropping it from the program leaves it on the service and drops it from the state", async () => {
    const plan = await s.up([]);
    expect(plan.filter((e) => e.type === FLAG).map((e) => [e.name, e.op, e.retained])).toEqual([["kept", "delete", true]]);
    expect(s.flagWrites()).toEqual([]);
    expect(await s.serviceFlags()).toEqual(["eng.kept", "eng.kept-2"]);
    expect(s.stateFlags()).toEqual({});
  }, STEP_MS);
});

describe("deleteBeforeReplace", () => {
  // step_generator.go continueStepsFromDiff: "The provider is responsible for requesting which of these two modes
  // to use. The user can override the provider's decision by setting the `deleteBeforeReplace` field of
  // `ResourceOptions` to either `true` or `false`." Delete-before-replace deletes first (DeleteReplacementStep, then
  // CreateReplacementStep); the default creates first and deletes the old object after every other step.
  let s: Stack;
  beforeAll(async () => {
    s = await Stack.start("engine-dbr");
    await s.up([
      { resource: "first", name: "eng.first", opts: { deleteBeforeReplace: true } },
      { resource: "default", name: "eng.default" },
      { resource: "values", name: "eng.values", availableValues: ["a", "b"] },
      { resource: "forced", name: "eng.forced", availableValues: ["a", "b"], opts: { deleteBeforeReplace: false } },
    ]);
  }, STEP_MS);
  afterAll(() => s?.close());

  it("the option deletes the old flag before creating the new one; without it the new one comes first", async () => {
    const plan = await s.up([
      { resource: "first", name: "eng.first-2", opts: { deleteBeforeReplace: true } },
      { resource: "default", name: "eng.default-2" },
      { resource: "values", name: "eng.values", availableValues: ["a", "b"] },
      { resource: "forced", name: "eng.forced", availableValues: ["a", "b"], opts: { deleteBeforeReplace: false } },
    ]);
    // In the plan's order, which the engine does not fix for independent resources: compared by name.
    const replaced = plan.filter((e) => e.op === "replace").map((e) => [e.name, e.deleteBeforeReplace]);
    expect(replaced.sort()).toEqual([
      ["default", false],
      ["first", true],
    ]);
    const writes = s.flagWrites();
    expect(writes.indexOf("DELETE eng.first")).toBeLessThan(writes.indexOf("PUT eng.first-2"));
    expect(writes.indexOf("PUT eng.default-2")).toBeLessThan(writes.indexOf("DELETE eng.default"));
    expect(await s.serviceFlags()).toEqual(["eng.default-2", "eng.first-2", "eng.forced", "eng.values"]);
  }, STEP_MS);

  it("the provider's diff asks for it (same name, other values): delete first", async () => {
    const plan = await s.up([
      { resource: "first", name: "eng.first-2", opts: { deleteBeforeReplace: true } },
      { resource: "default", name: "eng.default-2" },
      { resource: "values", name: "eng.values", availableValues: ["a", "b", "c"] },
      { resource: "forced", name: "eng.forced", availableValues: ["a", "b"], opts: { deleteBeforeReplace: false } },
    ]);
    expect(plan.filter((e) => e.op === "replace").map((e) => [e.name, e.deleteBeforeReplace])).toEqual([["values", true]]);
    expect(s.flagWrites()).toEqual(["DELETE eng.values", "PUT eng.values"]);
  }, STEP_MS);

  it("deleteBeforeReplace: false overrides the diff: the new flag is created first, and the service refuses it", async () => {
    // The option wins even where the provider knows better: the flag of the same name still exists with other
    // values when the create runs. The real engine does the same; the old flag is not touched.
    const e = await s.failing(
      s.up([
        { resource: "first", name: "eng.first-2", opts: { deleteBeforeReplace: true } },
        { resource: "default", name: "eng.default-2" },
        { resource: "values", name: "eng.values", availableValues: ["a", "b", "c"] },
        { resource: "forced", name: "eng.forced", availableValues: ["a", "b", "c"], opts: { deleteBeforeReplace: false } },
      ]),
    );
    expect(e.message).toContain(s.urn("forced"));
    expect(s.flagWrites().filter((w) => w.endsWith(" eng.forced"))).toEqual([]);
    expect(await s.serviceFlags()).toContain("eng.forced");
  }, STEP_MS);
});

describe("aliases", () => {
  // step_generator.go generateSteps: the old state is looked up "by URN and then by any provided aliases"; one found
  // by an alias is the same resource (aliased: not deleted at the end, GenerateDeletes). collapseAliasToUrn fills
  // an alias's missing name, type and parent from the resource; generateAliases multiplies out the parent's aliases
  // (inheritedChildAlias), so that a component renamed or retyped takes its children along.
  let s: Stack;
  beforeAll(async () => {
    s = await Stack.start("engine-alias");
    await s.up([{ resource: "banner", name: "eng.banner" }]);
  }, STEP_MS);
  afterAll(() => s?.close());

  it("a renamed resource with an alias to its old name is the same resource: no create, no delete", async () => {
    const plan = await s.up([{ resource: "hero", name: "eng.banner", opts: { aliases: [{ name: "banner" }] } }]);
    expect(ops(plan)).toEqual([["hero", "same"]]);
    expect(s.flagWrites()).toEqual([]);
    expect(await s.serviceFlags()).toEqual(["eng.banner"]);
    expect(s.t.state().resources.filter((r) => r.type === FLAG).map((r) => r.urn)).toEqual([s.urn("hero")]);
  }, STEP_MS);

  it("moved into a component, with an alias to no parent: the same resource", async () => {
    const plan = await s.up([{ resource: "hero", name: "eng.banner", opts: { parent: "ui", aliases: [{ noParent: true }] } }], [{ resource: "ui" }]);
    expect(ops(plan)).toEqual([["hero", "same"]]);
    expect(s.flagWrites()).toEqual([]);
    expect(s.t.state().resources.filter((r) => r.type === FLAG).map((r) => r.urn)).toEqual([s.urn("hero", `engine:index:Group$${FLAG}`)]);
  }, STEP_MS);

  it("its component retyped, with an alias to the old type: the child follows (inherited alias)", async () => {
    const plan = await s.up([{ resource: "hero", name: "eng.banner", opts: { parent: "ui" } }], [{ resource: "ui", type: "engine:index:Panel", aliases: [{ type: "engine:index:Group" }] }]);
    expect(ops(plan)).toEqual([["hero", "same"]]);
    expect(s.flagWrites()).toEqual([]);
    expect(s.t.state().resources.filter((r) => r.type === FLAG).map((r) => r.urn)).toEqual([s.urn("hero", `engine:index:Panel$${FLAG}`)]);
  }, STEP_MS);

  it("renamed back out of the component with changed inputs: an update of the same flag, not a create and a delete", async () => {
    // isPermanent is the Flag's one updatable input; the service takes it only with a configuration, which this
    // program does not declare: the provider's update runs (on the same flag id) and fails with its fix.
    const e = await s.failing(
      s.up([{ resource: "banner", name: "eng.banner", isPermanent: true, opts: { aliases: [{ name: "hero", parent: "ui" }] } }], [{ resource: "ui", type: "engine:index:Panel" }]),
    );
    expect(e.message).toContain(`${s.urn("banner")}: updating Flag "eng.banner" (${s.appId}/eng.banner)`);
    expect(s.flagWrites()).toEqual([]);
    expect(await s.serviceFlags()).toEqual(["eng.banner"]);
    // The old state stands as it was, under its old URN: the failed update changed nothing (seen under the CLI).
    expect(s.t.state().resources.filter((r) => r.type === FLAG).map((r) => [r.urn, r.outputs.isPermanent])).toEqual([
      [s.urn("hero", `engine:index:Panel$${FLAG}`), false],
    ]);
  }, STEP_MS);
});
