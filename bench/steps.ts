/** The bench's steps: timed, and run as the engine runs them (at most `parallel` at once). */
import { performance } from "node:perf_hooks";

export async function timed<T>(f: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const result = await f();
  return [result, performance.now() - start];
}

/** The engine's parallelism: at most `parallel` steps in flight (0: all at once). */
export async function wave<T>(items: T[], step: (item: T) => Promise<unknown>, parallel = 0): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: parallel === 0 ? queue.length : parallel }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await step(item);
    }),
  );
}
