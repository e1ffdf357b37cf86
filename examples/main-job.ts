// The main job (`npm start`): the example programs' life cycles against the embedded emulator, run by the real
// Pulumi CLI when one is there (`npm run pulumi-cli` builds it; or a pulumi on PATH), else by this repository's
// engine stand-in through Pulumi's real dynamic-provider host; it says which ran (`--engine stand-in|pulumi`
// chooses). Each step prints its plan: resource, operation, changed fields.
//   1. examples/index.ts: up, an up with nothing to change, a change made by hand, the drift job (`preview --refresh
//      --expect-no-changes`) failing on it, refresh, an up that corrects it, the drift job passing, destroy.
//   2. examples/pipeline: a bundle with a missing file stops the pipeline before anything is assigned or reloaded;
//      fixed, it runs through (validate, check out, make available, assign, link, reload); a bundle change
//      validates and reloads again; destroy.
//   3. examples/promotion: two emulators, a staging and a production operations center, as two named connections
//      of one stack: validate and assign on staging, make available, assign and reload on production (a controller
//      with its own API token).
//   4. examples/flags: feature flags as code: up, an up with nothing to change, changes made in the UI (the emulator's
//      API), the drift job failing on the declared ones only, an up --refresh that corrects them and keeps what the
//      program does not declare, the drift job passing, the vendor's SDK evaluating the flags, `pulumi-cloudbees
//      flags` judging them (examples/flags-hygiene.ts), destroy (configurations removed, flags deleted).
//   5. examples/controllers: a managed controller created with Items on the operations center, assigned a bundle and
//      watched (ControllerConfiguration); up, an up with nothing to change, the drift job passing, a change made in
//      the controller's UI, the drift job failing on its path, an up --refresh that reloads the bundle, the drift job
//      passing, destroy (the controller stopped and deleted).
//   6. pulumi-cloudbees drift (with the real CLI: it runs `pulumi refresh --preview-only` per stack): examples/flags
//      and examples/controllers as two stacks of one backend, changes made by hand (a flag by a named colleague; on the
//      controller its system message and a plugin; an availability pattern), one drift report of both, written to a
//      folder it names.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { READINGS_VARIABLE, startEmulator, type Emulator, type EmulatorOptions } from "../emulator";
import { FeatureManagementClient, OperationsCenterClient } from "../provider";
import {
  emulatorStackConfig,
  featureManagementClientAs,
  findPulumiCli,
  formatPlan,
  ProgramRunError,
  ProgramRunner,
  PulumiCliRunner,
  type ProgramPlan,
  type ProgramRunnerOptions,
  type PulumiCli,
  type StackRunner,
} from "../testing";
import type { DriftReport } from "../cli/drift/report";
import { printable } from "../provider/text/printable";
import { hygieneReport } from "./flags-hygiene";
import { productionEmulatorOptions, PROMOTION_CONTROLLER, promotionStackConfig } from "./promotion-stack";

const ROOT = path.join(__dirname, "..");

/** The real CLI when found (and not refused by --engine stand-in), else the engine stand-in. */
let cli: PulumiCli | undefined;

function startRunner(options: ProgramRunnerOptions): Promise<StackRunner> {
  return cli ? PulumiCliRunner.start({ ...options, cli }) : ProgramRunner.start(options);
}

function show(title: string, plan: ProgramPlan, runner: StackRunner): void {
  console.log(`\n== ${title}\n${formatPlan(plan)}`);
  // What the providers told the user (the CLI shows these as diagnostics).
  for (const warning of runner.last?.warnings ?? []) console.log(`  warning: ${warning}`);
}

/**
 * The drift job of a pipeline: `pulumi preview --refresh --expect-no-changes`, failing on any change. A refresh in
 * parallel, as the engine runs it; the preview keeps the refreshed state to itself.
 */
async function driftJob(runner: StackRunner): Promise<string[]> {
  const title = "pulumi preview --refresh --expect-no-changes (the drift job)";
  try {
    const plan = await runner.preview(undefined, { refresh: true, expectNoChanges: true });
    console.log(`\n== ${title}\npassed: ${plan.filter((e) => e.op === "refresh").length} resources refreshed, no change`);
    return [];
  } catch (e) {
    if (!(e instanceof ProgramRunError)) throw e;
    // The message ends with the providers' warnings: who changed what, from the audit log.
    console.log(`\n== ${title}\nfailed, as it should: ${e.message.replace(/^pulumi preview failed: /, "")}`);
    return e.warnings;
  }
}

async function exampleProgram(emu: Emulator): Promise<void> {
  console.log("\n######## examples/index.ts: applications and bundle availability, assignments, default");
  const runner = await startRunner({ cwd: ROOT, config: emulatorStackConfig(emu) });
  const oc = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...emu.credentials.admin });
  try {
    show("pulumi up", await runner.up(), runner);
    console.log(`outputs: ${JSON.stringify(runner.outputs())}`);
    show("pulumi up (again: nothing to change)", await runner.up(), runner);

    // Someone changes things by hand in the operations center.
    await oc.setAvailabilityPattern("team-b", "team-b/.*|sandbox");
    await oc.setControllerToBundle("team-b", "sandbox");
    console.log("\n== outside Pulumi: team-b's pattern widened to sandbox, and sandbox moved to team-b");

    await driftJob(runner);
    show("pulumi refresh (reveals the drift)", await runner.refresh(), runner);
    show("pulumi up (corrects it)", await runner.up(), runner);
    await driftJob(runner);
    show("pulumi destroy", await runner.destroy(), runner);
    console.log(`\nafter destroy: assignments ${JSON.stringify(emu.state.assignments())} (the API cannot unassign), ` +
      `API patterns ${JSON.stringify(emu.state.apiAvailabilityPatterns())}, global visibility ${emu.state.globalVisibility()}`);
  } finally {
    await oc.close();
    await runner.close();
  }
}

async function pipeline(emu: Emulator, tree: string): Promise<void> {
  console.log("\n######## examples/pipeline: bundles as code");
  const controllers = {
    "team-a/controller-a": { bundle: "team-a", url: emu.controllerUrls["team-a/controller-a"] },
    "team-b/controller-b": { bundle: "team-b", url: emu.controllerUrls["team-b/controller-b"] },
  };
  const runner = await startRunner({
    cwd: path.join(ROOT, "examples", "pipeline"),
    config: { ...emulatorStackConfig(emu), "pipeline:bundlesDir": tree, "pipeline:controllers": JSON.stringify(controllers) },
  });
  const descriptor = path.join(tree, "team-b", "bundle.yaml");
  const good = fs.readFileSync(descriptor, "utf8");
  try {
    fs.writeFileSync(descriptor, good.replace('  - "jenkins.yaml"', '  - "jenkins.yaml"\n  - "missing.yaml"'));
    console.log("\n== a commit adds a reference to a missing file to team-b's bundle.yaml; pulumi up:");
    const error = await runner.up().then(() => undefined, (e: Error) => e);
    console.log(error ? `failed, as it should: ${error.message.split("\n")[0]}` : "UNEXPECTED: the broken bundle went through");
    console.log(`nothing was checked out, assigned or reloaded: assignments ${JSON.stringify(emu.state.assignments())}, ` +
      `API patterns ${JSON.stringify(emu.state.apiAvailabilityPatterns())}, team-b/controller-b runs ${JSON.stringify(emu.state.appliedBundle("team-b/controller-b"))}`);

    fs.writeFileSync(descriptor, good);
    show("the fix is committed; pulumi up", await runner.up(), runner);
    console.log(`reloads: ${JSON.stringify(runner.outputs().reloads)}`);
    show("pulumi up (again: nothing to change)", await runner.up(), runner);

    const jenkins = path.join(tree, "team-b", "jenkins.yaml");
    fs.writeFileSync(jenkins, fs.readFileSync(jenkins, "utf8").replace('labelString: "team-b"', 'labelString: "team-b linux"'));
    show("a commit changes team-b's jenkins.yaml; pulumi up", await runner.up(), runner);
    console.log(`reloads: ${JSON.stringify(runner.outputs().reloads)}`);
    show("pulumi destroy", await runner.destroy(), runner);
  } finally {
    await runner.close();
  }
}

async function promotion(staging: Emulator, production: Emulator): Promise<void> {
  console.log("\n######## examples/promotion: staging -> production, two connections in one stack");
  const runner = await startRunner({ cwd: path.join(ROOT, "examples", "promotion"), config: promotionStackConfig(staging, production) });
  try {
    show("pulumi up", await runner.up(), runner);
    const { staging: onStaging, production: onProduction, reloaded } = runner.outputs();
    console.log(`staging (getBundle, connection staging): ${JSON.stringify(onStaging)}`);
    console.log(`production (getBundle, connection production): ${JSON.stringify(onProduction)}; reload: ${JSON.stringify(reloaded)}`);
    const who = (emu: Emulator) =>
      [...new Set(emu.journal.entries().map((e) => Buffer.from((e.headers.authorization ?? "").replace(/^Basic /, ""), "base64").toString().split(":")[0]))];
    console.log(`requests: staging ${staging.journal.entries().length} as ${JSON.stringify(who(staging))}, production ` +
      `${production.journal.entries().length} as ${JSON.stringify(who(production))} (${PROMOTION_CONTROLLER} takes its own user)`);
    show("pulumi up (again: nothing to change)", await runner.up(), runner);
    show("pulumi destroy", await runner.destroy(), runner);
  } finally {
    await runner.close();
  }
}

async function flags(emu: Emulator): Promise<void> {
  console.log("\n######## examples/flags: feature flags as code");
  const runner = await startRunner({ cwd: path.join(ROOT, "examples", "flags"), config: emulatorStackConfig(emu) });
  // "The UI": Alice, a colleague, changes things with a token of her own: the audit log records her name.
  const ui = featureManagementClientAs(emu, { email: "alice@example.com", name: "Alice" });
  try {
    show("pulumi up", await runner.up(), runner);
    const { appId, productionKey, stagingKey } = runner.outputs() as Record<string, string>;
    console.log(`outputs: application ${appId}, SDK keys Production ${productionKey}, Staging ${stagingKey}`);
    show("pulumi up (again: nothing to change)", await runner.up(), runner);

    await ui.patchExperiment(appId, "Staging", "checkout.newFlow", [{ op: "replace", path: "/value", value: [{ option: true, percentage: 80 }] }]);
    await ui.patchExperiment(appId, "Production", "checkout.bannerColor", [{ op: "replace", path: "/value", value: "red" }]);
    // Not declared by the program (it leaves `description` to the UI): neither drift nor overwritten.
    await ui.patchExperiment(appId, "Production", "checkout.newFlow", [{ op: "replace", path: "/description", value: "owned by the UI" }]);
    await ui.putTeamMember({ email: "lee@checkout.example", applications: { [appId]: { environments: { Production: "write", Staging: "write" } } } });
    console.log(
      "\n== in the UI, by alice@example.com: the new flow raised to 80 % in Staging, the banner turned red in Production, a description " +
        "given to the new flow's Production configuration, and lee given write access to Production",
    );

    const warnings = await driftJob(runner);
    // Each changed resource once, naming Alice where the audit log records it; the description is not the program's.
    const named = warnings.filter((w) => / changed outside this stack by "alice@example\.com" at /.test(w));
    if (named.length !== 2 || warnings.length !== 3 || !warnings.some((w) => w.startsWith("TeamMember lee@checkout.example changed outside this stack"))) {
      throw new Error(`UNEXPECTED: the drift job's warnings should name Alice for the two configurations and report lee's permissions: ${JSON.stringify(warnings)}`);
    }
    show("pulumi up --refresh (corrects it)", await runner.up(undefined, { refresh: true }), runner);
    const described = await ui.getExperiment(appId, "Production", "checkout.newFlow");
    console.log(`the UI's description is kept: ${JSON.stringify(described.description)}`);
    await driftJob(runner);
    await hygieneReport(emu, appId, productionKey);
    show("pulumi destroy", await runner.destroy(), runner);
    const left = await ui.listFlags(appId, "Production");
    const environments = await ui.listEnvironments(appId);
    console.log(`\nafter destroy: flags ${JSON.stringify(left.map((f) => f.name))}; environments ${JSON.stringify(environments.map((e) => e.name))} ` +
      `and the target group stay (the API cannot delete them)`);
  } finally {
    await ui.close();
    await runner.close();
  }
}

async function managedController(emu: Emulator): Promise<void> {
  console.log("\n######## examples/controllers: a managed controller created with Items, assigned a bundle, watched");
  const controllerPath = "team-c/controller-c";
  const instanceUrl = `${emu.baseUrl}controllers/${controllerPath}/`;
  const runner = await startRunner({ cwd: path.join(ROOT, "examples", "controllers"), config: { ...emulatorStackConfig(emu), "controllers:instanceUrl": instanceUrl } });
  try {
    show("pulumi up", await runner.up(), runner);
    console.log(`controllers: ${JSON.stringify(emu.state.controllers())}; ${controllerPath} uses ${JSON.stringify(emu.state.assignments()[controllerPath])}`);
    console.log(`it runs bundle version ${JSON.stringify(runner.outputs()["bundleVersion"])}, drift ${JSON.stringify(runner.outputs()["drift"])}`);
    show("pulumi up (again: nothing to change)", await runner.up(), runner);
    await driftJob(runner);

    // Someone changes the controller's configuration in its UI.
    emu.changeConfiguration(controllerPath, "jenkins.yaml", "jenkins.systemMessage", "Changed in the UI");
    console.log(`\nin the controller's UI: jenkins.systemMessage set to "Changed in the UI"`);
    const warnings = await driftJob(runner);
    if (!warnings.some((w) => w.includes("jenkins.yaml: jenkins.systemMessage"))) throw new Error("the drift job did not name jenkins.yaml: jenkins.systemMessage");
    show("pulumi up --refresh (reloads the bundle)", await runner.up(undefined, { refresh: true }), runner);
    if (await driftJob(runner).then((w) => w.length > 0)) throw new Error("the drift job still fails after the repair");
    show("pulumi destroy", await runner.destroy(), runner);
    const left = emu.state.controllers();
    if (left.includes(controllerPath)) throw new Error(`${controllerPath} is still a controller after destroy`);
    console.log(`after destroy: controllers ${JSON.stringify(left)}`);
  } finally {
    await runner.close();
  }
}

/** The drift command as a user runs it (`npx pulumi-cloudbees drift`): npm start builds dist/ first. */
const DRIFT_COMMAND = path.join(ROOT, "dist", "cli", "main.js");

async function estateDrift(emu: Emulator): Promise<void> {
  console.log("\n######## pulumi-cloudbees drift: one report over the example stacks");
  if (!cli) {
    console.log("skipped: the command runs the real Pulumi CLI's preview per stack (`npm run pulumi-cli` builds one)");
    return;
  }
  const pulumi = cli;
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "cloudbees-estate-"));
  const estate = (workspace: string) => ({ cli: pulumi, stack: "production", estate: { folder, workspace } });
  const instanceUrl = `${emu.baseUrl}controllers/team-c/controller-c/`;
  const stacks = await Promise.all([
    PulumiCliRunner.start({ ...estate("flags"), cwd: path.join(ROOT, "examples", "flags"), config: emulatorStackConfig(emu) }),
    PulumiCliRunner.start({ ...estate("controllers"), cwd: path.join(ROOT, "examples", "controllers"), config: { ...emulatorStackConfig(emu), "controllers:instanceUrl": instanceUrl } }),
  ]);
  const ui = featureManagementClientAs(emu, { email: "alice@example.com", name: "Alice" });
  const oc = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...emu.credentials.admin });
  try {
    await Promise.all(stacks.map((s) => s.up()));
    console.log(`pulumi up: flags#production and controllers#production, in one file backend in ${folder}`);
    await ui.patchExperiment(String(stacks[0].outputs().appId), "Production", "checkout.bannerColor", [{ op: "replace", path: "/value", value: "red" }]);
    emu.changeConfiguration("team-c/controller-c", "jenkins.yaml", "jenkins.systemMessage", "Changed in the UI");
    emu.installPlugin("team-c/controller-c", "git-client", "6.1.0");
    await oc.setAvailabilityPattern("base", "team-c/.*|sandbox");
    console.log(
      "outside Pulumi: alice@example.com turns the banner red in Production; on the controller, its system message is changed " +
        "in its UI and a plugin installed by hand; base's availability pattern is widened to sandbox",
    );

    fs.writeFileSync(path.join(folder, "stacks.yaml"), "- flags#production\n- controllers#production\n", { flag: "wx" });
    console.log(`\n== pulumi-cloudbees drift --stacks-file stacks.yaml --out report (in ${folder})`);
    const args = [DRIFT_COMMAND, "drift", "--stacks-file", "stacks.yaml", "--out", "report", "--pulumi", path.join(pulumi.dir, "pulumi")];
    const code = await new Promise<number>((resolve) => {
      const child = execFile(process.execPath, args, { cwd: folder, env: { ...process.env, ...stacks[0].environment } }, (e) => resolve(e ? Number(e.code ?? 1) : 0));
      child.stderr?.pipe(process.stdout);
    });
    const report = JSON.parse(fs.readFileSync(path.join(folder, "report", "drift-report.json"), "utf8")) as DriftReport;
    console.log(`exit ${code} (1: drift)`);
    const paths: string[] = [];
    for (const stack of report.stacks) {
      for (const r of stack.resources ?? []) {
        for (const p of r.paths) {
          paths.push(p.path);
          const who = `${p.changedBy ? ` by ${p.changedBy}` : ""}${p.changedAt ? ` at ${p.changedAt}` : ""}`;
          const value = (v: unknown) => (v === undefined ? "(none)" : JSON.stringify(v));
          // The report holds server text (names, values, who): made printable before it reaches the terminal.
          console.log(`  ${printable(`${stack.id} ${r.name}: ${p.path}: ${value(p.declared)} -> ${value(p.actual)}${who} (${p.status})`)}`);
        }
      }
    }
    for (const cause of report.causes) console.log(`  cause: ${printable(cause.summary)}`);
    const expected = ["jenkins.systemMessage", "git-client", "regex", "value"];
    if (code !== 1 || !expected.every((e) => paths.some((p) => p.includes(e)))) {
      throw new Error(`UNEXPECTED: the report should name ${expected.join(", ")}, with exit 1 (exit ${code}): ${JSON.stringify(paths)}`);
    }
    console.log(`the report: ${path.join(folder, "report")} (drift-report.json, drift-report.md, drift-report.html)`);
    await Promise.all(stacks.map((s) => s.destroy()));
  } finally {
    await ui.close();
    await oc.close();
    await Promise.all(stacks.map((s) => s.close()));
    // The stacks are gone; their report stays where it was said to be.
    for (const entry of fs.readdirSync(folder)) if (entry !== "report") fs.rmSync(path.join(folder, entry), { recursive: true, force: true });
  }
}

/** The job's sections, in the order it runs them; `--only` picks some. */
const SECTIONS = ["program", "flags", "controllers", "pipeline", "promotion", "drift"] as const;
type Section = (typeof SECTIONS)[number];
/** The sections to run (all but those `--only` leaves out). */
let sections: ReadonlySet<Section> = new Set(SECTIONS);

const USAGE =
  `usage: npm start [-- [--engine stand-in|pulumi] [--only ${SECTIONS.join("|")}]... [--reading NAME=VALUE]...]; ` +
  "npx cloudbees-emulator --list-readings lists the readings";

/**
 * `npm start -- --reading NAME=VALUE ...`: every emulator of the run plays these readings (listReadings), as
 * CLOUDBEES_EMULATOR_READINGS=NAME=VALUE,... does; the arguments win over the variable. `--engine` chooses the
 * engine (default: the real CLI when there is one). `--only SECTION` (repeatable) runs those sections alone: `--only
 * drift` goes straight to the drift report.
 */
function applyArguments(argv: string[]): void {
  const chosen: string[] = [];
  const only: string[] = [];
  let engine: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--reading" && argv[i + 1] !== undefined) chosen.push(argv[++i]!);
    else if (arg.startsWith("--reading=")) chosen.push(arg.slice("--reading=".length));
    else if (arg === "--engine" && argv[i + 1] !== undefined) engine = argv[++i];
    else if (arg.startsWith("--engine=")) engine = arg.slice("--engine=".length);
    else if (arg === "--only" && argv[i + 1] !== undefined) only.push(argv[++i]!);
    else if (arg.startsWith("--only=")) only.push(arg.slice("--only=".length));
    else throw new Error(`unknown argument '${arg}' (${USAGE})`);
  }
  if (engine !== undefined && engine !== "stand-in" && engine !== "pulumi") throw new Error(`--engine is stand-in or pulumi, not '${engine}' (${USAGE})`);
  const unknown = only.find((o) => !(SECTIONS as readonly string[]).includes(o));
  if (unknown !== undefined) throw new Error(`--only takes ${SECTIONS.join(", ")}, not '${unknown}' (${USAGE})`);
  if (only.length > 0) sections = new Set(only as Section[]);
  cli = engine === "stand-in" ? undefined : findPulumiCli();
  if (engine === "pulumi" && !cli) throw new Error("--engine pulumi: no Pulumi CLI was found; `npm run pulumi-cli` builds one");
  const standIn = "engine: the engine stand-in (pulumi-cloudbees/testing) through Pulumi's real dynamic-provider host";
  console.log(
    cli
      ? `engine: the real Pulumi CLI v${cli.version} (${cli.dir}), on a file backend in a temp folder`
      : engine === "stand-in"
        ? `${standIn} (--engine stand-in)`
        : `${standIn}; no Pulumi CLI was found (\`npm run pulumi-cli\` builds one)`,
  );
  const before = process.env[READINGS_VARIABLE];
  if (chosen.length > 0) process.env[READINGS_VARIABLE] = [before, ...chosen].filter((x) => x).join(",");
  if (process.env[READINGS_VARIABLE]) console.log(`readings: ${process.env[READINGS_VARIABLE]}`);
}

/** Runs `run` against an emulator of its own, closed after it whatever happens. */
async function withEmulator(options: EmulatorOptions, run: (emu: Emulator) => Promise<void>): Promise<void> {
  const emu = await startEmulator(options);
  try {
    await run(emu);
  } finally {
    await emu.close();
  }
}

async function main(): Promise<void> {
  applyArguments(process.argv.slice(2));
  if (sections.size < SECTIONS.length) console.log(`sections: ${[...sections].join(", ")} (--only)`);
  if (sections.has("program") || sections.has("flags")) {
    await withEmulator({}, async (emu) => {
      console.log(`emulator: operations center ${emu.operationsCenterUrl}, feature flags ${emu.featureManagementUrl}`);
      if (sections.has("program")) await exampleProgram(emu);
      if (sections.has("flags")) await flags(emu);
    });
  }
  if (sections.has("controllers")) await withEmulator({}, managedController);
  if (sections.has("pipeline")) {
    // The pipeline gets an operations center of its own, whose bundle location is a scratch copy of examples/bundles
    // (a git checkout, say): the pipeline's commits edit it.
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "cloudbees-main-job-"));
    const tree = path.join(scratch, "bundles");
    fs.cpSync(path.join(ROOT, "examples", "bundles"), tree, { recursive: true });
    try {
      await withEmulator({ bundlesDir: tree }, (emu) => pipeline(emu, tree));
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  }
  if (sections.has("promotion")) {
    const [staging, production] = await Promise.all([startEmulator(), startEmulator(productionEmulatorOptions())]);
    console.log(`\nemulators: staging ${staging.operationsCenterUrl}, production ${production.operationsCenterUrl}`);
    try {
      await promotion(staging, production);
    } finally {
      await Promise.all([staging.close(), production.close()]);
    }
  }
  if (sections.has("drift")) await withEmulator({}, estateDrift);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
