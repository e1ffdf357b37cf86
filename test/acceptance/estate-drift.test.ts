/**
 * Issue 53's acceptance, on demand (`npm run test:acceptance`, not part of the tier: about four minutes and 420
 * CPU-s on the 2-core machine, for code paths the tier's six-stack drift-command.test.ts already proves):
 * `pulumi-cloudbees drift` over an estate of 20 stacks under the real CLI against one emulator, as a user runs it.
 * - YAML (11): nine copies of examples/plugin/yaml's flags, each on an application of its own; a second stack of one
 *   of them held by a lock file; a program naming a type the schema lacks.
 * - Python (4): examples/plugin/python's flags, each on an application of its own (one virtualenv, shared).
 * - TypeScript (5): four copies of examples/plugin/dynamic's flags, and examples/controllers (a managed controller,
 *   its bundle's availability, its assignment and ControllerConfiguration).
 * Drift made by hand: alice@example.com changes the rollout of checkout.newFlow in Staging in nine applications (five
 * YAML, two Python, two TypeScript); on the controller, its system message is changed in its UI and a plugin
 * installed; the bundle's availability pattern is widened. One report names every drifted path with declared and
 * actual values, who changed the flags, groups the nine flag changes into one cause; a second run carries firstSeen;
 * two shards merged equal the unsharded run. Those runs name the preview mode; a run in the refresh mode (the
 * default, issue 65) gives the same drifted paths with the same values on every face.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator, type Emulator } from "../../emulator";
import { OperationsCenterClient } from "../../provider";
import type { DriftReport } from "../../cli/drift/report";
import { inPool } from "../../cli/report/pool";
import { emulatorConnection } from "../../testing/emulator-config";
import { featureManagementClientAs } from "../../testing/out-of-band";
import { ROOT } from "../package/consumer-project";
import { comparable, driftedStacks, driftReport, lockStack, pathsOf, placeProgram, previewUnlessSaid, readReport, runDriftCommand, startDriftEstate, statuses, writeStacksFile, writtenTexts, type DriftEstate } from "../real-engine/drift-estate";
import { pythonVirtualenv } from "../real-engine/languages/toolchains";

const CONTROLLER = "team-c/controller-c";
const yamls = Array.from({ length: 9 }, (_, i) => `yaml-${i + 1}`);
const pythons = Array.from({ length: 4 }, (_, i) => `python-${i + 1}`);
const typescripts = Array.from({ length: 4 }, (_, i) => `ts-${i + 1}`);
/** The stacks whose flag alice changes: five YAML, two Python, two TypeScript. */
const ALICE = [...yamls.slice(0, 5), ...pythons.slice(0, 2), ...typescripts.slice(0, 2)];
const CLEAN = [...yamls.slice(5), ...pythons.slice(2), ...typescripts.slice(2)];
const LOCKED = "yaml-9#staging";

let emu: Emulator;
let estate: DriftEstate;
const app = (name: string) => `${name}-service`;
const drift = (out: string, ...args: string[]) => driftReport(estate, out, ...previewUnlessSaid(args));

beforeAll(async () => {
  emu = await startEmulator();
  estate = await startDriftEstate("estate-drift");
  const place = (name: string, program: string, file: string, edit: (text: string) => string) => placeProgram(estate, name, program, file, edit);
  const flagsOnlyYaml = (name: string) => (t: string) => t.replace("checkout-service", app(name)).replace(/\n {2}teamB:[\s\S]*?\noutputs:/, "\noutputs:").replace(/\n {2}linkFile:.*/, "");
  for (const name of yamls) place(name, "plugin/yaml", "Pulumi.yaml", flagsOnlyYaml(name));
  place("broken", "plugin/yaml", "Pulumi.yaml", (t) => flagsOnlyYaml("broken")(t).replace("type: cloudbees:Flag", "type: cloudbees:NoSuchThing"));
  for (const name of pythons) {
    place(name, "plugin/python", "__main__.py", (t) => t.replace("checkout-service", app(name)).replace(/\nteam_b = [\s\S]*?\nbundle_token = .*\n/, "\n").replace(/\npulumi\.export\("linkFile".*/, ""));
  }
  for (const name of typescripts) {
    place(name, "plugin/dynamic", "index.ts", (t) => t.replace("checkout-service", app(name)).replace(/\nconst teamB = [\s\S]*?\nconst bundleToken = .*\n/, "\n").replace(/\nexport const linkFile = .*/, ""));
  }
  // examples/controllers reads its bundle from ../bundles.
  fs.cpSync(path.join(ROOT, "examples", "bundles"), path.join(estate.root, "bundles"), { recursive: true });
  place("controllers", "controllers", "index.ts", (t) => t);
  const stacks = [...yamls.map((n) => `${n}#dev`), LOCKED, "broken#dev", ...pythons.map((n) => `${n}#dev`), ...typescripts.map((n) => `${n}#dev`), "controllers#dev"];
  expect(stacks).toHaveLength(20);
  writeStacksFile(estate, stacks);

  // One virtualenv for the four Python projects (each names ./venv; pythonVirtualenv links the run's one).
  for (const name of pythons) await pythonVirtualenv(estate.projects[name]!.dir, estate.env);

  await inPool(Object.keys(estate.projects), 4, (name) => estate.projects[name]!.initFor(emu));
  await estate.projects.controllers!.ok("config", "set", "controllers:instanceUrl", `${emu.baseUrl}controllers/${CONTROLLER}/`);
  await estate.projects["yaml-9"]!.ok("stack", "init", "staging");
  // An update under way on yaml-9's staging.
  lockStack(estate, "yaml-9", "staging");

  await inPool(Object.keys(estate.projects).filter((n) => n !== "broken"), 4, (name) => estate.projects[name]!.ok("up", "--yes", "--skip-preview", "--stack", "dev"));

  const alice = featureManagementClientAs(emu, { email: "alice@example.com", name: "Alice" });
  for (const name of ALICE) {
    const id = emu.state.applications("acme").find((a) => a.name === app(name))!.id;
    await alice.patchExperiment(id, "Staging", "checkout.newFlow", [{ op: "replace", path: "/value", value: [{ option: true, percentage: 75 }] }]);
  }
  await alice.close();
  emu.changeConfiguration(CONTROLLER, "jenkins.yaml", "jenkins.systemMessage", "Changed in the UI");
  emu.installPlugin(CONTROLLER, "git-client", "6.1.0");
  const oc = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...emu.credentials.admin });
  await oc.setAvailabilityPattern("base", "team-c/.*|sandbox");
  await oc.close();
}, 1_200_000);

afterAll(async () => {
  await emu?.close();
  estate?.cleanup();
});

let first: DriftReport;

it("one report of 20 stacks: each drifted path declared and actual, alice on the flags, the controller's paths, one cause per change, exit 1", async () => {
  const { r, report } = await drift("run-1");
  first = report;
  expect(r.code).toBe(1);
  expect(statuses(report)).toEqual({
    ...Object.fromEntries(ALICE.map((n) => [`${n}#dev`, "drifted"])),
    ...Object.fromEntries(CLEAN.map((n) => [`${n}#dev`, "clean"])),
    "controllers#dev": "drifted",
    "broken#dev": "error",
    [LOCKED]: "locked",
  });
  const byId = Object.fromEntries(report.stacks.map((s) => [s.id, s]));
  expect(byId["broken#dev"]!.error).toMatch(/unable to find resource type "cloudbees:NoSuchThing"/);
  expect(byId[LOCKED]!.error).toMatch(/locked by 1 lock/);

  const flag = { resource: "newFlowStaging", path: "value[0].percentage", kind: "update", declared: 50, actual: 75, changedBy: "alice@example.com", status: "new", firstSeen: report.generatedAt };
  for (const name of ALICE) expect({ name, paths: pathsOf(report, `${name}#dev`) }).toEqual({ name, paths: [{ ...flag, changedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/) }] });

  // ControllerConfiguration shows a controller's values as they are where they hold no secret (issue 65: a
  // credential's stay digests), with a note per path naming who changed it from the configuration history; the
  // availability's paths are the pattern's (the widened regex) and the controllers list.
  const controller = pathsOf(report, "controllers#dev");
  expect(controller).toEqual([
    expect.objectContaining({ resource: "base-for-team-c", path: "controllers", kind: "add", declared: [CONTROLLER], status: "new" }),
    expect.objectContaining({ resource: "base-for-team-c", path: "regex", kind: "delete", actual: "team-c/.*|sandbox", status: "new" }),
    expect.objectContaining({ resource: "team-c-controller", path: 'configuration["jenkins.yaml: jenkins.systemMessage"]', kind: "update", declared: "Managed by CasC: base bundle", actual: "Changed in the UI", changedBy: "admin", changedAt: expect.stringMatching(/ \(controller time\)$/), status: "new" }),
    expect.objectContaining({ resource: "team-c-controller", path: 'configuration["plugins.yaml: git-client"]', kind: "delete", actual: "installed", status: "new" }),
  ]);
  const running = report.stacks.find((s) => s.id === "controllers#dev")!.resources!.find((res) => res.name === "team-c-controller")!;
  expect(running.notes).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/differs from its bundle "base": jenkins\.yaml: jenkins\.systemMessage changed; plugins\.yaml: \+git-client/),
      expect.stringMatching(/"jenkins\.yaml: jenkins\.systemMessage" changed by "admin" at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d \(controller time\): "Managed by CasC: base bundle" → "Changed in the UI"/),
    ]),
  );

  // The same change in nine stacks, through the plugin (YAML, Python) and the dynamic providers, is one cause.
  const flagCause = report.causes.find((c) => c.path === "value[0].percentage")!;
  expect([flagCause.count, flagCause.summary]).toEqual([9, "flag configuration value[0].percentage 75 on 9 resources in 9 stacks"]);
  expect(report.summary).toMatchObject({ stacks: 20, clean: 8, drifted: 10, error: 1, locked: 1, timeout: 0, resolvedPaths: 0 });
  expect(report.summary.driftedPaths).toBe(9 + controller.length);
  expect(r.stderr).toMatch(/20 stacks: 8 clean, 10 drifted \(\d+ paths, \d+ new, 0 resolved\), 1 error, 1 locked, 0 timeout/);
  for (const f of ["drift-report.md", "drift-report.html"]) expect(fs.statSync(path.join(estate.root, "run-1", f)).size).toBeGreaterThan(1000);
  // For the closing note and whoever runs this: the summary and the causes, as the command wrote them.
  console.log(`${JSON.stringify(report.summary)}\n${report.causes.map((c) => `cause: ${c.summary}`).join("\n")}`);
}, 900_000);

it("the refresh mode (the default): the same drifted paths and values on every face; the broken program, not run, clean", async () => {
  const { r, report } = await driftReport(estate, "refresh");
  expect(r.code).toBe(1);
  expect(new Set(report.stacks.map((s) => s.mode))).toEqual(new Set(["refresh"]));
  expect(statuses(report)).toEqual({ ...statuses(first), "broken#dev": "clean" });
  expect(driftedStacks(report)).toEqual(driftedStacks(first));
  console.log(`refresh mode: ${JSON.stringify(report.summary)}`);
});

it("two shards merged equal the unsharded run (but for when and which shard)", async () => {
  const one = await drift("shard-1", "--shard", "1/2");
  const two = await drift("shard-2", "--shard", "2/2");
  expect([one.report.stacks.length + two.report.stacks.length, one.r.code, two.r.code]).toEqual([20, 1, 1]);
  const merge = await runDriftCommand(estate, ["merge", "shard-1/drift-report.json", "shard-2/drift-report.json", "--out", "merged"]);
  expect(merge.code).toBe(1);
  const merged = readReport(estate, "merged");
  expect(comparable(merged)).toEqual(comparable(first));
}, 900_000);

it("a second run with --previous: every drifted path is known, its firstSeen the first run's", async () => {
  const { r, report } = await drift("run-2", "--previous", "run-1/drift-report.json");
  expect(r.code).toBe(1);
  const paths = report.stacks.flatMap((s) => pathsOf(report, s.id));
  expect(paths.length).toBe(first.summary.driftedPaths);
  for (const p of paths) expect({ path: p.path, status: p.status, firstSeen: p.firstSeen }).toEqual({ path: p.path, status: "known", firstSeen: first.generatedAt });
  expect(report.summary).toMatchObject({ drifted: 10, newPaths: 0, resolvedPaths: 0 });
  // With --fail-on new, known drift alone does not fail: what is left is the broken and the locked stack (exit 2).
  const again = await drift("run-3", "--previous", "run-2/drift-report.json", "--fail-on", "new");
  expect({ code: again.r.code, newPaths: again.report.summary.newPaths }).toEqual({ code: 2, newPaths: 0 });
}, 900_000);

it("no token of the emulator in any file the command wrote, nor in its output", () => {
  const c = emulatorConnection(emu);
  const { texts } = writtenTexts(estate, ["run-1", "refresh", "run-2", "run-3", "shard-1", "shard-2", "merged"]);
  for (const token of [c.apiToken, c.featureManagementToken, emu.state.controllerToken(CONTROLLER)]) {
    expect({ token, leaks: texts.filter((t) => t.includes(token)).length }).toEqual({ token, leaks: 0 });
  }
});
