/**
 * `pulumi-cloudbees drift` as a user runs it (`node dist/cli/main.js drift --stacks-file stacks.yaml`), on the
 * real CLI against one emulator: six stacks, each project with a file backend of its own in its folder: the YAML
 * program of examples/plugin/yaml (yaml-a), the same on an application of its own without the bundle's resources
 * (yaml-b, clean; its second stack `staging` held by a lock file), the dynamic providers' program
 * (examples/plugin/dynamic, on an application and bundle of its own), examples/plugin/python's flags (on an
 * application of its own, the Python SDK installed from its wheel), and a YAML program naming a type the schema
 * lacks (broken). After `pulumi up`, alice@example.com changes the three flag configurations and a person team-a's
 * availability pattern. The report names each drifted path with declared and actual values and who changed the
 * flags; the refresh mode (pulumi refresh --preview-only), run with 30 % of the emulator's requests answering 503 and
 * the bundle list failing past the provider's own retries, gives every stack its true status and the same drifted
 * paths, and says which stacks took more than one try; a second run carries firstSeen; a repaired stack's paths
 * come back resolved; two shards merged equal the unsharded run; no token of the emulator reaches a file or the
 * command's output.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator, type Emulator } from "../../emulator";
import { OperationsCenterClient } from "../../provider";
import type { DriftReport } from "../../cli/drift/report";
import { emulatorConnection } from "../../testing/emulator-config";
import { featureManagementClientAs } from "../../testing/out-of-band";
import { comparable, driftedStacks, driftReport, lockStack, pathsOf, placeProgram, previewUnlessSaid, readReport, runDriftCommand, startDriftEstate, statuses, writeStacksFile, writtenTexts, type DriftEstate } from "./drift-estate";
import { pythonVirtualenv } from "./languages/toolchains";

const APPS = { "yaml-a": "checkout-service", "yaml-b": "billing-service", dynamic: "payments-service", python: "inventory-service" } as const;

let emu: Emulator;
let estate: DriftEstate;
const place = (name: string, program: string, edit: (text: string) => string, file: string) => placeProgram(estate, name, `plugin/${program}`, file, edit);
const drift = (out: string, ...args: string[]) => driftReport(estate, out, "--concurrency", "2", ...previewUnlessSaid(args));

async function changeFlagAsAlice(app: string): Promise<void> {
  const id = emu.state.applications("acme").find((a) => a.name === app)!.id;
  const alice = featureManagementClientAs(emu, { email: "alice@example.com", name: "Alice" });
  await alice.patchExperiment(id, "Staging", "checkout.newFlow", [{ op: "replace", path: "/value", value: [{ option: true, percentage: 75 }] }]);
  await alice.close();
}

beforeAll(async () => {
  emu = await startEmulator();
  estate = await startDriftEstate("drift-command");
  place("yaml-a", "yaml", (t) => t, "Pulumi.yaml");
  // No bundle resources (yaml-a's), an application of its own.
  place("yaml-b", "yaml", (t) => t.replace("checkout-service", APPS["yaml-b"]).replace(/\n {2}teamB:[\s\S]*?\noutputs:/, "\noutputs:").replace(/\n {2}linkFile:.*/, ""), "Pulumi.yaml");
  place("dynamic", "dynamic", (t) => t.replace("checkout-service", APPS.dynamic).replaceAll("team-b/controller-b", "team-a/controller-a").replaceAll("team-b", "team-a"), "index.ts");
  // examples/plugin/python's flags, on an application of its own (the Python SDK from the wheel this tier builds).
  place("python", "python", (t) => t.replace("checkout-service", APPS.python).replace(/\nteam_b = [\s\S]*?\nbundle_token = .*\n/, "\n").replace(/\npulumi\.export\("linkFile".*/, ""), "__main__.py");
  place("broken", "yaml", (t) => t.replace("type: cloudbees:ControllerBundleToken", "type: cloudbees:NoSuchThing"), "Pulumi.yaml");
  writeStacksFile(estate, ["yaml-a#dev", "yaml-b#dev", "yaml-b#staging", "dynamic#dev", "python#dev", "broken#dev"]);

  const virtualenv = pythonVirtualenv(estate.projects.python!.dir, estate.env);
  for (const name of ["yaml-a", "yaml-b", "dynamic", "python", "broken"]) await estate.projects[name]!.initFor(emu);
  await virtualenv;
  await estate.projects["yaml-b"]!.ok("stack", "init", "staging");
  // An update under way on yaml-b's staging.
  lockStack(estate, "yaml-b", "staging");

  for (const name of ["yaml-a", "yaml-b", "dynamic", "python"]) await estate.projects[name]!.ok("up", "--yes", "--skip-preview", "--stack", "dev");
  for (const app of [APPS["yaml-a"], APPS.dynamic, APPS.python]) await changeFlagAsAlice(app);
  const oc = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...emu.credentials.admin });
  await oc.setAvailabilityPattern("team-a", "team-a/.*|sandbox");
  await oc.close();
});

afterAll(async () => {
  await emu?.close();
  estate?.cleanup();
});

let first: DriftReport;

it("a first run: exit 1, each stack's status, the drifted paths with declared and actual values, alice on the flags' paths, the causes, the summary", async () => {
  const { r, report } = await drift("run-1");
  expect({ code: r.code, stderr: r.stderr }).toMatchObject({ code: 1 });
  first = report;
  expect(statuses(report)).toEqual({ "broken#dev": "error", "dynamic#dev": "drifted", "python#dev": "drifted", "yaml-a#dev": "drifted", "yaml-b#dev": "clean", "yaml-b#staging": "locked" });
  const byId = Object.fromEntries(report.stacks.map((s) => [s.id, s]));
  // The YAML host's own words, from the event log (not the CLI's output, whose lines interleave in no fixed order).
  expect(byId["broken#dev"]!.error).toMatch(/^Error: error resolving type of resource bundleToken: unable to find resource type "cloudbees:NoSuchThing" in resource provider "cloudbees"\n {2}on Pulumi\.yaml line \d+:\n {2}\d+: +type: cloudbees:NoSuchThing$/);
  expect(byId["yaml-b#staging"]!.error).toMatch(/locked by 1 lock/);

  const flag = { resource: "newFlowStaging", path: "value[0].percentage", kind: "update", declared: 50, actual: 75, changedBy: "alice@example.com", status: "new", firstSeen: report.generatedAt };
  expect(pathsOf(report, "yaml-a#dev")).toEqual([{ ...flag, changedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/) }]);
  expect(pathsOf(report, "python#dev")).toEqual([{ ...flag, changedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/) }]);
  const dynamic = pathsOf(report, "dynamic#dev");
  expect(dynamic).toEqual(
    expect.arrayContaining([
      { ...flag, changedAt: expect.any(String) },
      expect.objectContaining({ resource: "teamB", path: "controllers", declared: ["team-a/controller-a"] }),
      expect.objectContaining({ resource: "teamB", path: "regex", actual: "team-a/.*|sandbox" }),
    ]),
  );
  expect(dynamic).toHaveLength(3);
  expect(byId["yaml-a#dev"]!.resources![0]!.notes![0]).toMatch(/^FlagConfiguration checkout\.newFlow\/Staging changed outside this stack by "alice@example\.com"/);

  // The same change in three stacks, two through the plugin (YAML, Python) and one through the dynamic providers, is one cause.
  expect(report.causes).toHaveLength(3);
  expect(report.causes.map((c) => [c.path, c.count, c.summary])).toEqual(
    expect.arrayContaining([
      ["value[0].percentage", 3, "flag configuration value[0].percentage 75 on 3 resources in 3 stacks"],
      ["regex", 1, expect.stringMatching(/regex "team-a\/\.\*\|sandbox" on 1 resource$/)],
    ]),
  );
  expect(report.summary).toEqual({ stacks: 6, clean: 1, drifted: 3, error: 1, locked: 1, timeout: 0, driftedResources: 4, driftedPaths: 5, newPaths: 5, resolvedPaths: 0 });
  expect(report.resolved).toEqual([]);
  for (const f of ["drift-report.md", "drift-report.html"]) expect(fs.statSync(path.join(estate.root, "run-1", f)).size).toBeGreaterThan(500);
  expect(fs.readFileSync(path.join(estate.root, "run-1", "drift-report.md"), "utf8")).toMatch(/50 → 75 \| by alice\\@example\.com at /);
  expect(r.stderr).toMatch(/6 stacks: 1 clean, 3 drifted \(5 paths, 5 new, 0 resolved\), 1 error, 1 locked, 0 timeout/);
});

it("the refresh mode under faults (30 % of requests 503, the bundle list past the provider's retries): every stack its true status, the same drifted paths, the tries each took", async () => {
  // Seeded, and the first eight bundle lists refused: each of those fails a check (the provider tries four times), so a
  // stack is checked again whatever order the stacks run in.
  emu.faults.random({ rate: 0.3, seed: 65, kinds: ["503"] });
  emu.faults.inject({ path: "/cjoc/casc-bundle/list", method: "GET", status: 503, times: 8 });
  let refresh: DriftReport;
  try {
    const { r, report } = await drift("refresh", "--mode", "refresh", "--retries", "2", "--retry-pause", "1");
    expect({ code: r.code, stderr: r.stderr }).toMatchObject({ code: 1 });
    refresh = report;
  } finally {
    emu.faults.clear();
  }
  expect(emu.faults.pending()).toEqual([]);
  // The refresh runs no program: the broken one, with nothing in its state, has nothing that drifted.
  expect(statuses(refresh)).toEqual({ ...statuses(first), "broken#dev": "clean" });
  expect(driftedStacks(refresh)).toEqual(driftedStacks(first));
  expect(statuses(first)).toMatchObject({ "dynamic#dev": "drifted", "python#dev": "drifted", "yaml-a#dev": "drifted" });
  expect(new Set(refresh.stacks.map((s) => s.mode))).toEqual(new Set(["refresh"]));
  expect(new Set(first.stacks.map((s) => s.mode))).toEqual(new Set(["preview"]));
  const tries = refresh.stacks.map((s) => s.tries!);
  expect(Math.max(...tries)).toBeGreaterThan(1);
  expect(Math.max(...tries)).toBeLessThanOrEqual(3);
  expect(fs.readFileSync(path.join(estate.root, "refresh", "drift-report.md"), "utf8")).toMatch(/checked by pulumi refresh --preview-only \(mode refresh\) · \d+ stacks? checked again after a passing fault/);
});

it("two shards merged equal the unsharded run (but for when and which shard)", async () => {
  const one = await drift("shard-1", "--shard", "1/2");
  const two = await drift("shard-2", "--shard", "2/2");
  expect([one.report.shard, two.report.shard]).toEqual([{ index: 1, count: 2 }, { index: 2, count: 2 }]);
  expect([one.r.code, two.r.code]).toEqual([1, 1]);
  const merge = await runDriftCommand(estate, ["merge", "shard-1/drift-report.json", "shard-2/drift-report.json", "--out", "merged"]);
  expect(merge.code).toBe(1);
  const merged = readReport(estate, "merged");
  expect(merged.shard).toBeUndefined();
  expect(comparable(merged)).toEqual(comparable(first));
});

let second: DriftReport;

it("a second run with --previous: the same drift is known, its firstSeen carried from the first run", async () => {
  const { r, report } = await drift("run-2", "--previous", "run-1/drift-report.json");
  expect(r.code).toBe(1);
  second = report;
  const paths = [...pathsOf(report, "yaml-a#dev"), ...pathsOf(report, "dynamic#dev"), ...pathsOf(report, "python#dev")];
  expect(paths).toHaveLength(5);
  for (const p of paths) expect({ path: p.path, status: p.status, firstSeen: p.firstSeen }).toEqual({ path: p.path, status: "known", firstSeen: first.generatedAt });
  expect(report.summary).toMatchObject({ drifted: 3, driftedPaths: 5, newPaths: 0, resolvedPaths: 0 });
});

it("after `pulumi up --refresh` repairs yaml-a, its path is resolved and the stack clean", async () => {
  await estate.projects["yaml-a"]!.ok("up", "--refresh", "--yes", "--skip-preview", "--stack", "dev");
  const { r, report } = await drift("run-3", "--previous", "run-2/drift-report.json");
  expect(r.code).toBe(1);
  expect(statuses(report)).toMatchObject({ "yaml-a#dev": "clean", "dynamic#dev": "drifted", "python#dev": "drifted" });
  const urn = second.stacks.find((s) => s.id === "yaml-a#dev")!.resources![0]!.urn;
  expect(report.resolved).toEqual([{ stack: "yaml-a#dev", urn, path: "value[0].percentage", firstSeen: first.generatedAt }]);
  expect(report.summary).toMatchObject({ clean: 2, drifted: 2, driftedPaths: 4, newPaths: 0, resolvedPaths: 1 });
});

it("no token of the emulator in any file the command wrote, nor in its output", () => {
  const c = emulatorConnection(emu);
  const { files, texts } = writtenTexts(estate, ["run-1", "refresh", "run-2", "run-3", "shard-1", "shard-2", "merged"]);
  expect(files.length).toBeGreaterThanOrEqual(21);
  for (const token of [c.apiToken, c.featureManagementToken, emu.state.controllerToken("team-b/controller-b"), emu.state.controllerToken("team-a/controller-a")]) {
    expect({ token, leaks: texts.filter((t) => t.includes(token)).length }).toEqual({ token, leaks: 0 });
  }
});
