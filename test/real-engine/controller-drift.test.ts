/**
 * Issue 44 under the real Pulumi CLI: what each controller really runs, compared with its bundle. A program assigns
 * and watches three controllers (test/real-engine/programs/controller-drift, the dynamic providers); a hand change on
 * the controller to each of jenkins.yaml, plugins, items and RBAC fails the drift job (`pulumi preview --refresh
 * --expect-no-changes --diff`) naming its path; `up --refresh` repairs what a reload can and says what it cannot; a
 * controller that was not reloaded shows its version; a change to a parent bundle previews its effect on each
 * controller that inherits it; no secret of an export appears in the state, the outputs or the logs. The same through
 * the plugin, in YAML.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type Emulator } from "../../emulator";
import { OperationsCenterClient } from "../../provider";
import { emulatorStackConfig } from "../../testing/emulator-config";
import { PulumiCliRunner } from "../../testing";
import { realCli, TIER_ENV } from "./life-cycle";
import { CliProject } from "./languages/cli-project";
import { installPlugin } from "./languages/toolchains";
import { workspace } from "./tier-cli";

const ROOT = path.join(__dirname, "..", "..");
const PROGRAM = path.join(__dirname, "programs", "controller-drift");
const A = "team-a/controller-a";
const B = "team-b/controller-b";
const C = "team-c/controller-c";

/** A bundle tree: the examples' bundles, with team-b given an RBAC file (so that RBAC has something to drift from). */
function bundleTree(into: string): string {
  const tree = path.join(into, "bundles");
  fs.cpSync(path.join(ROOT, "examples", "bundles"), tree, { recursive: true });
  const descriptor = path.join(tree, "team-b", "bundle.yaml");
  fs.appendFileSync(descriptor, 'rbac:\n  - "rbac.yaml"\n');
  fs.writeFileSync(
    path.join(tree, "team-b", "rbac.yaml"),
    ["removeStrategy:", "  rbac: SYNC", "roles:", "  - name: developer", "    permissions:", "      - hudson.model.Item.Build", "      - hudson.model.Item.Read", "groups:", "  - name: developers", "    roles:", "      - name: developer", "    members:", "      users: [alice]", ""].join("\n"),
  );
  return tree;
}

let scratch: string;
let tree: string;
let emu: Emulator;
let runner: PulumiCliRunner;

beforeAll(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "controller-drift-"));
  tree = bundleTree(scratch);
  emu = await startEmulator({ bundlesDir: tree, controllers: [A, B, C] });
  const controllers = {
    [A]: { url: emu.controllerUrls[A]!, bundle: "team-a" },
    [B]: { url: emu.controllerUrls[B]!, bundle: "team-b" },
    [C]: { url: emu.controllerUrls[C]!, bundle: "base" },
  };
  // base is available to team-c through the API (it has no availability pattern of its own).
  const oc = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...emu.credentials.admin });
  await oc.setAvailabilityPattern("base", "team-c/.*");
  await oc.setAvailabilityPattern("team-b", "team-b/.*");
  await oc.close();
  runner = await PulumiCliRunner.start({
    cwd: PROGRAM,
    config: { ...emulatorStackConfig(emu), "drift:controllers": JSON.stringify(controllers), "drift:bundleTreePath": tree },
    cli: realCli(),
    env: TIER_ENV,
  });
});
afterAll(async () => {
  await runner?.close();
  await emu?.close();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

/** The drift job as a pipeline runs it: exit code and everything it printed. */
async function driftJob(): Promise<{ code: number; text: string }> {
  const r = await runner.run(["preview", "--refresh", "--expect-no-changes", "--diff"]);
  return { code: r.code, text: `${r.stdout}\n${r.stderr}` };
}

const stateText = async () => (await runner.run(["stack", "export", "--show-secrets"])).stdout;

describe("controllers watched under the real CLI (dynamic providers)", () => {
  it("up brings each controller to its bundle; the drift job passes; a refresh changes nothing", async () => {
    await runner.up();
    const drift = runner.outputs().drift as Record<string, string[]>;
    expect(drift).toEqual({ [A]: [], [B]: [], [C]: [] });
    const job = await driftJob();
    expect(job.text).not.toMatch(/error:/);
    expect(job.code).toBe(0);
  });

  it("a hand change to jenkins.yaml, plugins, items and RBAC fails the drift job, naming each path", async () => {
    emu.changeConfiguration(A, "jenkins.yaml", "jenkins.systemMessage", "Changed in the UI");
    emu.changeConfiguration(A, "items.yaml", "shared/hello.description", "edited by hand");
    emu.installPlugin(B, "ssh-agent");
    emu.changeConfiguration(B, "rbac.yaml", "roles.developer.permissions", ["hudson.model.Item.Read"]);
    const job = await driftJob();
    expect(job.code).not.toBe(0);
    expect(job.text).toContain("jenkins.yaml: jenkins.systemMessage");
    expect(job.text).toContain("plugins.yaml: +ssh-agent");
    expect(job.text).toMatch(/items\.yaml: item \\?"shared\/hello\\?"/);
    expect(job.text).toMatch(/rbac\.yaml: role \\?"developer\\?"/);
    // The controller C, untouched, is not named.
    expect(job.text).not.toContain(`${C} differs`);
  });

  it("up --refresh reloads what a reload can put back and says, once, what it cannot", async () => {
    const up = await runner.run(["up", "--refresh", "--yes", "--skip-preview"]);
    expect(up.code).not.toBe(0);
    const text = `${up.stdout}\n${up.stderr}`;
    expect(text).toMatch(/uninstall it on the controller/);
    const job = await driftJob();
    expect(job.code).not.toBe(0);
    expect(job.text).toContain("plugins.yaml: +ssh-agent");
    expect(job.text).not.toContain("jenkins.yaml: jenkins.systemMessage");
    expect(job.text).not.toMatch(/rbac\.yaml: role/);
    // The way out the message gives: the plugin uninstalled (here: the controller restarted without it).
    emu.changeConfiguration(B, "plugins.yaml", "ssh-agent", undefined);
    await runner.up(undefined, { refresh: true });
    expect((await driftJob()).code).toBe(0);
  });

  it("a controller that was not reloaded shows the version in force and the one waiting", async () => {
    const file = path.join(tree, "team-a", "jenkins.yaml");
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(/systemMessage: .*/, 'systemMessage: "team A, version 2"'));
    const oc = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...emu.credentials.admin });
    await oc.checkOut();
    await oc.close();
    const inForce = emu.state.appliedBundle(A)!.version;
    const job = await driftJob();
    expect(job.code).not.toBe(0);
    expect(job.text).toContain(`bundle version: ${inForce} -> `);
    await runner.up(undefined, { refresh: true });
    expect(emu.state.appliedBundle(A)!.version).not.toBe(inForce);
    expect((await driftJob()).code).toBe(0);
  });

  it("a change to the parent bundle previews its effect on each controller that inherits it, before any check-out", async () => {
    fs.appendFileSync(path.join(tree, "base", "plugins.yaml"), '  - id: "ssh-agent"\n');
    emu.journal.clear();
    const preview = await runner.run(["preview", "--diff"]);
    expect(preview.code).toBe(0);
    // team-a and team-b inherit base; team-c runs it: each plans an update that gains the plugin.
    for (const c of [A, B, C]) expect(preview.stdout).toMatch(new RegExp(`ControllerConfiguration: \\(update\\)[\\s\\S]*?${c.replace("/", "\\/")}`));
    expect(preview.stdout.match(/\+ "plugins\.yaml: ssh-agent"/g)?.length).toBe(3);
    expect(emu.journal.entries().filter((e) => e.method !== "GET")).toEqual([]);
  });

  it("no secret of an export appears in the state, the outputs or the logs", async () => {
    const state = await stateText();
    expect(state).not.toMatch(/\{AQAAAB/);
    expect(JSON.stringify(runner.outputs())).not.toMatch(/\{AQAAAB/);
    expect(`${runner.last?.programOutput ?? ""}${runner.last?.hostOutput ?? ""}`).not.toMatch(/\{AQAAAB/);
  });
});

describe("a controller watched through the plugin (YAML)", () => {
  let ws: ReturnType<typeof workspace>;
  let yamlEmu: Emulator;
  let project: CliProject;

  beforeAll(async () => {
    ws = workspace("controller-drift-yaml");
    yamlEmu = await startEmulator({ bundlesDir: bundleTree(ws.dir) });
    const dir = path.join(ws.dir, "project");
    fs.mkdirSync(dir);
    fs.writeFileSync(
      path.join(dir, "Pulumi.yaml"),
      [
        "name: controller-drift-yaml",
        "runtime: yaml",
        "resources:",
        "  assignment:",
        "    type: cloudbees:ControllerBundleAssignment",
        "    properties:",
        `      controllerPath: ${A}`,
        "      bundleId: team-a",
        "  running:",
        "    type: cloudbees:ControllerConfiguration",
        "    properties:",
        `      controllerPath: ${A}`,
        `      instanceUrl: ${yamlEmu.controllerUrls[A]}`,
        "      bundleTreePath: ../bundles",
        "      bundleId: ${assignment.bundleId}",
        "outputs:",
        "  drift: ${running.drift}",
        "",
      ].join("\n"),
    );
    project = new CliProject(dir, ws.env);
    await installPlugin(project);
    await project.initFor(yamlEmu);
  });
  afterAll(async () => {
    await yamlEmu?.close();
    ws?.cleanup();
  });

  it("up, a hand change found by the drift job with its path, repaired by up --refresh", async () => {
    await project.ok("up", "--yes", "--skip-preview");
    expect((await project.outputs()).drift).toEqual([]);
    expect((await project.run("preview", "--refresh", "--expect-no-changes")).code).toBe(0);
    yamlEmu.changeConfiguration(A, "jenkins.yaml", "jenkins.systemMessage", "Changed in the UI");
    const job = await project.run("preview", "--refresh", "--expect-no-changes", "--diff");
    expect(job.code).not.toBe(0);
    expect(`${job.stdout}${job.stderr}`).toContain("jenkins.yaml: jenkins.systemMessage");
    await project.ok("up", "--refresh", "--yes", "--skip-preview");
    expect((await project.run("preview", "--refresh", "--expect-no-changes")).code).toBe(0);
    const state = (await project.ok("stack", "export", "--show-secrets")).stdout;
    expect(state).not.toMatch(/\{AQAAAB/);
    expect(state).not.toContain("Changed in the UI");
  });
});
