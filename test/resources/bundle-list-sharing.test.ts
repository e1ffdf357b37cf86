/* istanbul ignore file */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { ManagedResource } from "../harness";
import { LIST_PATH, requests, startWorld, TYPES, type World } from "./helpers";

// The bundle resources read the bundle list, not one bundle: a refresh of N of them must not cost N lists.
const N = 12;
let w: World;
let bundlesDir: string;
let resources: ManagedResource[];

beforeAll(async () => {
  bundlesDir = fs.mkdtempSync(path.join(os.tmpdir(), "many-bundles-"));
  for (let i = 0; i < N; i++) {
    const name = `b${String(i).padStart(2, "0")}`;
    fs.mkdirSync(path.join(bundlesDir, name));
    fs.writeFileSync(path.join(bundlesDir, name, "bundle.yaml"), `apiVersion: "1"\nid: "${name}"\nversion: "1"\n`);
  }
  w = await startWorld({ emulator: { bundlesDir, controllers: ["c1", "c2", "c3"] } });
  resources = [];
  for (let i = 0; i < N; i++) {
    const bundleId = `b${String(i).padStart(2, "0")}`;
    resources.push(w.lc.resource(TYPES.bundleAvailability, `avail-${bundleId}`, w.texts.bundleAvailability, { bundleId, controllers: ["c1", "c2", "c3"] }));
  }
  resources.push(w.lc.resource(TYPES.controllerBundleAssignment, "c1", w.texts.controllerBundleAssignment, { controllerPath: "c1", bundleId: "b00" }));
  resources.push(w.lc.resource(TYPES.defaultBundle, "default", w.texts.defaultBundle, { bundleId: "b01" }));
  resources.push(w.lc.resource(TYPES.globalAvailabilityPattern, "global", w.texts.globalAvailabilityPattern, { visibility: false }));
});
afterAll(async () => {
  await w?.close();
  fs.rmSync(bundlesDir, { recursive: true, force: true });
});

/** The engine runs the steps of independent resources in parallel. */
const wave = (f: (r: ManagedResource) => Promise<unknown>, list = resources) => Promise.all(list.map(f));

describe("one shared bundle list per wave", () => {
  it(`an up creating ${N} availabilities (and 3 other bundle resources) makes one write each and few lists`, async () => {
    // Assignments need the availability first (dependsOn in a program): create them in a second wave.
    await wave((r) => r.up(), resources.slice(0, N));
    const firstWaveLists = requests(w.emu, "GET", LIST_PATH);
    await wave((r) => r.up(), resources.slice(N));
    expect(requests(w.emu, "POST", "/cjoc/casc-bundle/set-availability-pattern")).toBe(N);
    expect(requests(w.emu, "POST", "/cjoc/casc-bundle/set-controller-to-bundle")).toBe(1);
    // Each create reads the list before writing (takeover: no write when the pattern is there already) and after:
    // one list for the wave each time (one more if the engine's calls straggle past the gathering window). The
    // second wave shares the list before the writes (assignment, global switch), and reads it after (default).
    expect(firstWaveLists).toBeGreaterThanOrEqual(2);
    expect(firstWaveLists).toBeLessThanOrEqual(3);
    expect(requests(w.emu, "GET", LIST_PATH) - firstWaveLists).toBeGreaterThanOrEqual(1);
    expect(requests(w.emu, "GET", LIST_PATH) - firstWaveLists).toBeLessThanOrEqual(3);
    expect(w.emu.state.assignments()).toEqual({ c1: "b00" });
  });

  it(`a refresh of all ${N + 3} bundle resources sends exactly one request: one list`, async () => {
    w.emu.journal.clear();
    const plans = (await wave((r) => r.refresh())) as Array<{ name: string; changedFields: string[] }>;
    // No drift: b00 got its controller after its availability was created, but who uses a bundle is not its state.
    expect(plans.filter((p) => p.changedFields.length > 0)).toEqual([]);
    expect(w.emu.journal.entries().map((e) => `${e.method} ${e.path}`)).toEqual([`GET ${LIST_PATH}`]);
  });

  it("the next refresh asks again, and sees a change made outside Pulumi in between", async () => {
    await w.oc.setAvailabilityPattern("b05", "c1");
    w.emu.journal.clear();
    await wave((r) => r.refresh());
    expect(requests(w.emu, "GET", LIST_PATH)).toBe(1);
    expect(resources[5]!.state!.inputs).toMatchObject({ bundleId: "b05", regex: "c1" });
    expect(resources[5]!.state!.inputs).not.toHaveProperty("controllers");
    expect(resources[4]!.state!.inputs).toMatchObject({ controllers: ["c1", "c2", "c3"] });
  });

  it("an up with no change sends nothing; reads spread out in time each ask again", async () => {
    await resources[5]!.up({ bundleId: "b05", controllers: ["c1", "c2", "c3"] });
    w.emu.journal.clear();
    await wave((r) => r.up());
    expect(w.emu.journal.entries()).toEqual([]);
    for (const r of resources.slice(0, 3)) await r.refresh();
    expect(requests(w.emu, "GET", LIST_PATH)).toBe(3);
  });
});
