/**
 * The bench's scale section (issue 30, "linear to thousands"): one program of 500, 1,000 and 2,000 resources of a
 * realistic mix (bench/programs/scale: bundles by regex and by controllers, assignments, flags and their
 * configurations, plus the application and environments they need) run by the testing kit's engine stand-in
 * (ProgramRunner: the program in its process, Pulumi's real dynamic-provider host over gRPC) against the emulator
 * in a process of its own (a fresh one per run), rate limit off. `up`, `refresh` and `destroy` wall time (best of
 * REPS runs at the largest size, one below it, ours and minimal interleaved), the provider host's peak RSS (VmHWM)
 * and the CPU time of all processes, each beside a minimal dynamic provider in the same program sending the same
 * writes (scale:provider = minimal); the write requests of both, from the emulator's journal; the same writes sent
 * directly with undici (the emulator's own growth); the time per resource at each size against that at 500, and per
 * resource added between the sizes (which the steps' fixed costs do not hide).
 *
 * `npx ts-node --transpile-only bench/scale.ts [count...] [--reps n]` runs it alone and prints its table (needs
 * `npm run build` and `node scripts/link-self.js` first, as `npm run bench` does).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { ProgramRunner } from "../testing/processes/program-runner";
import { blankCloudbeesEnv } from "./harness";
import { EmulatorProcess } from "./emulator-client";
import type { WriteRequest } from "./emulator-process";
import { emulatorObjects } from "./programs/scale/layout";
import { sendDirectly } from "./programs/scale/minimal";
import { StepSampler } from "./step-sampler";
import { row, seconds, table } from "./table";

const PROGRAM_DIR = path.join(__dirname, "programs", "scale");
const SIZES = [500, 1000, 2000];
/**
 * Runs of each program at the largest size (best time kept), whose wall-time rows hold targets: one run on a shared
 * 2-core machine varies by 20% and more, and the two interleaved (ours, minimal, minimal, ours) share the drift. The
 * smaller sizes run once: their rows hold no target but the write requests (the same every run), and the time per
 * resource at the largest size against the smallest (target 1.2) stood at 0.65-0.67 in every run so far, a margin
 * beyond one run's spread. Three runs of each size took half of the bench's 15 minutes.
 */
const REPS = 2;
/** Runs at a size: `reps` at the largest, one below it. */
const repsAt = (count: number, sizes: readonly number[], reps: number): number => (count === Math.max(...sizes) ? reps : 1);
const PROVIDERS = ["ours", "minimal"] as const;
type Provider = (typeof PROVIDERS)[number];
type StepKind = "up" | "refresh" | "destroy";
const STEPS: StepKind[] = ["up", "refresh", "destroy"];

interface StepFigures {
  ms: number;
  /** The provider host's peak RSS (VmHWM) during the step, MB. */
  peakMb: number;
  /** CPU time of the step, all processes (StepSampler), ms. */
  cpuMs: number;
  writes: WriteRequest[];
  /** Plan entries of the step (resources it touched). */
  entries: number;
}

// ------------------------------------------------------------------------------------------------ runs

function bundleLocation(bundles: string[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-scale-bundles-"));
  for (const b of bundles) {
    fs.mkdirSync(path.join(dir, b));
    fs.writeFileSync(path.join(dir, b, "bundle.yaml"), `apiVersion: "1"\nid: "${b}"\nversion: "1"\n`);
  }
  return dir;
}

interface Emulated {
  emu: EmulatorProcess;
  oc: { url: string; authorization: string };
  fm: { url: string; authorization: string };
}

/**
 * A fresh emulator holding `count` resources' bundles and controllers, for one run: an assignment has no delete, so
 * a controller keeps its bundle after a destroy, and a second run would take it over without a write.
 */
async function withEmulator<T>(count: number, f: (e: Emulated) => Promise<T>): Promise<T> {
  const objects = emulatorObjects(count);
  const bundlesDir = bundleLocation(objects.bundles);
  const emu = await EmulatorProcess.start({ bundlesDir, controllers: objects.controllers });
  try {
    const { info } = emu;
    return await f({
      emu,
      oc: { url: info.operationsCenterUrl, authorization: emu.adminAuthorization },
      fm: { url: info.featureManagementUrl, authorization: `Bearer ${info.featureManagementToken}` },
    });
  } finally {
    await emu.close();
    fs.rmSync(bundlesDir, { recursive: true, force: true });
  }
}

/** The program of `count` resources through `provider`: up, refresh, destroy, each timed, its host's peak and writes. */
async function runProgram(count: number, provider: Provider): Promise<Record<StepKind, StepFigures>> {
  return withEmulator(count, async ({ emu, oc, fm }) => {
    const { info } = emu;
    const config = {
      ...emu.stackConfig(),
      // The emulator's rate limit is off: nothing to wait for.
      "cloudbees:featureManagementRequestIntervalMs": "0",
      "scale:count": String(count),
      "scale:provider": provider,
    };
    // The machine's own CLOUDBEES_* settings must not leak into the hosts; the minimal provider's connection.
    const env = {
      ...blankCloudbeesEnv(),
      SCALE_OC_URL: oc.url,
      SCALE_OC_AUTHORIZATION: oc.authorization,
      SCALE_FM_URL: fm.url,
      SCALE_FM_AUTHORIZATION: fm.authorization,
    };
    const timeoutMs = Math.max(120_000, count * 300);
    console.error(`scale: ${count} resources, ${provider}`);
    // A new host per step for both providers, as the engine starts one per deployment: the kit's host reuse serves
    // only this package's providers, so ours would carry the step before's heap into the next step's peak (and its
    // warm modules into its time), the minimal provider not.
    const runner = await ProgramRunner.start({ cwd: PROGRAM_DIR, config, env, timeoutMs, callTimeoutMs: timeoutMs, reuseHosts: false });
    const figures = {} as Record<StepKind, StepFigures>;
    try {
      for (const step of STEPS) {
        await emu.clear();
        const sampler = new StepSampler();
        const started = performance.now();
        const plan = step === "up" ? await runner.up() : step === "refresh" ? await runner.refresh() : await runner.destroy();
        const ms = performance.now() - started;
        const { peakMb, cpuMs } = sampler.stop();
        const writes = await emu.ask<WriteRequest[]>({ op: "writes" });
        figures[step] = { ms, peakMb, cpuMs, writes, entries: plan.length };
        console.error(`  ${step}: ${seconds(ms)}, CPU ${seconds(cpuMs)}, host peak ${peakMb.toFixed(0)} MB, ${writes.length} writes, ${plan.length} plan entries`);
        const failed = writes.filter((w) => w.status >= 300);
        if (failed.length > 0) throw new Error(`${provider} ${step}: ${failed.length} writes failed, e.g. ${JSON.stringify(failed[0])}`);
      }
    } finally {
      await runner.close();
    }
    return figures;
  });
}

/** The emulator's own growth: the minimal provider's writes sent directly with undici; the time, and the writes. */
async function runDirect(count: number): Promise<{ ms: number; writes: number }> {
  return withEmulator(count, async ({ emu, oc, fm }) => {
    const started = performance.now();
    await sendDirectly({ count, tag: "direct", oc, fm });
    const ms = performance.now() - started;
    const writes = (await emu.ask<WriteRequest[]>({ op: "writes" })).length;
    console.error(`scale: ${count} resources, direct: ${seconds(ms)}, ${writes} writes`);
    return { ms, writes };
  });
}

/**
 * One size, `reps` times: ours and minimal interleaved (ours, minimal, then minimal, ours, ...: the machine's load
 * and its drift fall on both alike), each step's best time of the reps and its highest host peak; then the writes
 * sent directly, best of `directReps` (a second or a few each: once was too few on a busy machine, where one run at
 * 500 and one at 2,000 gave 1.26 against the target of 1.2; the best of three gave 0.38 on 2026-11-25).
 */
async function runSize(count: number, reps: number, directReps: number): Promise<{ figures: Record<Provider, Record<StepKind, StepFigures>>; directMs: number; directWrites: number }> {
  const runs: Record<Provider, Array<Record<StepKind, StepFigures>>> = { ours: [], minimal: [] };
  for (let rep = 0; rep < reps; rep++) {
    for (const provider of rep % 2 === 0 ? PROVIDERS : [...PROVIDERS].reverse()) runs[provider].push(await runProgram(count, provider));
  }
  const figures = {} as Record<Provider, Record<StepKind, StepFigures>>;
  for (const provider of PROVIDERS) {
    figures[provider] = {} as Record<StepKind, StepFigures>;
    for (const step of STEPS) {
      const all = runs[provider].map((r) => r[step]);
      const best = all.reduce((a, b) => (b.ms < a.ms ? b : a));
      figures[provider][step] = { ...best, peakMb: Math.max(...all.map((f) => f.peakMb)), cpuMs: Math.min(...all.map((f) => f.cpuMs)) };
    }
  }
  const directs: Array<{ ms: number; writes: number }> = [];
  for (let rep = 0; rep < directReps; rep++) directs.push(await runDirect(count));
  return { figures, directMs: Math.min(...directs.map((d) => d.ms)), directWrites: directs[0]!.writes };
}

/** A JSON text with every object's members in one order: JSON does not order them (RFC 8259 section 4). */
function membersSorted(text: string): string {
  const sorted = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(sorted) : v !== null && typeof v === "object" ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, x]) => [k, sorted(x)])) : v;
  try {
    return JSON.stringify(sorted(JSON.parse(text)));
  } catch {
    return text;
  }
}

/**
 * A write as compared between ours and the minimal provider: all of it but the application's id and name, a JSON
 * body by its members whatever their order (both send X3's experiments the same way, bench/programs/scale/minimal.ts).
 */
function shapeOf(w: WriteRequest): string {
  const query = Object.entries(w.query).sort(([a], [b]) => a.localeCompare(b));
  const body = membersSorted(w.body).replace(/"applicationName":"[^"]*"/, '"applicationName":"…"');
  return `${w.method} ${w.path.replace(/\/applications\/[^/]+/, "/applications/{id}")} ${JSON.stringify(query)} ${body}`;
}

function shapes(writes: WriteRequest[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const w of writes) m.set(shapeOf(w), (m.get(shapeOf(w)) ?? 0) + 1);
  return m;
}

/**
 * The section's rows: per size, the write requests of ours and the minimal provider (the same, from the emulator's
 * journal), up / refresh / destroy wall time (best of `reps` at the largest size) and the host's peak RSS beside the
 * minimal provider's; then the time per resource at each size against the first, for ours, the stand-in and the
 * emulator.
 */
export async function scaleRows(sizes: number[] = SIZES, reps = REPS): Promise<void> {
  const results = new Map<number, Awaited<ReturnType<typeof runSize>>>();
  // The direct writes' rows with a target compare the largest size with the smallest: three runs at each of them.
  const directRepsAt = (count: number) => (count === Math.min(...sizes) || count === Math.max(...sizes) ? 3 : 1);
  for (const count of sizes) results.set(count, await runSize(count, repsAt(count, sizes, reps), directRepsAt(count)));

  const base = sizes[0]!;
  const largest = sizes[sizes.length - 1]!;
  for (const count of sizes) {
    const { figures } = results.get(count)!;
    const ours = figures.ours;
    const minimal = figures.minimal;
    const label = `scale ${count}`;
    const writesOf = (p: Provider) => STEPS.flatMap((s) => figures[p][s].writes);
    const o = shapes(writesOf("ours"));
    const m = shapes(writesOf("minimal"));
    const same = o.size === m.size && [...o].every(([k, n]) => m.get(k) === n);
    const total = (p: Provider) => writesOf(p).length;
    row(`${label}: write requests, up + refresh + destroy`, String(total("ours")), `${total("minimal")} (minimal provider)`, total("ours") / total("minimal"), {
      text: "the same requests (method, path, query, body)",
      met: same,
    });
    if (!same) console.error(`  differ: ${[...new Set([...o.keys(), ...m.keys()])].filter((k) => o.get(k) !== m.get(k)).slice(0, 5).join("\n  ")}`);
    for (const step of STEPS) {
      const r = ours[step].ms / minimal[step].ms;
      const target = count === largest ? { text: "<= 1.3", met: r <= 1.3 } : undefined;
      row(`${label}: ${step} wall time (best of ${repsAt(count, sizes, reps)})`, seconds(ours[step].ms), `${seconds(minimal[step].ms)} (minimal provider)`, r, target);
    }
    const peak = (p: Provider) => Math.max(...STEPS.map((s) => figures[p][s].peakMb));
    const rm = peak("ours") / peak("minimal");
    row(
      `${label}: host peak RSS (VmHWM), up / refresh / destroy`,
      STEPS.map((s) => ours[s].peakMb.toFixed(0)).join(" / ") + " MB",
      STEPS.map((s) => minimal[s].peakMb.toFixed(0)).join(" / ") + " MB (minimal provider)",
      rm,
      count === largest ? { text: "<= 1.3 (the highest)", met: rm <= 1.3 } : undefined,
    );
    const cpu = (p: Provider) => STEPS.reduce((sum, s) => sum + figures[p][s].cpuMs, 0);
    row(
      `${label}: CPU time of all processes, up / refresh / destroy (least of ${repsAt(count, sizes, reps)})`,
      STEPS.map((s) => seconds(ours[s].cpuMs)).join(" / "),
      `${STEPS.map((s) => seconds(minimal[s].cpuMs)).join(" / ")} (minimal provider)`,
      cpu("ours") / cpu("minimal"),
    );
  }
  // Time per resource, each size against the first.
  const perResource = (count: number, p: Provider | "direct") => {
    const r = results.get(count)!;
    const ms = p === "direct" ? r.directMs : STEPS.reduce((sum, s) => sum + r.figures[p][s].ms, 0);
    return ms / count;
  };
  for (const p of ["ours", "minimal", "direct"] as const) {
    const what = p === "ours" ? "our provider" : p === "minimal" ? "the engine stand-in (minimal provider)" : "the emulator (the same writes sent directly)";
    for (const count of sizes.slice(1)) {
      const r = perResource(count, p) / perResource(base, p);
      row(
        `scale: time per resource at ${count} against ${base}, ${what}${p === "direct" ? "" : ", up + refresh + destroy"}`,
        `${perResource(count, p).toFixed(2)} ms`,
        `${perResource(base, p).toFixed(2)} ms (at ${base})`,
        r,
        count === largest ? { text: "<= 1.2", met: r <= 1.2 } : undefined,
      );
    }
    // The time per resource includes each step's fixed costs (a host, a program process, the first calls), which
    // hide a growing cost at these sizes: the cost of each resource added, between the sizes, shows it. (Not for the
    // direct writes: they take under a second at these sizes, and the difference of two such times is noise.)
    if (sizes.length >= 3 && p !== "direct") {
      const [a, b, c] = sizes.slice(-3) as [number, number, number];
      const total = (count: number) => perResource(count, p) * count;
      const low = (total(b) - total(a)) / (b - a);
      const high = (total(c) - total(b)) / (c - b);
      row(`scale: time per resource added from ${b} to ${c} against from ${a} to ${b}, ${what}`, `${high.toFixed(2)} ms`, `${low.toFixed(2)} ms (from ${a} to ${b})`, high / low);
    }
  }
  // The same in CPU time, which the machine's other load does not move.
  const cpuPerResource = (count: number, p: Provider) => STEPS.reduce((sum, s) => sum + results.get(count)!.figures[p][s].cpuMs, 0) / count;
  for (const p of PROVIDERS) {
    const what = p === "ours" ? "our provider" : "the engine stand-in (minimal provider)";
    for (const count of sizes.slice(1)) {
      row(
        `scale: CPU time per resource at ${count} against ${base}, ${what}, up + refresh + destroy`,
        `${cpuPerResource(count, p).toFixed(2)} ms`,
        `${cpuPerResource(base, p).toFixed(2)} ms (at ${base})`,
        cpuPerResource(count, p) / cpuPerResource(base, p),
      );
    }
    if (sizes.length >= 3) {
      const [a, b, c] = sizes.slice(-3) as [number, number, number];
      const total = (count: number) => cpuPerResource(count, p) * count;
      const low = (total(b) - total(a)) / (b - a);
      const high = (total(c) - total(b)) / (c - b);
      row(`scale: CPU time per resource added from ${b} to ${c} against from ${a} to ${b}, ${what}`, `${high.toFixed(2)} ms`, `${low.toFixed(2)} ms (from ${a} to ${b})`, high / low);
    }
  }
}

if (require.main === module) {
  const started = performance.now();
  const args = process.argv.slice(2);
  const repsAt = args.indexOf("--reps");
  const reps = repsAt >= 0 ? Number(args.splice(repsAt, 2)[1]) : REPS;
  const sizes = args.map(Number).filter((n) => n > 0);
  const load = os.loadavg().map((l) => l.toFixed(1)).join(" ");
  scaleRows(sizes.length > 0 ? sizes : SIZES, reps)
    .then(() => {
      const { text, missed } = table();
      console.log(`Measured ${new Date().toISOString().slice(0, 16)}Z on ${os.cpus().length} cores, Node ${process.version}, load average ${load} at start, ${os.loadavg().map((l) => l.toFixed(1)).join(" ")} at the end; ${seconds(performance.now() - started)}.\n`);
      console.log(text);
      if (missed.length > 0) process.exitCode = 1;
    })
    .catch((e: unknown) => {
      console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
      process.exit(1);
    });
}
