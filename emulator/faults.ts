import type { FaultSpec, Faults, RandomFaultKind, RandomFaults } from "./types";

const ALL_KINDS: RandomFaultKind[] = ["500", "503", "429", "555", "drop", "drop after acting", "slow answer"];

/** A fault as applied, with the label the journal records. */
export type AppliedFault = FaultSpec & { label: string };

interface ActiveFault {
  spec: FaultSpec;
  remaining: number;
}

function checkSpec(spec: FaultSpec): void {
  if (typeof spec.path !== "string" || !spec.path.startsWith("/")) {
    throw new Error(`fault path must be a pathname starting with '/': ${String(spec.path)}`);
  }
  if (spec.path.includes("?")) throw new Error("fault path must not carry a query (matching ignores it)");
  const times = spec.times ?? 1;
  if (!(times === Infinity || (Number.isInteger(times) && times > 0))) {
    throw new Error(`fault times must be a positive integer or Infinity: ${times}`);
  }
  if (spec.status !== undefined && !(Number.isInteger(spec.status) && spec.status >= 100 && spec.status <= 999)) {
    throw new Error(`fault status must be an HTTP status code: ${spec.status}`);
  }
  for (const key of ["delayMs", "answerDelayMs"] as const) {
    const v = spec[key];
    if (v !== undefined && !(Number.isFinite(v) && v >= 0)) throw new Error(`fault ${key} must be a non-negative number: ${v}`);
  }
}

/** Faults apply in injection order; each is used up after `times` matching requests. */
export class FaultInjector implements Faults {
  private active: ActiveFault[] = [];
  private randomFaults: { options: RandomFaults; kinds: RandomFaultKind[]; next: () => number } | undefined;

  random(options: RandomFaults | null): void {
    if (options === null) {
      this.randomFaults = undefined;
      return;
    }
    if (!(options.rate >= 0 && options.rate <= 1)) throw new Error(`random fault rate must be between 0 and 1: ${options.rate}`);
    const kinds = options.kinds ?? ALL_KINDS;
    if (kinds.length === 0 || kinds.some((k) => !ALL_KINDS.includes(k))) throw new Error(`random fault kinds must be some of ${ALL_KINDS.join(", ")}`);
    this.randomFaults = { options, kinds, next: mulberry32(options.seed) };
  }

  inject(spec: FaultSpec): void {
    checkSpec(spec);
    this.active.push({ spec: { ...spec, headers: spec.headers && { ...spec.headers } }, remaining: spec.times ?? 1 });
  }

  clear(): void {
    this.active = [];
    this.randomFaults = undefined;
  }

  pending(): (FaultSpec & { remaining: number })[] {
    return this.active.map((f) => ({ ...f.spec, remaining: f.remaining }));
  }

  /** Consumes one use of the first fault matching this request, if any; else draws a random one, if on. */
  take(method: string, path: string, featureManagement = false): AppliedFault | undefined {
    const found = this.active.find(
      (f) => f.spec.path === path && (f.spec.method === undefined || f.spec.method.toUpperCase() === method.toUpperCase()),
    );
    if (!found) return this.draw(path, featureManagement);
    found.remaining -= 1;
    if (found.remaining <= 0) this.active = this.active.filter((f) => f !== found);
    return { ...found.spec, label: labelOf(found.spec) };
  }

  private draw(path: string, featureManagement: boolean): AppliedFault | undefined {
    const r = this.randomFaults;
    if (!r || r.next() >= r.options.rate) return undefined;
    const kinds = featureManagement ? r.kinds : r.kinds.filter((k) => k !== "555");
    if (kinds.length === 0) return undefined;
    const kind = kinds[Math.floor(r.next() * kinds.length)]!;
    const headers = { "retry-after": r.options.retryAfter ?? "0" };
    switch (kind) {
      case "drop":
        return { path, drop: true, label: kind };
      case "drop after acting":
        return { path, dropAfterHandling: true, label: kind };
      case "slow answer":
        return { path, answerDelayMs: r.options.slowAnswerMs ?? 2000, label: kind };
      case "500":
        return { path, status: 500, label: "status 500" };
      default:
        return { path, status: Number(kind), headers, label: `status ${kind}` };
    }
  }
}

function labelOf(spec: FaultSpec): string {
  if (spec.drop) return "drop";
  if (spec.dropAfterHandling) return "drop after acting";
  if (spec.status !== undefined) return `status ${spec.status}`;
  if (spec.answerDelayMs) return "slow answer";
  return "delay";
}

/** A small seeded pseudo-random generator (mulberry32): numbers in [0, 1). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
