import type { Dispatcher } from "undici";
import type { ResponseSchema } from "./response-schema";
import {
  AuthenticationError,
  CloudBeesError,
  ConfigurationError,
  NetworkError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  RequestRejectedError,
  ResponseTooLargeError,
  ServerError,
  TimeoutError,
  UnexpectedResponseError,
  type ErrorDetails,
} from "./errors";
import { type DispatcherLease, leaseDispatcher } from "./dispatcher";
import { headerValueProblem } from "./header-value";
import { resolveHttpOptions, type HttpOptions, type ResolvedHttpOptions } from "./options";
import { Redactor, Secret } from "./redaction";
import { isRetryableNetworkFailure, isRetryableStatus, parseRetryAfter, retryDelayMs, type Idempotency } from "./retry-policy";
import { throttledOnThisMachine } from "./machine-throttle";
import { sleep } from "./throttle";
import { buildUrl, parseBaseUrl, type QueryValue } from "./url";
import { describeBody, formatZodIssue, lookOfNonJson } from "./response-text";
import { scrubSecretFields, secretValues } from "./response-secrets";
import { jsonTextTooDeep, MAX_JSON_DEPTH } from "./json-depth";

/** The longest deadline a timer can hold (about 24.8 days); a longer one would throw a RangeError. */
const MAX_DEADLINE_MS = 2_147_483_647;
import { builtOnce } from "./schema-cache";

/** One call, described the way the spec describes it. */
export interface RequestSpec {
  /** What is being done, naming the resource, for error messages: `reading application "5e95..."`. */
  operation: string;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Spec path relative to the base URL, segments already encoded: `casc-bundle/list`. */
  path: string;
  query?: Record<string, QueryValue>;
  body?: { contentType: string; data: string | Uint8Array };
  idempotency: Idempotency;
  /** A failure the server would answer again whatever we do (a documented verdict): never retried. */
  isPermanentFailure?: (status: number, bodyText: string) => boolean;
  /** Hint for a 404 of this call, naming what is probably missing. */
  notFoundHint?: string;
  /** A deadline for this call when it is longer than the client's: a server that answers only when done. */
  minTimeoutMs?: number;
  /** A deadline for this call when it is shorter than the client's: a read that may be given up (the rest goes on). */
  maxTimeoutMs?: number;
  /** Retries of this call at most, below the client's maxRetries (0: one request, whatever it answers). */
  maxRetries?: number;
  /** Its answers hold credentials (a bundle token, a link file): no error quotes a 2xx body of it, JSON or not. */
  secretBody?: boolean;
  /** A redirect (3xx) is its success: Jenkins answers an action (stopAction, doDelete) by sending the browser on. */
  redirectIsSuccess?: boolean;
  /** A limit of this response's body below the client's maxResponseBytes. */
  maxResponseBytes?: number;
  /**
   * A 2xx body that is not JSON is the answer itself, as one string, checked by the schema like a JSON string: an
   * endpoint that answers a bare value (the feature-flag service's E2 answers the new environment's key).
   */
  bareTextAnswer?: boolean;
}

/** How one service authenticates and what to tell users when it refuses. */
export interface ServiceProfile {
  /** Name of the base URL option, for configuration errors. */
  baseUrlSetting: string;
  baseUrl: string;
  /** Full value of the authorization header. */
  authorization: Secret;
  /** Every credential string, scrubbed from all error text. */
  secrets: string[];
  authenticationHint: string;
  permissionHint: string;
  /** Minimum spacing between requests to this service, per machine (the feature-flag API's limit). */
  minIntervalMs?: number;
}

const ACCEPT = {
  json: "application/json",
  binary: "application/zip, application/octet-stream",
  text: "text/yaml, text/plain, */*",
} as const;

type ResponseKind = keyof typeof ACCEPT;

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * The HTTP layer both APIs share: exact headers, a deadline per attempt, retries with backoff, typed errors,
 * zod-checked JSON, and credentials that never reach an error message.
 */
export class HttpClient {
  readonly baseUrl: URL;
  private readonly options: ResolvedHttpOptions;
  private readonly profile: ServiceProfile;
  private readonly redactor: Redactor;
  private lease?: DispatcherLease;

  constructor(profile: ServiceProfile, options: HttpOptions = {}) {
    this.options = resolveHttpOptions(options);
    this.baseUrl = parseBaseUrl(profile.baseUrlSetting, profile.baseUrl, this.options.allowInsecureHttp);
    // Else undici refuses each request as "invalid authorization header", which reads as a network failure.
    const headerProblem = headerValueProblem(profile.authorization.reveal());
    if (headerProblem) throw new ConfigurationError("token", `the credentials cannot be sent: ${headerProblem}`, "Copy the token again, without line breaks.");
    this.profile = profile;
    this.redactor = new Redactor(profile.secrets);
    Object.defineProperty(this, "profile", { enumerable: false });
  }

  /** Sends the request and returns its JSON body checked against `schema`. */
  async json<T>(spec: RequestSpec, schema: () => ResponseSchema<T>): Promise<T> {
    const response = await this.send(spec, "json");
    const text = response.body.toString("utf8");
    // Measured before parsing: a walk over 20,000 levels overflows the stack, and 100 MB of them fill gigabytes.
    if (jsonTextTooDeep(text)) throw this.unexpected(spec, response.status, "", `the body is nested deeper than ${MAX_JSON_DEPTH} levels`, text);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      if (!spec.bareTextAnswer) throw this.unexpected(spec, response.status, "", `the body is not JSON: ${this.redactor.redact(lookOfNonJson(text))}`, text);
      value = text.trim();
    }
    // A bare key of decimal digits parses as a JSON number, and would lose digits as one: it is text.
    if (spec.bareTextAnswer && typeof value === "number") value = text.trim();
    // Tokens and link files this response carries are never quoted by a later error of this client.
    this.redactor.learn(secretValues(value));
    const parsed = builtOnce(schema).safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const { field, message } = formatZodIssue(issue);
      throw this.unexpected(spec, response.status, field, message, text);
    }
    return parsed.data;
  }

  async binary(spec: RequestSpec): Promise<Buffer> {
    return (await this.send(spec, "binary")).body;
  }

  /** Sends the request and ignores the body of its 2xx answer (a DELETE's, whose body no source shows). */
  async discard(spec: RequestSpec): Promise<void> {
    await this.send(spec, "json");
  }

  async text(spec: RequestSpec): Promise<string> {
    return (await this.send(spec, "text")).body.toString("utf8");
  }

  /** Releases its share of the connection pool (closed with the last client of its origin). The client must not be used afterwards. */
  async close(): Promise<void> {
    const lease = this.lease;
    this.lease = undefined;
    await lease?.release();
  }

  private async send(spec: RequestSpec, kind: ResponseKind): Promise<RawResponse> {
    const url = buildUrl(this.baseUrl, spec.path, spec.query);
    const details = { operation: spec.operation, method: spec.method, path: this.redactor.redact(url.pathname) };
    for (let attempt = 0; ; attempt++) {
      let failure: CloudBeesError;
      let retryAfterMs: number | undefined;
      let retryable: boolean;
      try {
        const response = await this.attemptOnce(url, spec, kind);
        if (response.status >= 200 && response.status < 300) return response;
        if (spec.redirectIsSuccess && response.status >= 300 && response.status < 400) return response;
        retryAfterMs = parseRetryAfter(header(response.headers, "retry-after"));
        const bodyText = response.body.toString("utf8");
        failure = this.statusError(spec, details, response.status, bodyText, retryAfterMs, attempt);
        retryable =
          isRetryableStatus(response.status, spec.idempotency) &&
          !(spec.isPermanentFailure?.(response.status, bodyText) ?? false);
      } catch (error) {
        if (error instanceof CloudBeesError) throw error;
        if (isProgrammingError(error)) {
          // Node's own argument errors (ERR_*): a request that cannot be built, not a network hiccup to retry.
          throw new CloudBeesError(`the request could not be sent: ${this.redactor.redact(String((error as Error).message))}`, details);
        }
        const transport = this.transportError(error, details, attempt, this.deadlineMs(spec));
        failure = transport;
        retryable = isRetryableNetworkFailure(transport instanceof NetworkError ? transport.code : undefined, spec.idempotency);
      }
      if (!retryable || attempt >= Math.min(this.options.maxRetries, spec.maxRetries ?? Infinity)) throw failure;
      const delay = retryDelayMs(attempt, {
        maxRetries: this.options.maxRetries,
        baseDelayMs: this.options.retryBaseDelayMs,
        maxDelayMs: this.options.maxRetryDelayMs,
      }, retryAfterMs);
      if (delay === undefined) throw failure;
      await sleep(delay);
    }
  }

  private attemptOnce(url: URL, spec: RequestSpec, kind: ResponseKind): Promise<RawResponse> {
    const run = () => this.exchange(url, spec, kind);
    const interval = this.profile.minIntervalMs;
    if (!interval) return run();
    // A holder of the machine's lock waits at most the interval, then makes one request: longer is a lock gone wrong.
    const holdMs = interval + this.deadlineMs(spec) + 1000;
    return throttledOnThisMachine(this.baseUrl.origin + this.baseUrl.pathname, interval, run, { holdMs });
  }

  /** One request and its whole body, under the deadline. */
  private async exchange(url: URL, spec: RequestSpec, kind: ResponseKind): Promise<RawResponse> {
    const headers: Record<string, string> = {
      accept: ACCEPT[kind],
      authorization: this.profile.authorization.reveal(),
      "user-agent": this.options.userAgent,
    };
    if (spec.body) headers["content-type"] = spec.body.contentType;
    const deadline = AbortSignal.timeout(this.deadlineMs(spec));
    try {
      const { dispatcher } = (this.lease ??= leaseDispatcher(this.baseUrl, this.options));
      // As undici's top-level request(url, ...) calls it.
      const response = await dispatcher.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: spec.method,
        headers,
        body: spec.body?.data,
        signal: deadline,
      });
      const body = await this.readBody(response, spec, url);
      return { status: response.statusCode, headers: response.headers, body };
    } catch (error) {
      if (deadline.aborted) throw new DeadlineExceeded();
      throw error;
    }
  }

  /** The whole body, or ResponseTooLargeError as soon as it is longer than maxResponseBytes. */
  private async readBody(response: Dispatcher.ResponseData, spec: RequestSpec, url: URL): Promise<Buffer> {
    const limit = Math.min(this.options.maxResponseBytes, spec.maxResponseBytes ?? Infinity);
    const tooLarge = (size: string) => {
      // The rest is not read: undici reports the abort as an error event, which nobody needs to hear.
      response.body.on("error", () => undefined);
      response.body.destroy();
      return new ResponseTooLargeError(`the response body (${size}) is larger than the limit of ${limit} bytes`, {
        operation: spec.operation,
        method: spec.method,
        path: this.redactor.redact(url.pathname),
        status: response.statusCode,
        limitBytes: limit,
        hint: "Check the base URL (a proxy or another server may answer); raise maxResponseBytes if the answer is truly this large.",
      });
    };
    const declared = Number(header(response.headers, "content-length"));
    if (Number.isFinite(declared) && declared > limit) throw tooLarge(`${declared} bytes`);
    const chunks: Buffer[] = [];
    let size = 0;
    // Events, not `for await`: a stream's async iterator cost 0.6 ms of CPU a response in a fresh provider process,
    // more than the rest of the read (a refresh of 50 controllers reads 100 bodies).
    await new Promise<void>((resolve, reject) => {
      response.body.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) reject(tooLarge(`more than ${limit} bytes`));
        else chunks.push(chunk);
      });
      response.body.once("end", resolve);
      response.body.once("error", reject);
    });
    return Buffer.concat(chunks, size);
  }

  private deadlineMs(spec: RequestSpec): number {
    return Math.min(MAX_DEADLINE_MS, spec.maxTimeoutMs ?? Infinity, Math.max(this.options.timeoutMs, spec.minTimeoutMs ?? 0));
  }

  /**
   * A redacted excerpt of a body for an error: credentials, and every secret field the API returns, scrubbed. No
   * excerpt at all of a 2xx answer of an endpoint whose answers hold credentials: a token in a body of another shape
   * (text, say) has no field name to scrub it by. Its refusals (4xx, 5xx) are quoted: they say what to fix. Bounded
   * work whatever the body (see EXCERPT_SOURCE_LENGTH).
   */
  private excerpt(spec: RequestSpec, status: number, bodyText: string): string {
    if (spec.secretBody && status >= 200 && status < 300) return bodyText.trim() ? "(not quoted: this endpoint's answers hold credentials)" : "";
    return this.redactor.redact(describeBody(scrubSecretFields(bodyText)));
  }

  private statusError(
    spec: RequestSpec,
    details: ErrorDetails,
    status: number,
    bodyText: string,
    retryAfterMs: number | undefined,
    attempt: number,
  ): CloudBeesError {
    const d: ErrorDetails = { ...details, status, bodyExcerpt: this.excerpt(spec, status, bodyText) };
    const tries = attempt > 0 ? ` after ${attempt + 1} attempts` : "";
    if (status === 401) {
      return new AuthenticationError("authentication failed (401)", { ...d, hint: this.profile.authenticationHint });
    }
    if (status === 403) return new PermissionError("permission denied (403)", { ...d, hint: this.profile.permissionHint });
    if (status === 404) {
      return new NotFoundError("not found (404)", {
        ...d,
        hint: spec.notFoundHint ?? "Check the id or path, and that the base URL includes the installation's prefix.",
      });
    }
    if (status === 429 || status === 555) {
      return new RateLimitError(`rate limited (${status})${tries}`, {
        ...d,
        retryAfterMs,
        hint: "The service allows about one request per second; wait and run again.",
      });
    }
    if (status >= 500) {
      return new ServerError(`server error (${status})${tries}`, {
        ...d,
        hint: "Try again later; if it persists, the server's log says why.",
      });
    }
    if (status >= 400) return new RequestRejectedError(`request rejected (${status})`, d);
    return new UnexpectedResponseError(`unexpected status ${status}`, { ...d, field: "" });
  }

  private transportError(error: unknown, details: ErrorDetails, attempt: number, deadlineMs: number): CloudBeesError {
    const tries = attempt > 0 ? ` (after ${attempt + 1} attempts)` : "";
    const code = errorCode(error);
    if (error instanceof DeadlineExceeded || code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT") {
      return new TimeoutError(`no complete response within ${deadlineMs} ms${tries}`, {
        ...details,
        hint: "Check that the server is up, or raise the timeout option.",
      });
    }
    const reason = this.redactor.redact(error instanceof Error ? error.message : String(error));
    return new NetworkError(`network failure${code ? ` ${code}` : ""}: ${reason}${tries}`, {
      ...details,
      code,
      hint: "Check the URL, the network and the proxy settings (HTTPS_PROXY, NO_PROXY).",
    });
  }

  private unexpected(spec: RequestSpec, status: number, field: string, message: string, bodyText: string): UnexpectedResponseError {
    const where = field ? `field "${field}": ` : "";
    return new UnexpectedResponseError(`unexpected response: ${where}${message}`, {
      operation: spec.operation,
      method: spec.method,
      path: this.redactor.redact(buildUrl(this.baseUrl, spec.path).pathname),
      status,
      field,
      bodyExcerpt: this.excerpt(spec, status, bodyText),
      hint: "The server does not answer as the API spec says: check the base URL and the product version.",
    });
  }
}

class DeadlineExceeded extends Error {}

function header(headers: RawResponse["headers"], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function isProgrammingError(error: unknown): boolean {
  const code = errorCode(error);
  return code !== undefined && code.startsWith("ERR_");
}

function errorCode(error: unknown): string | undefined {
  const e = error as { code?: unknown; cause?: { code?: unknown } } | undefined;
  const code = e?.code ?? e?.cause?.code;
  return typeof code === "string" ? code : undefined;
}
