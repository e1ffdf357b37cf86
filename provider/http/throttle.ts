/**
 * Keeps requests to one service at most one per interval, per process. The feature-flag API allows one request per
 * second per client IP and answers 555 beyond it.
 *
 * Spacing is measured from the end of one request to the start of the next: the server counts arrivals, and
 * only "previous response received" proves the previous request has arrived. Requests therefore run one at a
 * time, which costs nothing at one per second.
 *
 * The registry lives on globalThis (created on first use), not at module scope: every client in the process,
 * however many copies of this module were loaded, shares one gate per origin, and nothing here is captured when
 * a Pulumi provider is serialized.
 */

interface Gate {
  /** Resolves when the previous holder has finished and the interval has passed. */
  tail: Promise<void>;
  lastFinishedAt: number;
}

const REGISTRY_KEY = Symbol.for("pulumi-cloudbees.throttle-gates");

function gates(): Map<string, Gate> {
  const holder = globalThis as unknown as Record<symbol, Map<string, Gate> | undefined>;
  return (holder[REGISTRY_KEY] ??= new Map());
}

/** Runs `task` when the gate of `key` allows it, and holds the gate until the task settles. */
export async function throttled<T>(key: string, intervalMs: number, task: () => Promise<T>): Promise<T> {
  const registry = gates();
  let gate = registry.get(key);
  if (!gate) {
    gate = { tail: Promise.resolve(), lastFinishedAt: 0 };
    registry.set(key, gate);
  }
  const g = gate;
  let release!: () => void;
  const previous = g.tail;
  g.tail = new Promise<void>((resolve) => (release = resolve));
  await previous;
  // A loop, because timers may fire a millisecond early.
  for (let wait = g.lastFinishedAt + intervalMs - Date.now(); wait > 0; wait = g.lastFinishedAt + intervalMs - Date.now()) {
    await sleep(wait);
  }
  try {
    return await task();
  } finally {
    g.lastFinishedAt = Date.now();
    release();
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
