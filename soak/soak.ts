/**
 * The fault soak: the example programs' whole life cycle (up, refresh, up, destroy) through the real provider host
 * (testing/processes/program-runner.ts plays the engine) against the emulator, with seeded random faults on a share of
 * the requests: 500, 503, 429 and 555 with Retry-After, connections dropped before and after the server acted, and
 * answers sent after the client's deadline. A failed step is run again (as a pipeline would), up to three times.
 *
 * After every attempt of every step it checks what a user relies on:
 * - mismatches: after a step that succeeded, every resource in the state agrees with what the server holds (and a
 *   destroy leaves no pattern set); after any step, every application of the program's name is in the state
 *   (created, adopted, or recorded as pending): nothing is half-applied without the state saying so;
 * - duplicate applications: more than one application of the program's name in the account;
 * - blind repeats: an unsafe call (create application, create-items, reload-bundle) sent again after an answer that
 *   left its outcome unknown (no answer, a 5xx, a late answer), with no read of what the server holds in between.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type Emulator, type JournalEntry } from "../emulator";
import { emulatorStackConfig, ProgramRunner, shortType, unwrapSecrets, type StateResource } from "../testing";

const ROOT = path.join(__dirname, "..");
const STEPS = ["up", "refresh", "up", "destroy"] as const;
type Step = (typeof STEPS)[number];
const ATTEMPTS_PER_STEP = 3;
/** The application each program declares: no more than one of each name may ever be in the account. */
const APPLICATION_NAMES: Record<SoakProgram, string> = { example: "checkout-service", pipeline: "checkout-service", flags: "checkout-flags" };
const A = "team-a/controller-a";
const B = "team-b/controller-b";

export type SoakProgram = "example" | "pipeline" | "flags";

export interface SoakOptions {
  /** Share of requests faulted, 0 to 1. */
  rate: number;
  /** Life cycles to run; they take the programs in turn. */
  runs: number;
  /** Seed of the first run; run i uses seed + i. */
  seed: number;
  /** Programs to take in turn. Default all three. */
  programs?: SoakProgram[];
  /** cloudbees:timeoutMs of the providers; slow answers come 500 ms after it. Default 1500. */
  timeoutMs?: number;
  /** Called after each life cycle, e.g. to print progress. */
  onRun?: (run: RunResult) => void;
}

export interface RunResult {
  program: SoakProgram;
  seed: number;
  completed: boolean;
  failedSteps: number;
  mismatches: string[];
  duplicateApplications: number;
  blindRepeats: string[];
  requests: number;
  faulted: number;
  /** The first line of each failed attempt. */
  failures: string[];
}

export interface SoakResult {
  rate: number;
  runs: RunResult[];
}

export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const programs = options.programs ?? ["example", "pipeline", "flags"];
  const runs: RunResult[] = [];
  for (let i = 0; i < options.runs; i++) {
    const run = await lifeCycle(programs[i % programs.length]!, options.rate, options.seed + i, options.timeoutMs ?? 1500);
    runs.push(run);
    options.onRun?.(run);
  }
  return { rate: options.rate, runs };
}

async function lifeCycle(program: SoakProgram, rate: number, seed: number, timeoutMs: number): Promise<RunResult> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "soak-"));
  const bundlesDir = path.join(tmp, "bundles");
  fs.cpSync(path.join(ROOT, "examples", "bundles"), bundlesDir, { recursive: true });
  const emu = await startEmulator({ bundlesDir });
  const result: RunResult = { program, seed, completed: false, failedSteps: 0, mismatches: [], duplicateApplications: 0, blindRepeats: [], requests: 0, faulted: 0, failures: [] };
  let runner: ProgramRunner | undefined;
  try {
    runner = await ProgramRunner.start({
      cwd: program === "example" ? ROOT : path.join(ROOT, "examples", program),
      config: { ...emulatorStackConfig(emu), "cloudbees:timeoutMs": String(timeoutMs), ...programConfig(program, emu, bundlesDir) },
      timeoutMs: 180_000,
    });
    emu.faults.random({ rate, seed, slowAnswerMs: timeoutMs + 500, retryAfter: "0" });
    let completed = true;
    for (const step of STEPS) {
      let ok = false;
      for (let attempt = 1; attempt <= ATTEMPTS_PER_STEP && !ok; attempt++) {
        try {
          await runStep(runner, step);
          ok = true;
        } catch (e) {
          result.failedSteps++;
          result.failures.push(`${step}: ${firstLine(e)}`);
        }
        const state = runner.state().resources;
        result.mismatches.push(...mismatches(emu, state, step, ok).map((m) => `${step}: ${m}`));
        result.duplicateApplications = Math.max(result.duplicateApplications, applicationsNamed(emu, APPLICATION_NAMES[program]).length - 1);
      }
      if (!ok) {
        completed = false;
        break;
      }
    }
    result.completed = completed;
  } finally {
    emu.faults.clear();
    const journal = emu.journal.entries();
    result.requests = journal.length;
    result.faulted = journal.filter((e) => e.fault).length;
    result.blindRepeats = blindRepeats(journal);
    await runner?.close();
    await emu.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return result;
}

function programConfig(program: SoakProgram, emu: Emulator, bundlesDir: string): Record<string, unknown> {
  if (program === "example") return { "example:adoptExisting": "false" };
  if (program === "flags") return {};
  return {
    "pipeline:bundlesDir": bundlesDir,
    "pipeline:controllers": JSON.stringify({ [A]: { bundle: "team-a", url: emu.controllerUrls[A] }, [B]: { bundle: "team-b", url: emu.controllerUrls[B] } }),
  };
}

function runStep(runner: ProgramRunner, step: Step): Promise<unknown> {
  if (step === "up") return runner.up();
  if (step === "refresh") return runner.refresh();
  return runner.destroy();
}

function firstLine(e: unknown): string {
  return String((e as Error)?.message ?? e).split("\n")[0]!.slice(0, 300);
}

function applicationsNamed(emu: Emulator, name: string) {
  return emu.state.applications("acme").filter((a) => a.name === name);
}

/** Where the state and the server disagree after an attempt of `step` (`ok`: the attempt succeeded). */
export function mismatches(emu: Emulator, resources: StateResource[], step: Step, ok: boolean): string[] {
  const out: string[] = [];
  const s = emu.state;
  const apps = s.applications("acme");
  const recorded = new Set<string>();
  let pendingNames = new Set<string>();
  for (const r of resources) {
    const o = unwrapSecrets(r.outputs) as Record<string, unknown>;
    const type = shortType(r.type);
    if (type === "cloudbees:Application") {
      if (o.applicationId) {
        recorded.add(String(o.applicationId));
        if (!apps.some((a) => a.id === o.applicationId && a.name === o.name)) out.push(`${r.name}: application ${String(o.applicationId)} is not in the account`);
      } else if (o.pendingCreate) {
        pendingNames = new Set([...pendingNames, String(o.name)]);
      } else {
        out.push(`${r.name}: an application without an id and not pending`);
      }
    }
    if (!ok) continue;
    if (type === "cloudbees:BundleAvailability" && s.apiAvailabilityPatterns()[String(o.bundleId)] !== o.regex) {
      out.push(`${r.name}: the state says pattern ${JSON.stringify(o.regex)}, the server ${JSON.stringify(s.apiAvailabilityPatterns()[String(o.bundleId)])}`);
    }
    if (type === "cloudbees:ControllerBundleAssignment" && s.assignments()[String(o.controllerPath)] !== o.bundleId) {
      out.push(`${r.name}: the state says bundle ${String(o.bundleId)}, the server ${String(s.assignments()[String(o.controllerPath)])}`);
    }
    if (type === "cloudbees:DefaultBundle" && s.defaultBundle() !== o.bundleId) {
      out.push(`${r.name}: the state says default bundle ${String(o.bundleId)}, the server ${String(s.defaultBundle())}`);
    }
    if (type === "cloudbees:GlobalAvailabilityPattern" && s.globalVisibility() !== o.visibility) {
      out.push(`${r.name}: the state says visibility ${String(o.visibility)}, the server ${String(s.globalVisibility())}`);
    }
    if (type === "cloudbees:ControllerBundleToken" && s.controllerToken(String(o.controllerPath)) !== o.token) {
      out.push(`${r.name}: the state's token is not the controller's`);
    }
    out.push(...flagMismatches(emu, r.name, type, o));
  }
  if (step !== "destroy") {
    for (const a of apps) {
      if (!recorded.has(a.id) && !pendingNames.has(a.name)) out.push(`application ${a.id} ("${a.name}") is in the account but not in the state`);
    }
  } else if (ok && Object.keys(s.apiAvailabilityPatterns()).length > 0) {
    out.push(`destroy left patterns set: ${JSON.stringify(s.apiAvailabilityPatterns())}`);
  }
  if (step === "destroy" && ok) {
    for (const a of apps) {
      const left = s.flags(a.id).map((f) => f.name);
      if (left.length > 0) out.push(`destroy left flags of application ${a.id}: ${JSON.stringify(left)}`);
    }
  }
  return out;
}

/** A flag-side resource of a succeeded step agrees with the account: its object exists, with the switch it declares. */
function flagMismatches(emu: Emulator, name: string, type: string, o: Record<string, unknown>): string[] {
  const appId = String(o.applicationId ?? "");
  const app = emu.state.applications("acme").some((a) => a.id === appId);
  if (!app || !["cloudbees:Environment", "cloudbees:Flag", "cloudbees:FlagConfiguration", "cloudbees:TargetGroup"].includes(type)) return [];
  const s = emu.state;
  if (type === "cloudbees:Environment" && !s.environments(appId).some((e) => e.name.toLowerCase() === String(o.name).toLowerCase())) {
    return [`${name}: environment ${String(o.name)} is not in the application`];
  }
  if (type === "cloudbees:TargetGroup" && !s.targetGroups(appId).some((g) => g.name === o.name)) return [`${name}: target group ${String(o.name)} is not in the application`];
  if (type === "cloudbees:Flag" && !s.flags(appId).some((f) => f.name === o.name)) return [`${name}: flag ${String(o.name)} is not in the application`];
  if (type === "cloudbees:FlagConfiguration") {
    const flag = s.flags(appId).find((f) => f.name === o.flag);
    const env = Object.keys(flag?.configurations ?? {}).find((e) => e.toLowerCase() === String(o.environment).toLowerCase());
    const configuration = env === undefined ? undefined : flag!.configurations[env];
    if (!configuration) return [`${name}: flag ${String(o.flag)} is not configured in ${String(o.environment)}`];
    if (typeof o.enabled === "boolean" && configuration.enabled !== o.enabled) return [`${name}: the state says enabled ${String(o.enabled)}, the server ${String(configuration.enabled)}`];
  }
  return [];
}

/** The unsafe calls, and the reads that find out what one of them did on the same service or instance. */
function unsafeCall(e: JournalEntry): { key: string; scope: string; reconciles: (r: JournalEntry) => boolean } | undefined {
  if (e.method !== "POST") return undefined;
  const m = /^(.*\/)(public-api\/applications|casc-items\/create-items|casc-bundle-mgnt\/reload-bundle)$/.exec(e.path);
  if (!m) return undefined;
  const scope = m[1]!;
  const kind = m[2]!;
  const key = `${e.path}?${new URLSearchParams(e.query).toString()} ${e.body.toString("utf8")}`;
  if (kind === "public-api/applications") return { key, scope, reconciles: (r) => r.method === "GET" && r.path === e.path };
  if (kind === "casc-items/create-items") return { key, scope, reconciles: (r) => r.path.startsWith(scope) && /\/export\/download(\/|$)/.test(r.path) };
  return { key, scope, reconciles: (r) => r.method === "GET" && r.path.startsWith(`${scope}casc-bundle-mgnt/`) };
}

/** A fault or an answer after which the client cannot know whether the server acted. */
function outcomeUnknown(e: JournalEntry): boolean {
  if (e.fault === "drop" || e.fault === "drop after acting" || e.fault === "slow answer") return true;
  if (e.fault?.startsWith("status ")) return e.status >= 500 && e.status !== 555;
  return e.status === 0 || e.status >= 500;
}

/** Unsafe calls sent again after an unknown outcome with no reconciling read in between. */
export function blindRepeats(journal: JournalEntry[]): string[] {
  const out: string[] = [];
  const open = new Map<string, { reconciled: boolean; reconciles: (r: JournalEntry) => boolean }>();
  for (const e of journal) {
    for (const pending of open.values()) if (!pending.reconciled && pending.reconciles(e)) pending.reconciled = true;
    const call = unsafeCall(e);
    if (!call) continue;
    const previous = open.get(call.key);
    if (previous && !previous.reconciled) out.push(`${e.method} ${e.path} sent again without reading what the first did`);
    if (outcomeUnknown(e)) open.set(call.key, { reconciled: false, reconciles: call.reconciles });
    else open.delete(call.key);
  }
  return out;
}

/** One table row per rate: runs, completed, failed steps, mismatches, duplicates, blind repeats, requests, faulted. */
export function formatSoakTable(results: SoakResult[]): string {
  const header = ["fault rate", "runs", "completed", "failed steps", "mismatches", "duplicate apps", "blind repeats", "requests", "faulted"];
  const rows = results.map((r) => {
    const sum = (f: (x: RunResult) => number) => r.runs.reduce((n, x) => n + f(x), 0);
    const completed = r.runs.filter((x) => x.completed).length;
    return [
      `${Math.round(r.rate * 100)} %`,
      String(r.runs.length),
      `${completed} (${Math.round((completed / Math.max(1, r.runs.length)) * 100)} %)`,
      String(sum((x) => x.failedSteps)),
      String(sum((x) => x.mismatches.length)),
      String(sum((x) => x.duplicateApplications)),
      String(sum((x) => x.blindRepeats.length)),
      String(sum((x) => x.requests)),
      String(sum((x) => x.faulted)),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cols: string[]) => `| ${cols.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.map(line)].join("\n");
}
