/** Network and retry options shared by every client. All are optional. */
export interface HttpOptions {
  /** Deadline of each attempt, from sending to the last byte of the body. Default 30 000 ms. */
  timeoutMs?: number;
  /** Retries after the first attempt, for failures that are safe to retry. Default 3. */
  maxRetries?: number;
  /** First backoff delay; doubles each retry, with jitter. Default 500 ms. */
  retryBaseDelayMs?: number;
  /** Longest wait between attempts; a Retry-After beyond it fails at once. Default 30 000 ms. */
  maxRetryDelayMs?: number;
  /** PEM text of the CA certificate(s) to trust, for servers behind a private CA. */
  caCertificate?: string;
  /** Skip TLS certificate verification. Only for test installations: it allows a man in the middle. */
  insecureSkipTlsVerify?: boolean;
  /** Allow plain http:// to a non-loopback host (credentials then travel in clear). */
  allowInsecureHttp?: boolean;
  /** Value of the user-agent header. */
  userAgent?: string;
  /** Longest response body read; a longer one fails with ResponseTooLargeError. Default 256 MiB. */
  maxResponseBytes?: number;
}

export interface ResolvedHttpOptions {
  timeoutMs: number;
  maxRetries: number;
  retryBaseDelayMs: number;
  maxRetryDelayMs: number;
  caCertificate?: string;
  insecureSkipTlsVerify: boolean;
  allowInsecureHttp: boolean;
  userAgent: string;
  maxResponseBytes: number;
}

/** Generous: the largest answers are bundle and configuration zips, a few MB even for big installations. */
export const DEFAULT_MAX_RESPONSE_BYTES = 256 * 1024 * 1024;

export function resolveHttpOptions(options: HttpOptions): ResolvedHttpOptions {
  return {
    timeoutMs: positive(options.timeoutMs, 30_000),
    maxRetries: Math.max(0, Math.floor(options.maxRetries ?? 3)),
    retryBaseDelayMs: positive(options.retryBaseDelayMs, 500),
    maxRetryDelayMs: positive(options.maxRetryDelayMs, 30_000),
    caCertificate: options.caCertificate || undefined,
    insecureSkipTlsVerify: options.insecureSkipTlsVerify ?? false,
    allowInsecureHttp: options.allowInsecureHttp ?? false,
    userAgent: options.userAgent ?? "pulumi-cloudbees",
    maxResponseBytes: positive(options.maxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES),
  };
}

function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}
