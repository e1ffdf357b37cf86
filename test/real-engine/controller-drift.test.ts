/**
 * Issue 44 under the real Pulumi CLI: what each controller really runs, compared with its bundle. A program assigns
 * and watches three controllers (test/real-engine/programs/controller-drift, the dynamic providers); a hand change on
 * the controller to each of jenkins.yaml, plugins, items and RBAC fails the drift job (`pulumi preview --refresh
 * --expect-no-changes --diff`) naming its path; `up --refresh` repairs what a reload can and says what it cannot; a
 * controller that was not reloaded shows its version; a change to a parent bundle previews its effect on each
 * controller that inherits it; no secret of an export appears in the state, the outputs or the logs. The same through
 * the plugin, in YAML; and there, who changed the controller (issue 65) in both modes of the drift command: a named
 * person and time on each path with the message in clear and a credential's change a digest, unknown without the
 * Job Configuration History plugin, SYSTEM for a change that came with a bundle.
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
import type { DriftReport } from "../../cli/drift/report";
import { run, workspace, type Run } from "./tier-cli";

const ROOT = path.join(__dirname, "..", "..");
const PROGRAM = path.join(__dirname, "programs", "controller-drift");
const A = "team-a/controller-a";
const B = "team-b/controller-b";
const C = "team-c/controller-c";

const CAROL = { id: "carol", fullName: "Carol Danvers" };
const MESSAGE_KEY = "jenkins.yaml: jenkins.systemMessage";
const DESCRIPTION_KEY = 'jenkins.yaml: credentials.system.domainCredentials[0].credentials["nexus"].usernamePassword.description';
const DIGEST = /^[0-9a-f]{16} \(the credentials section\)$/;
const CREDENTIALS = ["credentials:", "  system:", "    domainCredentials:", "      - credentials:", "          - usernamePassword:", "              id: nexus", "              scope: GLOBAL", "              username: deployer", '              description: "Nexus deployer"', '              password: "s3cr3t-literal"', ""].join("\n");
let reports = 0;

/** The newest history date of a file, as the report writes it: the controller's local time, marked so. */
function newestAt(emu: Emulator, controller: string, file: string): string {
  const date = emu.state.configHistory(controller).find((e) => e.job === file)!.date;
  return `${date.replace("_", "T").replace(/-(\d\d)-(\d\d)$/, ":$1:$2")} (controller time)`;
}

/** The ControllerConfiguration's drifted paths of a one-stack report. */
const controllerPaths = (report: DriftReport) => (report.stacks[0]?.resources ?? []).filter((res) => res.name === "running").flatMap((res) => res.paths);

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
    // The pipeline re-made by hand, without the script the bundle gives it.
    emu.changeConfiguration(A, "items.yaml", "shared/hello", { kind: "pipeline", name: "hello", description: "edited by hand" });
    emu.installPlugin(B, "ssh-agent");
    emu.changeConfiguration(B, "rbac.yaml", "roles[0].permissions", ["hudson.model.Item.Read"]);
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
    // --continue-on-error: one controller that cannot be repaired does not keep the others from being repaired.
    const up = await runner.run(["up", "--refresh", "--yes", "--skip-preview", "--continue-on-error"]);
    expect(up.code).not.toBe(0);
    const text = `${up.stdout}\n${up.stderr}`;
    expect(text).toMatch(/uninstall it on the controller/);
    // What is left: team-b's plugin, and nothing on team-a (its system message and item were reloaded), nor team-b's role.
    const job = await driftJob();
    expect(job.code).not.toBe(0);
    expect(job.text).toMatch(/differs from its bundle "team-b": plugins\.yaml: \+ssh-agent\s*$/m);
    expect(job.text).not.toMatch(/differs from its bundle "team-a"/);
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
    fs.appendFileSync(path.join(tree, "base", "plugins.yaml"), '  - id: "git"\n');
    emu.journal.clear();
    const preview = await runner.run(["preview", "--diff"]);
    expect(preview.code).toBe(0);
    // team-a and team-b inherit base; team-c runs it: each plans an update that gains the plugin.
    for (const c of [A, B, C]) expect(preview.stdout).toMatch(new RegExp(`ControllerConfiguration: \\(update\\)[\\s\\S]*?${c.replace("/", "\\/")}`));
    expect(preview.stdout.match(/\+ plugins\.yaml: git\s*:/g)?.length).toBe(3);
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
  let served: string;

  beforeAll(async () => {
    ws = workspace("controller-drift-yaml");
    const yamlTree = bundleTree(ws.dir);
    // A credential in team-a's jenkins.yaml (its password a literal the export encrypts): its change stays a digest.
    fs.appendFileSync(path.join(yamlTree, "team-a", "jenkins.yaml"), CREDENTIALS);
    // The operations center serves a copy: a change to it reaches the controller as a bundle's (SYSTEM's), not the program.
    served = path.join(ws.dir, "served");
    fs.cpSync(yamlTree, served, { recursive: true });
    yamlEmu = await startEmulator({ bundlesDir: served });
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

  it("who changed it, and from what to what, through the plugin in both modes of the drift command; unknown without the history's plugin; SYSTEM for a bundle's change", async () => {
    yamlEmu.changeConfiguration(A, "jenkins.yaml", "jenkins.systemMessage", "Maintenance tonight", CAROL);
    yamlEmu.changeConfiguration(A, "jenkins.yaml", "credentials.system.domainCredentials[0].credentials[0].usernamePassword.description", "hand-edited-description", CAROL);
    // In the order of their paths: the credential's (a digest each side), then the message's (in clear).
    const expected = [
      { path: `configuration[${JSON.stringify(DESCRIPTION_KEY)}]`, kind: "update", declared: expect.stringMatching(DIGEST), actual: expect.stringMatching(DIGEST), changedBy: "carol", changedAt: newestAt(yamlEmu, A, "credentials") },
      { path: `configuration[${JSON.stringify(MESSAGE_KEY)}]`, kind: "update", declared: "Managed by CasC: team A", actual: "Maintenance tonight", changedBy: "carol", changedAt: newestAt(yamlEmu, A, "config") },
    ].map((p) => expect.objectContaining(p));
    const texts: string[] = [];
    for (const mode of ["refresh", "preview"]) {
      const { r, report, text } = await driftOfYaml(mode);
      texts.push(text);
      expect({ mode, code: r.code, status: report.stacks[0]?.status }).toEqual({ mode, code: 1, status: "drifted" });
      expect({ mode, paths: controllerPaths(report) }).toEqual({ mode, paths: expected });
      // The note of the message, as the plugin's warning said it, kept on the resource.
      const notes = report.stacks[0]!.resources!.find((res) => res.name === "running")!.notes ?? [];
      expect(notes).toEqual(expect.arrayContaining([expect.stringContaining(`"${MESSAGE_KEY}" changed by "carol" ("Carol Danvers") at ${newestAt(yamlEmu, A, "config")}: "Managed by CasC: team A" → "Maintenance tonight"`)]));
    }
    // Without the plugin: the drift still reported, its author unknown, never a guessed name.
    yamlEmu.setConfigHistory(A, { installed: false });
    const { report, text } = await driftOfYaml("refresh");
    texts.push(text);
    expect(controllerPaths(report)).toEqual([expect.objectContaining({ path: `configuration[${JSON.stringify(DESCRIPTION_KEY)}]`, changedBy: "unknown" }), expect.objectContaining({ path: `configuration[${JSON.stringify(MESSAGE_KEY)}]`, changedBy: "unknown" })]);
    expect(text).toContain("the Job Configuration History plugin is not installed");
    expect(text).not.toContain("carol");
    for (const t of texts) expect(t).not.toMatch(/hand-edited-description|Nexus deployer|s3cr3t-literal|\{AQAAAB/);
    yamlEmu.setConfigHistory(A, { installed: true });
    await project.ok("up", "--refresh", "--yes", "--skip-preview");
    expect((await project.run("preview", "--refresh", "--expect-no-changes")).code).toBe(0);

    // A change that came with a bundle (the served copy changed, checked out, applied at a restart): SYSTEM's.
    const message = path.join(served, "team-a", "jenkins.yaml");
    const original = fs.readFileSync(message, "utf8");
    const restartWith = async (text: string) => {
      fs.writeFileSync(message, text);
      const oc = new OperationsCenterClient({ baseUrl: yamlEmu.operationsCenterUrl, ...yamlEmu.credentials.admin });
      await oc.checkOut();
      await oc.close();
      yamlEmu.restartController(A);
    };
    await restartWith(original.replace("Managed by CasC: team A", "Changed in the served bundle"));
    const bundled = await driftOfYaml("refresh");
    expect(controllerPaths(bundled.report)).toEqual([
      expect.objectContaining({ path: `configuration[${JSON.stringify(MESSAGE_KEY)}]`, declared: "Managed by CasC: team A", actual: "Changed in the served bundle", changedBy: "SYSTEM", changedAt: newestAt(yamlEmu, A, "config") }),
    ]);
    await restartWith(original);
    expect((await project.run("preview", "--refresh", "--expect-no-changes")).code).toBe(0);
  });

  /** `pulumi-cloudbees drift` over this one stack in `mode`: its exit, its report, and every text it wrote or printed. */
  async function driftOfYaml(mode: string): Promise<{ r: Run; report: DriftReport; text: string }> {
    const out = path.join(ws.dir, `report-${mode}-${++reports}`);
    fs.writeFileSync(path.join(ws.dir, "stacks.yaml"), "stacks:\n  - project#dev\n");
    const r = await run(process.execPath, [path.join(ROOT, "dist", "cli", "main.js"), "drift", "--stacks-file", "stacks.yaml", "--out", out, "--mode", mode], ws.dir, ws.env);
    const file = path.join(out, "drift-report.json");
    if (!fs.existsSync(file)) throw new Error(`no report (exit ${r.code}):\n${r.stdout}\n${r.stderr}`);
    const written = fs.readdirSync(out).map((f) => fs.readFileSync(path.join(out, f), "utf8"));
    return { r, report: JSON.parse(fs.readFileSync(file, "utf8")) as DriftReport, text: [r.stdout, r.stderr, ...written].join("\n") };
  }
});
