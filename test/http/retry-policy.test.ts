import { isRetryableNetworkFailure, isRetryableStatus, parseRetryAfter, retryDelayMs } from "../../provider/http/retry-policy";

const tuning = { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 1000 };

describe("retry policy", () => {
  it("retries 5xx only for safe requests, and rate limits (429, 555) always", () => {
    expect(isRetryableStatus(500, "safe")).toBe(true);
    expect(isRetryableStatus(503, "safe")).toBe(true);
    expect(isRetryableStatus(500, "unsafe")).toBe(false);
    expect(isRetryableStatus(555, "unsafe")).toBe(true);
    expect(isRetryableStatus(429, "unsafe")).toBe(true);
    expect(isRetryableStatus(404, "safe")).toBe(false);
    expect(isRetryableStatus(401, "safe")).toBe(false);
  });

  it("retries an unsafe request only when the connection proves it was never sent", () => {
    expect(isRetryableNetworkFailure("UND_ERR_SOCKET", "unsafe")).toBe(false);
    expect(isRetryableNetworkFailure(undefined, "unsafe")).toBe(false);
    expect(isRetryableNetworkFailure("ECONNREFUSED", "unsafe")).toBe(true);
    expect(isRetryableNetworkFailure("UND_ERR_SOCKET", "safe")).toBe(true);
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    expect(parseRetryAfter("2")).toBe(2000);
    expect(parseRetryAfter("0.5")).toBe(500);
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:03 GMT", now)).toBe(3000);
    expect(parseRetryAfter("soon")).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });

  it("backs off exponentially with at most 25% jitter, capped", () => {
    for (let i = 0; i < 50; i++) {
      const d0 = retryDelayMs(0, tuning)!;
      const d2 = retryDelayMs(2, tuning)!;
      const d9 = retryDelayMs(9, tuning)!;
      expect(d0).toBeGreaterThanOrEqual(75);
      expect(d0).toBeLessThanOrEqual(100);
      expect(d2).toBeGreaterThanOrEqual(300);
      expect(d2).toBeLessThanOrEqual(400);
      expect(d9).toBeLessThanOrEqual(1000);
      expect(d9).toBeGreaterThanOrEqual(750);
    }
  });

  it("honours Retry-After up to the cap, and gives up beyond it", () => {
    expect(retryDelayMs(0, tuning, 700)).toBe(700);
    expect(retryDelayMs(0, tuning, 5000)).toBeUndefined();
  });
});
