/* istanbul ignore file */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { ManagedResource } from "../harness";
import { LIST_PATH, requests, startWorld, TYPES, type World } from "./helpers";

// The bundle resources read the bundle list, not one bundle: a deployment of N of them must not cost N lists, at any
// parallelism. (npm run bench counts the same at 200 resources.)
const N = 20;
let w: World;
let bundlesDir: string;
let availabilities: ManagedResource[];
let others: ManagedResource[];
const name = (i: number) => `b${String(i).padStart(3, "0")}`;

beforeAll(async () => {
  bundlesDir = fs.mkdtempSync(path.join(os.tmpdir(), "many-bundles-"));
  for (let i = 0; i < N; i++) {
    fs.mkdirSync(path.join(bundlesDir, name(i)));
    fs.writeFileSync(path.join(bundlesDir, name(i), "bundle.yaml"), `apiVersion: "1"\nid: "${name(i)}"\nversion: "1"\n`);
  }
  w = await startWorld({ emulator: { bundlesDir, controllers: ["c1", "c2", "c3"] } });
  availabilities = Array.from({ length: N }, (_, i) =>
    w.lc.resource(TYPES.bundleAvailability, `avail-${name(i)}`, w.texts.bundleAvailability, { bundleId: name(i), controllers: ["c1", "c2"] }),
  );
  others = [
    w.lc.resource(TYPES.controllerBundleAssignment, "c1", w.texts.controllerBundleAssignment, { controllerPath: "c1", bundleId: name(0) }),
    w.lc.resource(TYPES.defaultBundle, "default", w.texts.defaultBundle, { bundleId: name(1) }),
    w.lc.resource(TYPES.globalAvailabilityPattern, "global", w.texts.globalAvailabilityPattern, { visibility: false }),
  ];
}, 60_000);
afterAll(async () => {
  await w?.close();
  fs.rmSync(bundlesDir, { recursive: true, force: true });
});

/** The engine runs the steps of independent resources with at most `parallel` in flight (0: all at once). */
async function wave(list: ManagedResource[], step: (r: ManagedResource) => Promise<unknown>, parallel = 0): Promise<void> {
  const queue = [...list];
  const lanes = parallel === 0 ? queue.length : parallel;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      for (let r = queue.shift(); r; r = queue.shift()) await step(r);
    }),
  );
}

/** List requests of one deployment (a fresh provider host) running `f`. */
async function listsOf(f: () => Promise<unknown>): Promise<number> {
  await w.nextDeployment();
  w.emu.journal.clear();
  await f();
  return requests(w.emu, "GET", LIST_PATH);
}

describe(`one bundle list per deployment wave (${N} availabilities)`, () => {
  it("an up creating them all at once makes one write each and at most two lists", async () => {
    const lists = await listsOf(() => wave(availabilities, (r) => r.up()));
    expect(requests(w.emu, "POST", "/cjoc/casc-bundle/set-availability-pattern")).toBe(N);
    expect(lists).toBeGreaterThanOrEqual(1);
    expect(lists).toBeLessThanOrEqual(2);
    // Assignments need the availability first (dependsOn in a program): a second wave, in the same deployment.
    w.emu.journal.clear();
    await wave(others, (r) => r.up());
    expect(requests(w.emu, "POST", "/cjoc/casc-bundle/set-controller-to-bundle")).toBe(1);
    // Each reads before it writes (takeover), from the list this deployment keeps: its availability writes updated
    // it from their answers. A read that comes after another resource's write asks again, once.
    expect(requests(w.emu, "GET", LIST_PATH)).toBeLessThanOrEqual(1);
    expect(w.emu.state.assignments()).toEqual({ c1: name(0) });
  });

  it.each([1, 10, 0])("a refresh at parallelism %p (0: unbounded) makes at most two lists, nothing else, and finds no drift", async (parallel) => {
    const all = [...availabilities, ...others];
    const changed: string[] = [];
    const lists = await listsOf(() =>
      wave(all, async (r) => {
        const plan = (await r.refresh()) as { name: string; changedFields: string[] };
        if (plan.changedFields.length > 0) changed.push(`${plan.name}: ${plan.changedFields.join(", ")}`);
      }, parallel),
    );
    // c1 was assigned b000 after b000's availability was created: who uses a bundle is not its state.
    expect(changed).toEqual([]);
    expect(lists).toBeGreaterThanOrEqual(1);
    expect(lists).toBeLessThanOrEqual(2);
    expect(w.emu.journal.entries().filter((e) => e.path !== LIST_PATH)).toEqual([]);
  });

  it("an update of them all at once makes one write each and at most two lists", async () => {
    const lists = await listsOf(() => wave(availabilities, (r) => r.up({ bundleId: r.state!.inputs.bundleId, controllers: ["c1", "c2", "c3"] })));
    expect(requests(w.emu, "POST", "/cjoc/casc-bundle/set-availability-pattern")).toBe(N);
    expect(lists).toBeGreaterThanOrEqual(1);
    expect(lists).toBeLessThanOrEqual(2);
    expect(availabilities.every((r) => JSON.stringify(r.state!.outputs.controllers) === '["c1","c2","c3"]')).toBe(true);
    expect(w.emu.state.apiAvailabilityPatterns()[name(0)]).toBe("^(?:c1|c2|c3)$");
  });

  it("within a deployment, a change made elsewhere shows only after this process writes; the next deployment sees it", async () => {
    const [first, second] = availabilities;
    await w.nextDeployment();
    await first!.refresh();
    await w.oc.setAvailabilityPattern(name(1), "c1");
    w.emu.journal.clear();
    // The deployment's list serves this read: the engine's refresh of one stack is one snapshot.
    expect(await second!.refresh()).toMatchObject({ changedFields: [] });
    expect(w.emu.journal.entries()).toEqual([]);
    const lists = await listsOf(() => second!.refresh());
    expect(lists).toBe(1);
    expect(second!.state!.inputs).toMatchObject({ bundleId: name(1), regex: "c1" });
  });
});
