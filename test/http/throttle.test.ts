import { throttled } from "../../provider/http/throttle";

// On jest's fake clock: the spacing is checked against simulated time, never the wall clock.
describe("throttle", () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => jest.useRealTimers());

  it("starts each task only after the previous one finished plus the interval, even when called together", async () => {
    const key = `test-${Math.random()}`;
    const starts: number[] = [];
    const task = async () => {
      starts.push(Date.now() - 1_000_000);
      await new Promise((resolve) => setTimeout(resolve, 20)); // the request takes 20 ms
    };
    const all = Promise.all([throttled(key, 100, task), throttled(key, 100, task), throttled(key, 100, task)]);
    await jest.advanceTimersByTimeAsync(0);
    expect(starts).toEqual([0]);
    // The second starts 100 ms after the first finished (at 20), not 100 ms after it started.
    await jest.advanceTimersByTimeAsync(119);
    expect(starts).toEqual([0]);
    await jest.advanceTimersByTimeAsync(1);
    expect(starts).toEqual([0, 120]);
    await jest.advanceTimersByTimeAsync(120);
    expect(starts).toEqual([0, 120, 240]);
    await jest.advanceTimersByTimeAsync(20);
    await all;
  });

  it("releases the gate when a task fails", async () => {
    const key = `test-${Math.random()}`;
    await expect(throttled(key, 10, async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    const next = throttled(key, 10, async () => 42);
    await jest.advanceTimersByTimeAsync(10);
    await expect(next).resolves.toBe(42);
  });

  it("shares one gate per key across the process (through globalThis), so separate clients queue together", async () => {
    const key = `test-${Math.random()}`;
    const registry = (globalThis as unknown as Record<symbol, Map<string, unknown>>)[Symbol.for("pulumi-cloudbees.throttle-gates")];
    await throttled(key, 10, async () => undefined);
    expect(registry.has(key)).toBe(true);
  });
});
