/**
 * Stacks that survive a passing fault: a check that failed only for reasons that may pass (a 5xx or a rate limit from
 * a service, a connection reset or refused, the CLI's own transient errors) is run again, up to `--retries` times,
 * after a pause that doubles each time (`--retry-pause`). A check that failed for any other reason (the program, its
 * arguments, a credential refused, a provider that cannot start, a deadline) is not: running it again would answer
 * the same, later.
 */

/**
 * What may pass, in the words that reach a check's errors:
 * - our providers' (provider/http/http-client.ts): `server error (5xx)`, `rate limited (429|555)`, `network failure
 *   ...` (but not a host name that does not resolve, nor a certificate refused: those are the configuration's), and
 *   `no complete response within N ms`;
 * - the Pulumi CLI's: a backend's `[5xx] ...` and `[429] ...` (apitype's ErrorResponse), Go's network errors, and a
 *   plugin's gRPC connection lost (`code = Unavailable`, `transport is closing`).
 */
const PASSING: RegExp[] = [
  /\bserver error \(5\d\d\)/,
  /\brate limited \((?:429|555)\)/,
  /\bnetwork failure(?! (?:ENOTFOUND|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|ERR_TLS_|ERR_SSL_|ERR_INVALID_))/,
  /\bno complete response within \d+ ms\b/,
  /\[(?:5\d\d|429)\] /,
  /connection reset by peer|connection refused|broken pipe|i\/o timeout|TLS handshake timeout|unexpected EOF|transport is closing|code = Unavailable/i,
];

/** Lines that say nothing of why on their own (the engine's closing words, a CLI's `error:` prefix alone). */
const NO_REASON = /^(?:error: )?(?:(?:update|preview|refresh) failed|no changes were expected.*)\s*$/i;

/**
 * Whether a failed check may pass if run again: it said why, and every reason it gave is one that may pass. A
 * reason is a line of `reasons` (the engine's errors, else the program's, else the CLI's `error:` lines).
 */
export function mayPass(reasons: string[]): boolean {
  const said = reasons.flatMap((r) => r.split("\n")).map((l) => l.trim()).filter((l) => l && !NO_REASON.test(l));
  return said.length > 0 && said.every((l) => PASSING.some((p) => p.test(l)));
}

/** The CLI's own `error: ...` lines of an output, for a check that failed before the engine said anything. */
export function cliErrorLines(output: string): string[] {
  return output.split("\n").filter((l) => /^error: /.test(l.trim())).map((l) => l.trim());
}

export interface RetryOptions {
  /** Checks run again at most this many times (0: never). */
  retries: number;
  /** Pause before the first retry; each next one waits twice as long. */
  pauseMs: number;
  sleep?: (ms: number) => Promise<void>;
}

/** One try's outcome: its result, and whether it failed only for reasons that may pass. */
export interface Try<R> {
  result: R;
  passing: boolean;
}

/** Runs `check` until it does not fail for a passing reason or the retries are spent; the last result, and the tries. */
export async function withRetries<R>(check: () => Promise<Try<R>>, o: RetryOptions): Promise<{ result: R; tries: number }> {
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  for (let tries = 1; ; tries++) {
    const { result, passing } = await check();
    if (!passing || tries > o.retries) return { result, tries };
    await sleep(o.pauseMs * 2 ** (tries - 1));
  }
}
