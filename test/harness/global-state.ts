/**
 * Runs `body` and then removes every property it added to the process's global object.
 *
 * jest's globalSetup runs in jest's own process, and when jest runs test files in that process (`--runInBand`, or a
 * run it judges small enough), each file's environment sees that process's globals. @pulumi/pulumi keeps its runtime
 * state there (`globalStore`, `asyncLocalStorage`): serializing the provider texts in globalSetup would otherwise
 * hand every file the state of the last `setMocks`, and a file that does not mock would find itself mocking.
 */
export async function withoutNewGlobals<T>(body: () => Promise<T>): Promise<T> {
  const before = new Set(Object.getOwnPropertyNames(globalThis));
  try {
    return await body();
  } finally {
    for (const name of Object.getOwnPropertyNames(globalThis)) {
      if (!before.has(name)) delete (globalThis as Record<string, unknown>)[name];
    }
  }
}
