/* istanbul ignore file */
import * as fs from "node:fs";
import * as path from "node:path";
import { CheckFailedError, ProviderHostError, UNKNOWN, type ManagedResource } from "../harness";
import { cascSnapshot, copyBundles, requests, startWorld, TYPES, type World } from "./helpers";

let w: World;
let bundlesDir: string;
const SET = "/cjoc/casc-bundle/set-controller-to-bundle";

beforeAll(async () => {
  bundlesDir = copyBundles();
  w = await startWorld({ emulator: { bundlesDir } });
  // Availability is another resource's business: set it up directly. team-a keeps its bundle.yaml pattern (team-a/.*).
  await w.oc.setAvailabilityPattern("team-b", "team-b/.*|sandbox");
  await w.oc.setAvailabilityPattern("base", ".*");
});
afterAll(async () => {
  await w?.close();
  fs.rmSync(bundlesDir, { recursive: true, force: true });
});

const assignment = (name: string, inputs: Record<string, unknown>): ManagedResource =>
  w.lc.resource(TYPES.controllerBundleAssignment, name, w.texts.controllerBundleAssignment, inputs);
const assignments = () => w.emu.state.assignments();

describe("ControllerBundleAssignment life cycle through the real provider host", () => {
  let r: ManagedResource;

  it("creates: the controller is assigned the bundle", async () => {
    r = assignment("b", { controllerPath: "team-b/controller-b", bundleId: "team-b" });
    expect(await r.up()).toMatchObject({ op: "create", changedFields: ["bundleId", "controllerPath"] });
    expect(r.state!.id).toBe("assignment/team-b/controller-b");
    expect(r.state!.outputs).toEqual({ controllerPath: "team-b/controller-b", bundleId: "team-b", __provider: w.texts.controllerBundleAssignment });
    expect(assignments()).toEqual({ "team-b/controller-b": "team-b" });
  });

  it("reads back the same state; the same inputs make no diff", async () => {
    const before = r.state!;
    expect(await r.refresh()).toMatchObject({ changedFields: [] });
    expect(r.state).toEqual(before);
    expect(await r.up()).toMatchObject({ op: "same" });
  });

  it("shows another bundle assigned outside Pulumi on refresh, and up assigns its bundle again", async () => {
    await w.oc.setControllerToBundle("base", "team-b/controller-b");
    // A provider host keeps its bundle list for the deployment: the drift shows in the next one.
    await w.nextDeployment();
    expect(await r.refresh()).toMatchObject({ changedFields: ["bundleId"] });
    expect(r.state!.inputs).toMatchObject({ bundleId: "base" });
    expect(await r.preview({ controllerPath: "team-b/controller-b", bundleId: "team-b" })).toMatchObject({ op: "update", replaces: [] });
    expect(await r.up({ controllerPath: "team-b/controller-b", bundleId: "team-b" })).toMatchObject({ op: "update" });
    expect(assignments()["team-b/controller-b"]).toBe("team-b");
  });

  it("updates in place when bundleId changes; fallbackBundleId alone changes nothing on the server (it is checked)", async () => {
    expect(await r.up({ controllerPath: "team-b/controller-b", bundleId: "base" })).toMatchObject({ op: "update", replaces: [] });
    expect(r.state!.id).toBe("assignment/team-b/controller-b");
    expect(assignments()["team-b/controller-b"]).toBe("base");
    w.emu.journal.clear();
    expect(await r.up({ controllerPath: "team-b/controller-b", bundleId: "base", fallbackBundleId: "team-b" })).toMatchObject({ op: "update" });
    expect(requests(w.emu, "POST", SET)).toBe(0);
    expect(r.state!.outputs).toMatchObject({ fallbackBundleId: "team-b" });
  });

  it("previews unknown values: a controllerPath not known yet replaces, a bundleId updates", async () => {
    expect(await r.preview({ controllerPath: UNKNOWN, bundleId: "base" })).toMatchObject({ op: "replace", replaces: ["controllerPath"] });
    expect(await r.preview({ controllerPath: "team-b/controller-b", bundleId: UNKNOWN })).toMatchObject({ op: "update", replaces: [] });
  });

  it("replaces when controllerPath changes: the new controller is assigned, the old one gets the fallback", async () => {
    expect(await r.up({ controllerPath: "sandbox", bundleId: "base", fallbackBundleId: "team-b" })).toMatchObject({
      op: "replace",
      replaces: ["controllerPath"],
    });
    expect(r.state!.id).toBe("assignment/sandbox");
    expect(assignments()).toEqual({ sandbox: "base", "team-b/controller-b": "team-b" });
  });

  it("delete with fallbackBundleId leaves a controller alone that someone assigned another bundle since", async () => {
    await w.oc.setControllerToBundle("team-b", "sandbox");
    await w.nextDeployment();
    w.host.takeOutput();
    await r.destroy();
    expect(await w.host.waitForOutput(/controller "sandbox" no longer uses bundle "base" \(it uses "team-b"\)/)).toContain("warning:");
    expect(assignments().sandbox).toBe("team-b");
  });

  it("delete without fallbackBundleId warns that the controller keeps its bundle", async () => {
    const a = assignment("a", { controllerPath: "team-a/controller-a", bundleId: "team-a" });
    await a.up();
    w.host.takeOutput();
    w.emu.journal.clear();
    await a.destroy();
    const out = await w.host.waitForOutput(/keeps bundle/);
    expect(out).toContain('controller "team-a/controller-a" keeps bundle "team-a"');
    expect(out).toContain("fallbackBundleId");
    expect(w.emu.journal.entries()).toEqual([]);
    expect(assignments()["team-a/controller-a"]).toBe("team-a");
  });

  it("is dropped on refresh when its bundle left the bundle location", async () => {
    const x = assignment("x", { controllerPath: "team-b/controller-b", bundleId: "team-b" });
    await x.up();
    const scratch = fs.mkdtempSync(path.join(bundlesDir, "..", "moved-"));
    fs.renameSync(path.join(bundlesDir, "team-b"), path.join(scratch, "team-b"));
    try {
      await w.oc.checkOut();
      await w.nextDeployment();
      expect(await x.refresh()).toMatchObject({ op: "refresh", dropped: true });
    } finally {
      fs.renameSync(path.join(scratch, "team-b"), path.join(bundlesDir, "team-b"));
      fs.rmSync(scratch, { recursive: true, force: true });
      await w.oc.checkOut();
    }
  });
});

describe("ControllerBundleAssignment bad input", () => {
  const cases: Array<[string, Record<string, unknown>, string, RegExp]> = [
    ["a leading /", { controllerPath: "/team-a/controller-a", bundleId: "team-a" }, "controllerPath", /must not start or end with "\/": full paths look like folder1\/controller1; write "team-a\/controller-a"/],
    ["a trailing /", { controllerPath: "sandbox/", bundleId: "team-a" }, "controllerPath", /write "sandbox"/],
    ["an empty controllerPath", { controllerPath: "", bundleId: "team-a" }, "controllerPath", /controllerPath must not be empty/],
    ["an empty bundleId", { controllerPath: "sandbox", bundleId: "  " }, "bundleId", /bundleId must not be empty/],
    ["a fallback equal to the bundle", { controllerPath: "sandbox", bundleId: "base", fallbackBundleId: "base" }, "fallbackBundleId", /must differ from bundleId/],
  ];

  it.each(cases)("%s fails in check, naming the input and the fix, with no request sent", async (_what, inputs, property, reason) => {
    const before = await cascSnapshot(w);
    w.emu.journal.clear();
    const error = (await assignment("bad", inputs).up().catch((e: unknown) => e)) as CheckFailedError;
    expect(error).toBeInstanceOf(CheckFailedError);
    expect(error.failures).toEqual(expect.arrayContaining([{ property, reason: expect.stringMatching(reason) }]));
    expect(w.emu.journal.entries()).toEqual([]);
    expect(await cascSnapshot(w)).toEqual(before);
  });

  async function failsAtCreate(inputs: Record<string, unknown>): Promise<string> {
    const before = await cascSnapshot(w);
    const r = assignment("failing", inputs);
    const error = (await r.up().catch((e: unknown) => e)) as ProviderHostError;
    expect(error).toBeInstanceOf(ProviderHostError);
    expect(r.state).toBeUndefined();
    expect(await cascSnapshot(w)).toEqual(before);
    return error.details;
  }

  it("a bundle not available to the controller: the error says so and names BundleAvailability as the fix", async () => {
    const message = await failsAtCreate({ controllerPath: "sandbox", bundleId: "team-a" });
    expect(message).toMatch(/^creating ControllerBundleAssignment \(assignment\/sandbox\): bundle "team-a" \(bundleId\) is not available to controller "sandbox"/);
    expect(message).toContain('Fix: declare a BundleAvailability for bundle "team-a" whose controllers (or regex) include "sandbox"');
    expect(message).toContain("dependsOn");
  });

  it("an unknown controller: the error names controllerPath and the controllers the operations center knows", async () => {
    const message = await failsAtCreate({ controllerPath: "team-c/controller-c", bundleId: "base" });
    expect(message).toMatch(/controllerPath "team-c\/controller-c" names no controller on the operations center\. Fix: give the controller's full path/);
    expect(message).toContain('"team-a/controller-a"');
  });

  it("an unknown bundle: the error names bundleId and the bundles that exist", async () => {
    const message = await failsAtCreate({ controllerPath: "sandbox", bundleId: "team-z" });
    expect(message).toMatch(/bundleId "team-z" names no bundle: the operations center lists "base", "team-a", "team-b"\. Fix: set bundleId/);
  });

  it("a fallback that names no bundle fails at create, before any write, not at destroy", async () => {
    w.emu.journal.clear();
    const message = await failsAtCreate({ controllerPath: "sandbox", bundleId: "base", fallbackBundleId: "team-z" });
    expect(message).toMatch(/^creating ControllerBundleAssignment \(assignment\/sandbox\): fallbackBundleId "team-z" names no bundle: the operations center lists "base", "team-a", "team-b"\./);
    expect(requests(w.emu, "POST", SET)).toBe(0);
  });

  it("a fallback not available to the controller fails at create and at update, naming the fix", async () => {
    const message = await failsAtCreate({ controllerPath: "sandbox", bundleId: "base", fallbackBundleId: "team-a" });
    expect(message).toMatch(/fallbackBundleId "team-a" is not available to controller "sandbox", so the delete that assigns it would fail\. Fix: declare a BundleAvailability for bundle "team-a" whose controllers \(or regex\) include "sandbox"/);
    expect(message).toContain("dependsOn");

    const r = assignment("fallback-later", { controllerPath: "sandbox", bundleId: "base" });
    await r.up();
    const error = (await r.up({ controllerPath: "sandbox", bundleId: "base", fallbackBundleId: "team-a" }).catch((e: unknown) => e)) as ProviderHostError;
    expect(error.details).toMatch(/^updating ControllerBundleAssignment \(assignment\/sandbox\): fallbackBundleId "team-a" is not available/);
    expect(r.state!.outputs).not.toHaveProperty("fallbackBundleId");
    // Declared available, the same fallback goes through.
    await w.oc.setAvailabilityPattern("team-a", "team-a/.*|sandbox");
    await w.nextDeployment(); // a provider host reads the list once per deployment
    expect(await r.up({ controllerPath: "sandbox", bundleId: "base", fallbackBundleId: "team-a" })).toMatchObject({ op: "update" });
    await w.oc.clearAvailabilityPattern("team-a");
  });
});

describe("ControllerBundleAssignment takeover", () => {
  it("create for a controller that already uses the bundle writes nothing; refresh and up then change nothing", async () => {
    await w.oc.setControllerToBundle("team-b", "team-b/controller-b");
    await w.nextDeployment();
    w.emu.journal.clear();
    const r = assignment("taken-over", { controllerPath: "team-b/controller-b", bundleId: "team-b", fallbackBundleId: "base" });
    expect(await r.up()).toMatchObject({ op: "create" });
    expect(w.emu.journal.entries().map((e) => `${e.method} ${e.path}`)).toEqual(["GET /cjoc/casc-bundle/list"]);
    expect(await r.refresh()).toMatchObject({ changedFields: [] });
    expect(await r.up()).toMatchObject({ op: "same" });
  });
});
