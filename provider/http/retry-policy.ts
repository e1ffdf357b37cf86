/**
 * When and how long to wait before trying a request again: exponential backoff with jitter, honouring
 * `Retry-After`, as openai-node and octokit do.
 */

/**
 * `safe`: repeating it changes nothing (GETs, the CasC "set", validate and export calls), or nothing the caller
 * minds (regenerate-token: another fresh token): retried on network errors, timeouts, 5xx, 429 and 555.
 * `unsafe`: repeating it could do the work twice (create application, create-items, reload-bundle): retried only
 * when the server provably did not act on it: a refused connection, or a 429/555 rate-limit refusal. Callers
 * reconcile the other failures (outcomeUnknown in errors.ts) by reading what the server holds.
 */
export type Idempotency = "safe" | "unsafe";

export interface RetryTuning {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

const RATE_LIMIT_STATUSES = new Set([429, 555]);

export function isRetryableStatus(status: number, idempotency: Idempotency): boolean {
  if (RATE_LIMIT_STATUSES.has(status)) return true;
  return idempotency === "safe" && status >= 500;
}

/** Connection errors that prove the request never reached the server. */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "UND_ERR_CONNECT_TIMEOUT"]);

/**
 * Whether the server may have carried out a request that failed: no whole answer arrived (a timeout, a connection
 * broken after sending), a 5xx (the server may have acted before failing), or a 2xx whose body could not be read.
 * A refused connection, a 4xx, a 429/555 or a check made before sending prove it did not.
 */
export function mayHaveActed(failure: { status?: number; code?: string; kind: "timeout" | "network" | "status" | "unreadable" | "other" }): boolean {
  if (failure.kind === "timeout" || failure.kind === "unreadable") return true;
  if (failure.kind === "network") return failure.code === undefined || !NOT_SENT_CODES.has(failure.code);
  if (failure.kind === "status") return failure.status !== undefined && failure.status >= 500 && failure.status !== 555;
  return false;
}

export function isRetryableNetworkFailure(code: string | undefined, idempotency: Idempotency): boolean {
  return idempotency === "safe" || (code !== undefined && NOT_SENT_CODES.has(code));
}

/** `Retry-After` as delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The wait before retry number `attempt` (0-based): the server's Retry-After when it gave one, otherwise
 * base * 2^attempt capped at maxDelayMs, less up to 25% of jitter so that many clients do not retry in step.
 * Returns undefined when the server asks for longer than maxDelayMs: better to fail now and say so.
 */
export function retryDelayMs(attempt: number, tuning: RetryTuning, retryAfterMs?: number): number | undefined {
  if (retryAfterMs !== undefined) return retryAfterMs <= tuning.maxDelayMs ? retryAfterMs : undefined;
  const exponential = Math.min(tuning.maxDelayMs, tuning.baseDelayMs * 2 ** attempt);
  return Math.round(exponential * (1 - Math.random() * 0.25));
}
