/**
 * `npm run bench -- --only drift`: `pulumi-cloudbees drift` over an estate of stacks under the real CLI (issue 53's
 * figures), outside the whole bench's 10 minutes. Half the stacks are TypeScript programs on the dynamic providers
 * (bench/programs/estate), half YAML programs through the plugin, five resources each, every tenth drifted by hand
 * (a colleague changes a flag's rollout in Staging); one file backend, the emulator in this process.
 *
 * Measured side by side in one run: the same previews as a plain shell loop (`xargs -P <concurrency>` running `pulumi
 * preview --refresh --expect-no-changes` in each folder), then the command at the same concurrency; the peak memory
 * of each stack's worker (its `pulumi` and everything under it: language host, program, provider host or plugin),
 * sampled from /proc; the page of the command's report opened in Debian's Chromium.
 * BENCH_DRIFT_STACKS sets the number of stacks (default 200).
 */
import { execFile, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { startEmulator, type Emulator } from "../emulator";
import type { DriftReport } from "../cli/drift/report";
import { emulatorConnection } from "../testing/emulator-config";
import { featureManagementClientAs } from "../testing/out-of-band";
import { findPulumiCli, isolatedCliEnvironment, type PulumiCli } from "../testing/cli/pulumi-cli";
import { inPool } from "../cli/report/pool";
import { blankCloudbeesEnv } from "./harness";
import { median, ms, row, seconds } from "./table";

const REPO_ROOT = path.resolve(__dirname, "..");
const COMMAND = path.join(REPO_ROOT, "dist", "cli", "main.js");
const PLUGIN = path.join(REPO_ROOT, "dist", "provider", "plugin", "main.js");
const PROGRAM = path.join(REPO_ROOT, "bench", "programs", "estate", "index.ts");
const CHROMIUM = "/usr/bin/chromium";
const CONCURRENCY = 4;
const STACK = "bench";

const stackName = (i: number) => `s${String(i).padStart(3, "0")}`;
const isYaml = (i: number) => i % 2 === 1;

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

/**
 * Memory (MB) of each child of `pid` with all its descendants, read from /proc: the proportional set size (smaps_rollup
 * Pss), so pages the processes share (the node binary, the CLI's) count once over them, not once per process.
 */
function workerMemory(pid: number): Map<number, { mb: number; parts: string[] }> {
  const parent = new Map<number, number>();
  const names = new Map<number, string>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
      names.set(Number(entry), stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")));
    } catch {
      // gone meanwhile
    }
  }
  const workerOf = (p: number): number | undefined => {
    for (let cur = p, up = parent.get(p); up !== undefined; cur = up, up = parent.get(up)) if (up === pid) return cur;
    return undefined;
  };
  const sums = new Map<number, { mb: number; parts: string[] }>();
  for (const p of parent.keys()) {
    const worker = workerOf(p);
    if (worker === undefined) continue;
    try {
      const kb = Number(/^Pss:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${p}/smaps_rollup`, "utf8"))?.[1] ?? 0);
      const sum = sums.get(worker) ?? { mb: 0, parts: [] };
      sum.mb += kb / 1024;
      sum.parts.push(`${names.get(p)} ${Math.round(kb / 1024)}`);
      sums.set(worker, sum);
    } catch {
      // gone meanwhile
    }
  }
  return sums;
}

interface PoolRun {
  wallMs: number;
  /** The largest worker's peak memory, and its processes' shares then. */
  workerPeakMb: number;
  workerPeakParts: string[];
  /** The pool's own process (the command; xargs for the loop): its peak resident memory (VmHWM). */
  poolPeakMb: number;
  code: number | null;
}

/**
 * Runs a pool of stacks' previews as a child process, its memory sampled every half second (both pools alike, so the
 * sampling's own cost is in both wall times): each worker is a child of the pool's process.
 */
async function runPool(command: string, args: string[], estate: string, env: NodeJS.ProcessEnv, input?: string): Promise<PoolRun> {
  const started = performance.now();
  const child = spawn(command, args, { cwd: estate, env, stdio: [input === undefined ? "ignore" : "pipe", "ignore", "inherit"] });
  if (input !== undefined) child.stdin!.end(input);
  let workerPeakMb = 0;
  let workerPeakParts: string[] = [];
  let poolPeakMb = 0;
  const sample = setInterval(() => {
    for (const { mb, parts } of workerMemory(child.pid!).values()) {
      if (mb > workerPeakMb) [workerPeakMb, workerPeakParts] = [mb, parts];
    }
    try {
      poolPeakMb = Math.max(poolPeakMb, Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, "utf8"))![1]) / 1024);
    } catch {
      // ended
    }
  }, 500);
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  clearInterval(sample);
  return { wallMs: performance.now() - started, workerPeakMb, workerPeakParts, poolPeakMb, code };
}

/** The drift command at CONCURRENCY. */
function runCommand(estate: string, env: NodeJS.ProcessEnv): Promise<PoolRun> {
  return runPool(process.execPath, [COMMAND, "drift", "--stacks-file", "stacks.yaml", "--out", "report", "--concurrency", String(CONCURRENCY), "--pulumi", "pulumi"], estate, env);
}

/** The same previews as a plain shell loop at the same concurrency: xargs -P, a `sh -c` per stack. */
function runShellLoop(estate: string, names: string[], env: NodeJS.ProcessEnv): Promise<PoolRun> {
  const preview = `cd "$1" && pulumi preview --refresh --expect-no-changes --stack ${STACK} --non-interactive >/dev/null 2>&1; true`;
  return runPool("xargs", ["-P", String(CONCURRENCY), "-I{}", "sh", "-c", preview, "_", "{}"], estate, env, names.map((n) => `${n}\n`).join(""));
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

export async function driftEstateRows(count = Number(process.env.BENCH_DRIFT_STACKS ?? 200)): Promise<void> {
  const cli = findPulumiCli();
  if (!cli) throw new Error("the drift section runs the real Pulumi CLI: `npm run pulumi-cli` builds one");
  const estate = fs.mkdtempSync(path.join(os.tmpdir(), "bench-drift-estate-"));
  const emu = await startEmulator();
  try {
    const env = estateEnvironment(cli, estate, emu);
    const indexes = Array.from({ length: count }, (_, i) => i);
    indexes.forEach((i) => writeStack(estate, i));
    fs.writeFileSync(path.join(estate, "stacks.yaml"), indexes.map((i) => `- ${stackName(i)}#${STACK}\n`).join(""), { flag: "wx" });
    console.error(`  setting up ${count} stacks (pulumi up, ${CONCURRENCY} at once) in ${estate}`);
    await inPool(indexes, CONCURRENCY, async (i) => {
      const dir = path.join(estate, stackName(i));
      await pulumi(["stack", "init", STACK], dir, env);
      await pulumi(["up", "--yes", "--skip-preview", "--stack", STACK], dir, env);
    });
    const drifted = indexes.filter((i) => i % 10 === 0);
    const alice = featureManagementClientAs(emu, { email: "alice@example.com", name: "Alice" });
    for (const i of drifted) {
      const app = emu.state.applications("acme").find((a) => a.name === `estate-${stackName(i)}`)!;
      await alice.patchExperiment(app.id, "Staging", "checkout.newFlow", [{ op: "replace", path: "/value", value: [{ option: true, percentage: 75 }] }]);
    }
    await alice.close();

    console.error("  the same previews, a plain shell loop");
    const loop = await runShellLoop(estate, indexes.map(stackName), env);
    console.error("  pulumi-cloudbees drift");
    const run = await runCommand(estate, env);
    const report = JSON.parse(fs.readFileSync(path.join(estate, "report", "drift-report.json"), "utf8")) as DriftReport;
    const s = report.summary;
    const right = run.code === 1 && s.drifted === drifted.length && s.clean === count - drifted.length;
    const what = `${count} stacks (${count - Math.floor(count / 2)} TypeScript, ${Math.floor(count / 2)} YAML, ${drifted.length} drifted), concurrency ${CONCURRENCY}`;
    row(`drift: ${what}, wall`, seconds(run.wallMs), "", undefined, { text: "≤ 10 min, the report right", met: run.wallMs <= 600_000 && right });
    if (!right) console.error(`  the report is not what the estate holds: exit ${run.code}, ${JSON.stringify(s)}`);
    row("drift: per-stack median (preview --refresh in the pool)", seconds(median(report.stacks.map((x) => x.durationMs))));
    const ratio = run.wallMs / loop.wallMs;
    row("drift: the command against a shell loop of the same previews (xargs -P 4)", seconds(run.wallMs), seconds(loop.wallMs), ratio, { text: "≤ 1.10×", met: ratio <= 1.1 });
    const parts = (r: PoolRun) => `${Math.round(r.workerPeakMb)} MB (${r.workerPeakParts.join(", ")})`;
    row("drift: peak memory per worker (a stack's pulumi and every process under it, PSS, MB)", parts(run), `${parts(loop)} (the shell loop)`, run.workerPeakMb / loop.workerPeakMb, { text: "≤ 300 MB", met: run.workerPeakMb <= 300 });
    row("drift: the command's own peak memory (VmHWM)", `${Math.round(run.poolPeakMb)} MB`);
    const pageMs = await pageLoadMs(path.join(estate, "report", "drift-report.html"));
    if (pageMs === undefined) row("drift: the report's page in Chromium", `no ${CHROMIUM}`, "", undefined, { text: "≤ 2 s", met: false });
    else row(`drift: the report's page of ${count} stacks in Chromium, load until shown (median of 3)`, ms(pageMs), "", undefined, { text: "≤ 2 s", met: pageMs <= 2000 });
  } finally {
    await emu.close();
    fs.rmSync(estate, { recursive: true, force: true });
  }
}
