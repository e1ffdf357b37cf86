/**
 * The scale section's measure of a step (bench/scale.ts): the provider hosts' peak RSS and the CPU time of every
 * process under the bench, read from /proc. cpuMsOf serves the controllers section too.
 */
import * as fs from "node:fs";

/**
 * What is known of each live process: its parent, and whether its command line names the dynamic-provider host
 * (neither changes for a pid's life; a pid leaves this map when it leaves /proc). Each sample then reads /proc's
 * listing and only the new pids.
 */
const seen = new Map<number, { parent: number; host: boolean }>();

/** This process's descendants (the emulator, program processes, provider hosts), each with whether it is a host. */
function descendants(): Array<{ pid: number; host: boolean }> {
  const pids = fs.readdirSync("/proc").map(Number).filter(Number.isInteger);
  const alive = new Set(pids);
  for (const pid of seen.keys()) if (!alive.has(pid)) seen.delete(pid);
  for (const pid of pids) {
    if (seen.has(pid)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      // The command name (in parentheses) may hold spaces: the fields after its closing parenthesis.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      seen.set(pid, { parent: Number(fields[1]), host: fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("dynamic-provider") });
    } catch {
      // gone meanwhile
    }
  }
  const descends = (pid: number) => {
    for (let p = seen.get(pid)?.parent; p !== undefined && p > 1; p = seen.get(p)?.parent) if (p === process.pid) return true;
    return false;
  };
  return [...seen].filter(([pid]) => descends(pid)).map(([pid, known]) => ({ pid, host: known.host }));
}

/** CPU time (user + system) a process has used, ms; undefined once it is gone. */
export function cpuMsOf(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime, in clock ticks (USER_HZ: 100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

function peakMbOf(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Samples this process's descendants every 100 ms while a step runs: the provider hosts' VmHWM (the highest of any
 * host seen), and the CPU time of the step: this process's (the engine stand-in) and its descendants' (the program
 * process, the hosts, the host booted ahead for the next step, the emulator) since the step started, or since they
 * did. A process that ends during the step loses at most its last 100 ms. Unlike wall time, CPU time does not depend
 * on what else the machine runs.
 */
export class StepSampler {
  private peak = 0;
  private readonly cpuStart = new Map<number, number>();
  private readonly cpuLast = new Map<number, number>();
  private readonly self = process.cpuUsage();
  private readonly timer: NodeJS.Timeout;
  constructor() {
    for (const { pid } of descendants()) {
      const cpu = cpuMsOf(pid);
      if (cpu !== undefined) this.cpuStart.set(pid, cpu);
    }
    this.timer = setInterval(() => this.sample(), 100);
  }
  private sample(): void {
    for (const { pid, host } of descendants()) {
      if (host) this.peak = Math.max(this.peak, peakMbOf(pid));
      const cpu = cpuMsOf(pid);
      if (cpu === undefined) continue;
      if (!this.cpuStart.has(pid)) this.cpuStart.set(pid, 0); // born during the step
      this.cpuLast.set(pid, cpu);
    }
  }
  /** The hosts' peak RSS (MB) and the CPU time of the step (ms). */
  stop(): { peakMb: number; cpuMs: number } {
    this.sample();
    clearInterval(this.timer);
    const own = process.cpuUsage(this.self);
    let cpuMs = (own.user + own.system) / 1000;
    for (const [pid, last] of this.cpuLast) cpuMs += last - (this.cpuStart.get(pid) ?? last);
    return { peakMb: this.peak, cpuMs };
  }
}
