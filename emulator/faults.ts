import type { FaultSpec, Faults } from "./types";

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
  if (spec.delayMs !== undefined && !(Number.isFinite(spec.delayMs) && spec.delayMs >= 0)) {
    throw new Error(`fault delayMs must be a non-negative number: ${spec.delayMs}`);
  }
}

/** Faults apply in injection order; each is used up after `times` matching requests. */
export class FaultInjector implements Faults {
  private active: ActiveFault[] = [];

  inject(spec: FaultSpec): void {
    checkSpec(spec);
    this.active.push({ spec: { ...spec, headers: spec.headers && { ...spec.headers } }, remaining: spec.times ?? 1 });
  }

  clear(): void {
    this.active = [];
  }

  pending(): (FaultSpec & { remaining: number })[] {
    return this.active.map((f) => ({ ...f.spec, remaining: f.remaining }));
  }

  /** Consumes one use of the first fault matching this request, if any. */
  take(method: string, path: string): FaultSpec | undefined {
    const found = this.active.find(
      (f) => f.spec.path === path && (f.spec.method === undefined || f.spec.method.toUpperCase() === method.toUpperCase()),
    );
    if (!found) return undefined;
    found.remaining -= 1;
    if (found.remaining <= 0) this.active = this.active.filter((f) => f !== found);
    return found.spec;
  }
}
