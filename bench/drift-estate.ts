/**
 * `npm run bench -- --only drift`: `pulumi-cloudbees drift` over an estate of stacks under the real CLI (issues 53 and
 * 65), outside the whole bench's 10 minutes. Half the stacks are TypeScript programs on the dynamic providers
 * (bench/programs/estate), half YAML programs through the plugin, five resources each; every tenth is drifted by hand,
 * alternately a TypeScript and a YAML one (a colleague changes a flag's rollout in Staging); one file backend, the
 * emulator in this process.
 *
 * Measured side by side in one run, interleaved (each repetition starts one pool later, so no pool always runs first):
 * the same previews as a plain shell loop (`xargs -P <concurrency>` running `pulumi preview --refresh
 * --expect-no-changes` in each folder), the command in the preview mode and in the refresh mode at the same
 * concurrency; the two modes' reports must name the same drifted paths with the same values, who and when. The
 * TypeScript stacks' share: the sum of their checks' durations in each report (the same runs, not a pool of their own).
 * The peak memory of each stack's worker (its `pulumi` and everything under it: language host, program, provider host
 * or plugin), sampled from /proc; pools are compared by the median of their TypeScript workers' peaks. The page of
 * the refresh report opened in Debian's Chromium. Then, apart from the estate (its own stacks file),
 * examples/controllers as one more stack whose controller's system message bob changed in its UI: the command in each
 * mode, the emulator's journal counting its configuration-history requests.
 * BENCH_DRIFT_STACKS sets the number of stacks (default 200), BENCH_DRIFT_REPS the repetitions, best of (default 1).
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { startEmulator, type Emulator } from "../emulator";
import type { CheckMode, DriftReport } from "../cli/drift/report";
import { emulatorConnection } from "../testing/emulator-config";
import { featureManagementClientAs } from "../testing/out-of-band";
import { findPulumiCli, isolatedCliEnvironment, type PulumiCli } from "../testing/cli/pulumi-cli";
import { inPool } from "../cli/report/pool";
import { blankCloudbeesEnv } from "./harness";
import { runPool, type PoolRun, type WorkerPeak } from "./pool-memory";
import { median, ms, row, seconds } from "./table";

const REPO_ROOT = path.resolve(__dirname, "..");
const COMMAND = path.join(REPO_ROOT, "dist", "cli", "main.js");
const PLUGIN = path.join(REPO_ROOT, "dist", "provider", "plugin", "main.js");
const PROGRAM = path.join(REPO_ROOT, "bench", "programs", "estate", "index.ts");
const CHROMIUM = "/usr/bin/chromium";
const CONTROLLER_PROGRAM = path.join(REPO_ROOT, "examples", "controllers", "index.ts");
const CONTROLLER = "team-c/controller-c";
const CONCURRENCY = 4;
const STACK = "bench";

const stackName = (i: number) => `s${String(i).padStart(3, "0")}`;
const isYaml = (i: number) => i % 2 === 1;
/** One stack in ten: 0, 11, 20, 31, ...: alternately a TypeScript (even) and a YAML (odd) one. */
const isDrifted = (i: number) => i % 10 === Math.floor(i / 10) % 2;
/** A stack id of the report (`s007#bench`) is YAML. */
const idIsYaml = (id: string) => isYaml(Number(id.split("#")[0]!.slice(1)));
/** A stack's folder (`s007`) is a YAML one; undefined for any other folder (a worker not yet in its stack's). */
const yamlFolder = (folder: string) => (/^s\d+$/.test(folder) ? isYaml(Number(folder.slice(1))) : undefined);

const YAML_PROGRAM = `resources:
  app:
    type: cloudbees:Application
    properties:
      name: \${pulumi.project}
  staging:
    type: cloudbees:Environment
    properties:
      applicationId: \${app.applicationId}
      name: Staging
  newFlow:
    type: cloudbees:Flag
    properties:
      applicationId: \${app.applicationId}
      name: checkout.newFlow
  newFlowStaging:
    type: cloudbees:FlagConfiguration
    properties:
      applicationId: \${app.applicationId}
      environment: \${staging.name}
      flag: \${newFlow.name}
      value:
        - option: true
          percentage: 50
  darkMode:
    type: cloudbees:Flag
    properties:
      applicationId: \${app.applicationId}
      name: ui.darkMode
`;

/** A stack's folder: its Pulumi.yaml (the project named after the folder, which names its application). */
function writeStack(estate: string, i: number): void {
  const dir = path.join(estate, stackName(i));
  fs.mkdirSync(dir);
  const project = `estate-${stackName(i)}`;
  const text = isYaml(i)
    ? `name: ${project}\nruntime: yaml\n${YAML_PROGRAM}`
    : `name: ${project}\nruntime:\n  name: nodejs\n  options:\n    typescript: true\nmain: ${JSON.stringify(PROGRAM)}\n`;
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), text, { flag: "wx" });
}

/**
 * The environment every pulumi of the estate runs with: the CLI's isolated one (one backend, PULUMI_HOME and
 * passphrase in the estate folder), the plugin on PATH, the emulator's connection.
 */
function estateEnvironment(cli: PulumiCli, estate: string, emu: Emulator): NodeJS.ProcessEnv {
  const bin = path.join(estate, "bin");
  fs.mkdirSync(bin);
  fs.writeFileSync(path.join(bin, "pulumi-resource-cloudbees"), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(PLUGIN)} "$@"\n`, { flag: "wx", mode: 0o755 });
  const isolated = isolatedCliEnvironment(cli, estate);
  const c = emulatorConnection(emu);
  return {
    ...process.env,
    ...blankCloudbeesEnv(),
    ...isolated,
    PATH: `${bin}${path.delimiter}${isolated.PATH}`,
    PULUMI_NODEJS_TRANSPILE_ONLY: "true",
    CLOUDBEES_OPERATIONS_CENTER_URL: c.operationsCenterUrl,
    CLOUDBEES_USERNAME: c.username,
    CLOUDBEES_API_TOKEN: c.apiToken,
    CLOUDBEES_FEATURE_MANAGEMENT_URL: c.featureManagementUrl,
    CLOUDBEES_FEATURE_MANAGEMENT_TOKEN: c.featureManagementToken,
    CLOUDBEES_FEATURE_MANAGEMENT_REQUEST_INTERVAL_MS: "0",
  };
}

function pulumi(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile("pulumi", [...args, "--non-interactive", "--color", "never"], { cwd, env, maxBuffer: 64 << 20 }, (e, stdout, stderr) =>
      e ? reject(new Error(`pulumi ${args.join(" ")} in ${cwd}: ${e.message}\n${stdout}\n${stderr}`)) : resolve(),
    );
  });
}

/** The drift command at CONCURRENCY in `mode`, over a stacks file of the estate's folder, its report in `out`. */
function runCommand(estate: string, env: NodeJS.ProcessEnv, mode: CheckMode, stacksFile: string, out: string): Promise<PoolRun> {
  const args = [COMMAND, "drift", "--mode", mode, "--stacks-file", stacksFile, "--out", out, "--concurrency", String(CONCURRENCY), "--pulumi", "pulumi"];
  return runPool(process.execPath, args, estate, env, yamlFolder);
}

/** The same previews as a plain shell loop at the same concurrency: xargs -P, a `sh -c` per stack. */
function runShellLoop(estate: string, names: string[], env: NodeJS.ProcessEnv): Promise<PoolRun> {
  const preview = `cd "$1" && pulumi preview --refresh --expect-no-changes --stack ${STACK} --non-interactive >/dev/null 2>&1; true`;
  return runPool("xargs", ["-P", String(CONCURRENCY), "-I{}", "sh", "-c", preview, "_", "{}"], estate, env, yamlFolder, names.map((n) => `${n}\n`).join(""));
}

function readReport(estate: string, out: string, run: PoolRun): DriftReport {
  const file = path.join(estate, out, "drift-report.json");
  if (!fs.existsSync(file)) throw new Error(`the drift command (exit ${run.code}) wrote no report in ${out}`);
  return JSON.parse(fs.readFileSync(file, "utf8")) as DriftReport;
}

/**
 * What both modes must agree on, per drifted stack: each drifted path with its kind, declared and actual values, who
 * and when (not firstSeen, which is each run's own time, nor the operation's name or the providers' notes).
 */
function driftedPaths(report: DriftReport): Array<{ id: string; paths: unknown[] }> {
  return report.stacks
    .filter((st) => st.status === "drifted")
    .map((st) => ({
      id: st.id,
      paths: (st.resources ?? []).flatMap((r) => r.paths.map((p) => ({ urn: r.urn, path: p.path, kind: p.kind, declared: p.declared, actual: p.actual, changedBy: p.changedBy, changedAt: p.changedAt }))),
    }));
}

/** Is the report what the estate holds: exit 1, the drifted stacks exactly those drifted by hand, the rest clean, all in `mode`. */
function reportRight(run: PoolRun, report: DriftReport, mode: CheckMode, count: number, driftedIds: string[]): boolean {
  const s = report.summary;
  const ids = report.stacks.filter((st) => st.status === "drifted").map((st) => st.id);
  const right =
    run.code === 1 &&
    s.stacks === count &&
    s.clean === count - driftedIds.length &&
    JSON.stringify(ids) === JSON.stringify(driftedIds) &&
    report.stacks.every((st) => st.mode === mode);
  if (!right) console.error(`  the ${mode} report is not what the estate holds: exit ${run.code}, ${JSON.stringify(s)}, drifted ${ids.join(" ")}`);
  return right;
}

/** The sum of the checks' durations of the stacks of one language in a report (ms). */
const checksMs = (report: DriftReport, yaml: boolean) => report.stacks.filter((st) => idIsYaml(st.id) === yaml).reduce((t, st) => t + st.durationMs, 0);

/**
 * examples/controllers as a stack of the estate's backend, outside its stacks file (controllers.yaml): its program by
 * path, its bundle tree (../bundles, from the stack's folder or the program's) copied beside it.
 */
async function setUpController(estate: string, env: NodeJS.ProcessEnv, emu: Emulator): Promise<void> {
  const dir = path.join(estate, "controllers");
  fs.mkdirSync(dir);
  const project = `name: estate-controllers\nruntime:\n  name: nodejs\n  options:\n    typescript: true\nmain: ${JSON.stringify(CONTROLLER_PROGRAM)}\n`;
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), project, { flag: "wx" });
  fs.cpSync(path.join(REPO_ROOT, "examples", "bundles"), path.join(estate, "bundles"), { recursive: true });
  fs.writeFileSync(path.join(estate, "controllers.yaml"), `- controllers#${STACK}\n`, { flag: "wx" });
  await pulumi(["stack", "init", STACK], dir, env);
  await pulumi(["config", "set", "controllers:instanceUrl", `${emu.baseUrl}controllers/${CONTROLLER}/`, "--stack", STACK], dir, env);
  await pulumi(["up", "--yes", "--skip-preview", "--stack", STACK], dir, env);
}

/**
 * Who changed a controller, and what it costs: the controller stack checked in each mode, the emulator's journal
 * counting the configuration-history requests (`jobConfigHistory/...`) of each run; bob's change named on its path.
 */
async function controllerRows(estate: string, env: NodeJS.ProcessEnv, emu: Emulator): Promise<void> {
  const requests: number[] = [];
  const named: boolean[] = [];
  for (const mode of ["refresh", "preview"] as const) {
    emu.journal.clear();
    const out = `report-controller-${mode}`;
    const run = await runCommand(estate, env, mode, "controllers.yaml", out);
    requests.push(emu.journal.entries().filter((e) => e.path.includes("/jobConfigHistory/")).length);
    const report = readReport(estate, out, run);
    const paths = report.stacks.flatMap((st) => st.resources ?? []).flatMap((r) => r.paths);
    const message = paths.find((p) => p.path === 'configuration["jenkins.yaml: jenkins.systemMessage"]');
    named.push(run.code === 1 && report.summary.drifted === 1 && message?.changedBy === "bob" && message.actual === "Changed in the UI by Bob");
    if (!named.at(-1)) console.error(`  the controller's ${mode} report: exit ${run.code}, ${JSON.stringify(report.summary)}, ${JSON.stringify(paths)}`);
  }
  const most = Math.max(...requests);
  row(
    "drift: who changed a controller, configuration-history requests for its one drifted controller (examples/controllers as one more stack, its system message changed by bob), refresh / preview mode",
    `${requests[0]} / ${requests[1]}`,
    "1 (floor: one per drifted controller)",
    most,
    { text: "≤ 1 per drifted controller, bob named on the path", met: most <= 1 && named.every(Boolean) },
  );
}

/** The report's page opened in Chromium from its file: until its table says what it shows. */
async function pageLoadMs(file: string): Promise<number | undefined> {
  if (!fs.existsSync(CHROMIUM)) return undefined;
  const { chromium } = require("playwright-core") as typeof import("playwright-core");
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"] });
  try {
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
      const started = performance.now();
      await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
      await page.locator("#f-shown").filter({ hasText: "stacks" }).waitFor();
      times.push(performance.now() - started);
      await page.close();
    }
    return median(times);
  } finally {
    await browser.close();
  }
}

type Pool = "loop" | CheckMode;

export async function driftEstateRows(count = Number(process.env.BENCH_DRIFT_STACKS ?? 200), reps = Number(process.env.BENCH_DRIFT_REPS ?? 1)): Promise<void> {
  const cli = findPulumiCli();
  if (!cli) throw new Error("the drift section runs the real Pulumi CLI: `npm run pulumi-cli` builds one");
  if (!(Number.isInteger(count) && count >= 10) || !(Number.isInteger(reps) && reps >= 1)) throw new Error("BENCH_DRIFT_STACKS: a whole number from 10; BENCH_DRIFT_REPS: from 1");
  const estate = fs.mkdtempSync(path.join(os.tmpdir(), "bench-drift-estate-"));
  const emu = await startEmulator();
  try {
    const env = estateEnvironment(cli, estate, emu);
    const indexes = Array.from({ length: count }, (_, i) => i);
    indexes.forEach((i) => writeStack(estate, i));
    fs.writeFileSync(path.join(estate, "stacks.yaml"), indexes.map((i) => `- ${stackName(i)}#${STACK}\n`).join(""), { flag: "wx" });
    console.error(`  setting up ${count} stacks and a controller's (pulumi up, ${CONCURRENCY} at once) in ${estate}`);
    await inPool([-1, ...indexes], CONCURRENCY, async (i) => {
      if (i < 0) return setUpController(estate, env, emu);
      const dir = path.join(estate, stackName(i));
      await pulumi(["stack", "init", STACK], dir, env);
      await pulumi(["up", "--yes", "--skip-preview", "--stack", STACK], dir, env);
    });
    const drifted = indexes.filter(isDrifted);
    const driftedIds = drifted.map((i) => `${stackName(i)}#${STACK}`);
    const alice = featureManagementClientAs(emu, { email: "alice@example.com", name: "Alice" });
    for (const i of drifted) {
      const app = emu.state.applications("acme").find((a) => a.name === `estate-${stackName(i)}`)!;
      await alice.patchExperiment(app.id, "Staging", "checkout.newFlow", [{ op: "replace", path: "/value", value: [{ option: true, percentage: 75 }] }]);
    }
    await alice.close();
    emu.changeConfiguration(CONTROLLER, "jenkins.yaml", "jenkins.systemMessage", "Changed in the UI by Bob", { id: "bob", fullName: "Bob" });

    // Interleaved: repetition r starts with pool r (mod 3), so the machine's state is alike for each.
    const runs: Record<Pool, Array<{ run: PoolRun; report?: DriftReport }>> = { loop: [], preview: [], refresh: [] };
    const order: Pool[] = ["loop", "preview", "refresh"];
    for (let rep = 0; rep < reps; rep++) {
      for (let k = 0; k < order.length; k++) {
        const pool = order[(k + rep) % order.length]!;
        emu.journal.clear();
        console.error(`  ${reps > 1 ? `${rep + 1}/${reps}: ` : ""}${pool === "loop" ? "the same previews, a plain shell loop" : `pulumi-cloudbees drift --mode ${pool}`}`);
        if (pool === "loop") {
          runs.loop.push({ run: await runShellLoop(estate, indexes.map(stackName), env) });
        } else {
          const out = `report-${pool}-${rep + 1}`;
          const run = await runCommand(estate, env, pool, "stacks.yaml", out);
          runs[pool].push({ run, report: readReport(estate, out, run) });
        }
      }
    }
    emu.journal.clear();
    const best = (pool: Pool) => runs[pool].reduce((a, b) => (b.run.wallMs < a.run.wallMs ? b : a));
    const loop = best("loop").run;
    const preview = best("preview") as { run: PoolRun; report: DriftReport };
    const refresh = best("refresh") as { run: PoolRun; report: DriftReport };
    const rightAll = (["preview", "refresh"] as const).every((mode) => runs[mode].every((r) => reportRight(r.run, r.report!, mode, count, driftedIds)));
    const bestOf = reps > 1 ? `, best of ${reps}` : "";
    const ts = count - Math.floor(count / 2);
    const what = `${count} stacks (${ts} TypeScript, ${Math.floor(count / 2)} YAML, ${drifted.length} drifted, ${drifted.filter((i) => !isYaml(i)).length} of them TypeScript), concurrency ${CONCURRENCY}`;

    const wall = refresh.run.wallMs / preview.run.wallMs;
    row(`drift: ${what}, the refresh mode (the default) against the preview mode, wall${bestOf}`, seconds(refresh.run.wallMs), `${seconds(preview.run.wallMs)} (the preview mode)`, wall, {
      text: "≤ 0.70×, both reports right",
      met: wall <= 0.7 && rightAll,
    });
    const tsR = checksMs(refresh.report, false);
    const tsP = checksMs(preview.report, false);
    row(`drift: its ${ts} TypeScript stacks, refresh against preview (the sum of their checks' durations in the same runs)`, seconds(tsR), seconds(tsP), tsR / tsP, { text: "≤ 0.60×", met: tsR / tsP <= 0.6 });
    const yR = checksMs(refresh.report, true);
    const yP = checksMs(preview.report, true);
    row(`drift: its ${Math.floor(count / 2)} YAML stacks, likewise`, seconds(yR), seconds(yP), yR / yP);
    const a = driftedPaths(refresh.report);
    const b = driftedPaths(preview.report);
    const same = JSON.stringify(a) === JSON.stringify(b) && a.length === drifted.length;
    if (!same) console.error(`  the modes' drifted paths differ:\n  refresh ${JSON.stringify(a)}\n  preview ${JSON.stringify(b)}`);
    const pathCount = a.reduce((n, st) => n + st.paths.length, 0);
    row("drift: the same drifted paths in both modes (each with its declared and actual values, who and when)", `${pathCount} paths in ${a.length} stacks`, `${b.reduce((n, st) => n + st.paths.length, 0)} paths in ${b.length} stacks (preview)`, undefined, {
      text: "equal",
      met: same,
    });
    const minutes = Math.max(refresh.run.wallMs, preview.run.wallMs);
    row("drift: each mode over the whole estate", `refresh ${seconds(refresh.run.wallMs)}, preview ${seconds(preview.run.wallMs)}`, "", undefined, { text: "≤ 10 min each", met: minutes <= 600_000 });
    row(
      "drift: per-stack median, refresh / preview (in the pool)",
      `${seconds(median(refresh.report.stacks.map((x) => x.durationMs)))} / ${seconds(median(preview.report.stacks.map((x) => x.durationMs)))}`,
    );
    const ratio = preview.run.wallMs / loop.wallMs;
    row(`drift: the preview mode against a shell loop of the same previews (xargs -P 4)${bestOf}`, seconds(preview.run.wallMs), seconds(loop.wallMs), ratio, { text: "≤ 1.10×", met: ratio <= 1.1 });
    // Memory: each worker's own peak. The judged figure is the median over the TypeScript stacks' workers (the
    // heavier kind: program, language host and provider hosts) of every repetition; the largest is shown beside it,
    // one sample's luck (a quarter-second sample catching every process of a worker at its top at once).
    const peaksOf = (pool: Pool, yaml: boolean) => runs[pool].flatMap((r) => r.run.workers.filter((w) => w.yaml === yaml));
    const largest = (peaks: WorkerPeak[]) => peaks.reduce((a, b) => (b.mb > a.mb ? b : a), { mb: 0, parts: [], yaml: false });
    const mb = (n: number) => `${Math.round(n)} MB`;
    const described = (peaks: WorkerPeak[]) => {
      const top = largest(peaks);
      return `median ${mb(median(peaks.map((w) => w.mb)))} of ${peaks.length} workers, largest ${mb(top.mb)} (${top.parts.join(", ")})`;
    };
    for (const mode of ["preview", "refresh"] as const) {
      const mine = peaksOf(mode, false);
      const loops = peaksOf("loop", false);
      const m = median(mine.map((w) => w.mb)) / median(loops.map((w) => w.mb));
      row(`drift: peak memory per worker, the ${mode} mode, its TypeScript stacks (a stack's pulumi and every process under it, PSS)`, described(mine), `${described(loops)} (the shell loop)`, m, {
        text: "median ≤ the loop's",
        met: m <= 1,
      });
    }
    row(
      "drift: the same for the YAML stacks, median, refresh / preview / the loop",
      `${mb(median(peaksOf("refresh", true).map((w) => w.mb)))} / ${mb(median(peaksOf("preview", true).map((w) => w.mb)))} / ${mb(median(peaksOf("loop", true).map((w) => w.mb)))}`,
    );
    const ownPeak = (mode: CheckMode) => Math.round(Math.max(...runs[mode].map((r) => r.run.poolPeakMb)));
    row("drift: the command's own peak memory (VmHWM), refresh / preview", `${ownPeak("refresh")} MB / ${ownPeak("preview")} MB`);
    const pageMs = await pageLoadMs(path.join(estate, `report-refresh-${runs.refresh.indexOf(refresh) + 1}`, "drift-report.html"));
    if (pageMs === undefined) row("drift: the report's page in Chromium", `no ${CHROMIUM}`, "", undefined, { text: "≤ 2 s", met: false });
    else row(`drift: the report's page of ${count} stacks in Chromium, load until shown (median of 3)`, ms(pageMs), "", undefined, { text: "≤ 2 s", met: pageMs <= 2000 });

    await controllerRows(estate, env, emu);
  } finally {
    await emu.close();
    // A failed setup leaves its other `pulumi up`s running a moment: the folder is left then, and said, not the error hidden.
    try {
      fs.rmSync(estate, { recursive: true, force: true, maxRetries: 3, retryDelay: 500 });
    } catch (e) {
      console.error(`  left ${estate}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}
