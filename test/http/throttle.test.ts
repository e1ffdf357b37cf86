import { throttled } from "../../provider/http/throttle";

describe("throttle", () => {
  it("starts each task only after the previous one finished plus the interval, even when called together", async () => {
    const key = `test-${Math.random()}`;
    const log: Array<{ start: number; end: number }> = [];
    const task = async () => {
      const start = Date.now();
      await new Promise((r) => setTimeout(r, 20));
      log.push({ start, end: Date.now() });
    };
    await Promise.all([throttled(key, 100, task), throttled(key, 100, task), throttled(key, 100, task)]);
    expect(log).toHaveLength(3);
    for (let i = 1; i < log.length; i++) {
      expect(log[i].start - log[i - 1].end).toBeGreaterThanOrEqual(100);
    }
  });

  it("releases the gate when a task fails", async () => {
    const key = `test-${Math.random()}`;
    await expect(throttled(key, 10, async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(throttled(key, 10, async () => 42)).resolves.toBe(42);
  });

  it("keeps one gate per key for the whole process (shared through globalThis)", async () => {
    const registry = (globalThis as unknown as Record<symbol, Map<string, unknown>>)[Symbol.for("pulumi-cloudbees.throttle-gates")];
    expect(registry).toBeInstanceOf(Map);
  });
});
