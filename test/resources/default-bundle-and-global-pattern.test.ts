/* istanbul ignore file */
import * as fs from "node:fs";
import * as path from "node:path";
import { CheckFailedError, ProviderHostError, UNKNOWN, type ManagedResource } from "../harness";
import { cascSnapshot, copyBundles, startWorld, TYPES, type World } from "./helpers";

let w: World;
let bundlesDir: string;

beforeAll(async () => {
  bundlesDir = copyBundles();
  w = await startWorld({ emulator: { bundlesDir } });
});
afterAll(async () => {
  await w?.close();
  fs.rmSync(bundlesDir, { recursive: true, force: true });
});

const defaultBundle = (name: string, inputs: Record<string, unknown>): ManagedResource =>
  w.lc.resource(TYPES.defaultBundle, name, w.texts.defaultBundle, inputs);
const globalPattern = (name: string, inputs: Record<string, unknown>): ManagedResource =>
  w.lc.resource(TYPES.globalAvailabilityPattern, name, w.texts.globalAvailabilityPattern, inputs);

describe("DefaultBundle life cycle through the real provider host", () => {
  let r: ManagedResource;

  it("creates: the default is set; the state holds the bundle id alone", async () => {
    r = defaultBundle("default", { bundleId: "team-a" });
    expect(await r.up()).toMatchObject({ op: "create" });
    expect(r.state!.id).toBe("default-bundle");
    expect(w.emu.state.defaultBundle()).toBe("team-a");
    expect(r.state!.outputs).toEqual({ bundleId: "team-a", __provider: w.texts.defaultBundle });
    expect(w.emu.state.preselectedBundleFor("team-a/controller-a")).toBe("team-a");
  });

  it("reads back the same state; the same inputs make no diff", async () => {
    const before = r.state!;
    expect(await r.refresh()).toMatchObject({ changedFields: [] });
    expect(r.state).toEqual(before);
    expect(await r.up()).toMatchObject({ op: "same" });
  });

  it("a change of the bundle's availability (another resource's setting) changes nothing on refresh", async () => {
    const before = r.state!;
    await w.oc.setAvailabilityPattern("team-a", "team-a/.*|sandbox");
    // A provider host keeps its bundle list for the deployment: read the next deployment's.
    await w.nextDeployment();
    expect(await r.refresh()).toMatchObject({ changedFields: [] });
    expect(r.state).toEqual(before);
    await w.oc.clearAvailabilityPattern("team-a");
  });

  it("cannot see a default changed outside Pulumi (no endpoint reads it): documented, and a bundleId change sets it", async () => {
    await w.oc.setDefaultBundle("base");
    // A provider host keeps its bundle list for the deployment: read the next deployment's.
    await w.nextDeployment();
    expect(await r.refresh()).toMatchObject({ changedFields: [] });
    expect(await r.up()).toMatchObject({ op: "same" });
    expect(w.emu.state.defaultBundle()).toBe("base");
    // Updates in place (one default per operations center: nothing replaces), with a stable id.
    expect(await r.up({ bundleId: "team-b" })).toMatchObject({ op: "update", replaces: [] });
    expect(r.state!.id).toBe("default-bundle");
    expect(w.emu.state.defaultBundle()).toBe("team-b");
    expect(await r.up({ bundleId: "team-a" })).toMatchObject({ op: "update" });
    expect(w.emu.state.defaultBundle()).toBe("team-a");
  });

  it("previews an unknown bundleId as an update", async () => {
    expect(await r.preview({ bundleId: UNKNOWN })).toMatchObject({ op: "update", replaces: [] });
  });

  it("delete warns that the default stays", async () => {
    w.host.takeOutput();
    await r.destroy();
    expect(await w.host.waitForOutput(/stays the default/)).toContain('"team-a" stays the default');
    expect(w.emu.state.defaultBundle()).toBe("team-a");
  });

  it("is dropped on refresh when its bundle left the bundle location", async () => {
    const gone = defaultBundle("gone", { bundleId: "team-b" });
    await gone.up();
    const scratch = fs.mkdtempSync(path.join(bundlesDir, "..", "moved-"));
    fs.renameSync(path.join(bundlesDir, "team-b"), path.join(scratch, "team-b"));
    try {
      await w.oc.checkOut();
      await w.nextDeployment();
      expect(await gone.refresh()).toMatchObject({ dropped: true });
    } finally {
      fs.renameSync(path.join(scratch, "team-b"), path.join(bundlesDir, "team-b"));
      fs.rmSync(scratch, { recursive: true, force: true });
      await w.oc.checkOut();
    }
  });

  it("bad input: an empty bundleId fails in check; an unknown bundle fails at create naming bundleId; nothing changes", async () => {
    const before = await cascSnapshot(w);
    const empty = (await defaultBundle("empty", { bundleId: "" }).up().catch((e: unknown) => e)) as CheckFailedError;
    expect(empty.failures).toEqual([{ property: "bundleId", reason: expect.stringContaining("bundleId must not be empty") }]);
    const unknown = (await defaultBundle("unknown", { bundleId: "nope" }).up().catch((e: unknown) => e)) as ProviderHostError;
    expect(unknown).toBeInstanceOf(ProviderHostError);
    expect(unknown.details).toMatch(/^creating DefaultBundle \(default-bundle\): bundleId "nope" names no bundle: the operations center lists "base", "team-a", "team-b"\. Fix:/);
    expect(await cascSnapshot(w)).toEqual(before);
  });
});

describe("GlobalAvailabilityPattern life cycle through the real provider host", () => {
  let r: ManagedResource;

  it("creates: bundles without a pattern become available to every controller", async () => {
    r = globalPattern("global", { visibility: true });
    expect(await r.up()).toMatchObject({ op: "create" });
    expect(r.state!.id).toBe("global-availability-pattern");
    expect(r.state!.outputs).toEqual({ visibility: true, __provider: w.texts.globalAvailabilityPattern });
    expect(w.emu.state.globalVisibility()).toBe(true);
    expect((await w.oc.listBundles()).find((b) => b.name === "base")!.availableFor).toEqual(w.emu.state.controllers());
  });

  it("reads back the same state (inferred from the bundle list); the same inputs make no diff", async () => {
    const before = r.state!;
    expect(await r.refresh()).toMatchObject({ changedFields: [] });
    expect(r.state).toEqual(before);
    expect(await r.up()).toMatchObject({ op: "same" });
  });

  it("shows the switch turned off outside Pulumi on refresh, and up turns it on again", async () => {
    await w.oc.setGlobalAvailabilityPatternBehavior(false);
    await w.nextDeployment();
    expect(await r.refresh()).toMatchObject({ changedFields: ["visibility"] });
    expect(r.state!.inputs).toMatchObject({ visibility: false });
    expect(await r.up({ visibility: true })).toMatchObject({ op: "update", replaces: [] });
    expect(w.emu.state.globalVisibility()).toBe(true);
  });

  it("updates in place; an unknown value previews as an update", async () => {
    expect(await r.preview({ visibility: UNKNOWN })).toMatchObject({ op: "update", replaces: [] });
    expect(await r.up({ visibility: false })).toMatchObject({ op: "update" });
    expect(w.emu.state.globalVisibility()).toBe(false);
    expect(await r.up({ visibility: true })).toMatchObject({ op: "update" });
  });

  it("takeover: a create (or update) asking for the switch the bundle list shows already writes nothing", async () => {
    await w.oc.setGlobalAvailabilityPatternBehavior(true);
    w.emu.journal.clear();
    const other = globalPattern("taken-over", { visibility: true });
    expect(await other.up()).toMatchObject({ op: "create" });
    expect(w.emu.journal.entries().map((e) => `${e.method} ${e.path}`)).toEqual(["GET /cjoc/casc-bundle/list"]);
    expect(await other.refresh()).toMatchObject({ changedFields: [] });
  });

  it("delete sets it back to false, the secure setting", async () => {
    await r.destroy();
    expect(w.emu.state.globalVisibility()).toBe(false);
  });

  it("bad input: visibility must be a boolean, checked before any request", async () => {
    w.emu.journal.clear();
    for (const visibility of ["yes", 1, undefined]) {
      const error = (await globalPattern("bad", visibility === undefined ? {} : { visibility }).up().catch((e: unknown) => e)) as CheckFailedError;
      expect(error).toBeInstanceOf(CheckFailedError);
      expect(error.failures[0]).toMatchObject({ property: "visibility", reason: expect.stringMatching(/visibility (must be true or false|is required: set it to true or false)/) });
    }
    expect(w.emu.journal.entries()).toEqual([]);
  });
});
