// Client options for tests: short backoff so that retries cost milliseconds, a short deadline, and (where the
// emulator's rate limit is off) no throttle. Tests never assert wall-clock times.
export const FAST = { retryBaseDelayMs: 5, maxRetryDelayMs: 2000, timeoutMs: 3000 } as const;
