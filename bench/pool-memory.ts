/**
 * A pool of checks run as one child process (the drift command, or a shell loop), its workers' memory sampled from
 * /proc (bench/drift-estate.ts): each worker, a child of the pool's process, keeps its own peak.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { performance } from "node:perf_hooks";

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

/** One worker's (one stack's check's) peak: the largest sum of its processes' PSS sampled, and their shares then. */
export interface WorkerPeak {
  mb: number;
  parts: string[];
  /** Its stack is a YAML one (from the folder the worker runs in). */
  yaml: boolean;
}

export interface PoolRun {
  wallMs: number;
  /** Each worker's own peak, in the order the workers started. */
  workers: WorkerPeak[];
  /** The pool's own process (the command; xargs for the loop): its peak resident memory (VmHWM). */
  poolPeakMb: number;
  code: number | null;
}

/** The stack folder a worker runs in (the loop's `sh` after its `cd`, the command's `pulumi`), or undefined while unknown. */
function workerFolder(pid: number): string | undefined {
  try {
    return path.basename(fs.readlinkSync(`/proc/${pid}/cwd`));
  } catch {
    return undefined;
  }
}

/**
 * Runs a pool of stacks' checks as a child process, its memory sampled every quarter second (both pools alike, so
 * the sampling's own cost is in both wall times): each worker is a child of the pool's process, and keeps its own
 * peak, so that pools are compared by their workers' peaks (a distribution), not only by the one largest sample.
 */
export async function runPool(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, yamlFolder: (folder: string) => boolean | undefined, input?: string): Promise<PoolRun> {
  const started = performance.now();
  const child = spawn(command, args, { cwd, env, stdio: [input === undefined ? "ignore" : "pipe", "ignore", "inherit"] });
  if (input !== undefined) child.stdin!.end(input);
  const workers = new Map<number, WorkerPeak>();
  let poolPeakMb = 0;
  const sample = setInterval(() => {
    for (const [pid, { mb, parts }] of workerMemory(child.pid!)) {
      const folder = workerFolder(pid);
      const yaml = folder === undefined ? undefined : yamlFolder(folder);
      if (yaml === undefined) continue;
      const seen = workers.get(pid);
      if (!seen || mb > seen.mb) workers.set(pid, { mb, parts, yaml });
    }
    try {
      poolPeakMb = Math.max(poolPeakMb, Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, "utf8"))![1]) / 1024);
    } catch {
      // ended
    }
  }, 250);
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  clearInterval(sample);
  return { wallMs: performance.now() - started, workers: [...workers.values()], poolPeakMb, code };
}

