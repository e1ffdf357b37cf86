import { bounded, MAX_MESSAGE_LENGTH } from "./response-text";
import { printable, quoted } from "../text/printable";
import { mayHaveActed } from "./retry-policy";

/**
 * One error class per kind of failure, in the style of octokit and openai-node, so that callers can
 * `instanceof`-test what went wrong. Every message reads "<operation> (<METHOD> <path>): <cause>. <what to do>",
 * like terraform-provider-aws's "reading X (id): cause". Messages are built from already-redacted parts:
 * no token, password or authorization header ever reaches one (see redaction.ts).
 */

export interface ErrorDetails {
  /** What was being done, naming the resource: `reading application "5e95..."`. */
  operation: string;
  method?: string;
  /** The URL path (no query string, no credentials). */
  path?: string;
  status?: number;
  /** A short, redacted excerpt of the response body. */
  bodyExcerpt?: string;
  /** What the user can do about it. */
  hint?: string;
}

export class CloudBeesError extends Error {
  readonly operation: string;
  readonly method?: string;
  readonly path?: string;
  readonly status?: number;
  readonly bodyExcerpt?: string;
  readonly hint?: string;

  constructor(cause: string, details: ErrorDetails) {
    super(formatMessage(cause, details));
    this.name = new.target.name;
    this.operation = details.operation;
    this.method = details.method;
    this.path = details.path;
    this.status = details.status;
    this.bodyExcerpt = details.bodyExcerpt;
    this.hint = details.hint;
  }
}

function formatMessage(cause: string, d: ErrorDetails): string {
  const where = d.method && d.path ? ` (${d.method} ${d.path})` : "";
  const body = d.bodyExcerpt ? ` Server said: ${quoted(d.bodyExcerpt)}.` : "";
  const hint = d.hint ? ` ${d.hint}` : "";
  // One line, whatever the operation, the server or the input quoted in it put there (printable).
  return bounded(printable(`${d.operation}${where}: ${cause}.${body}${hint}`), MAX_MESSAGE_LENGTH);
}

/** 401: the credentials were refused. */
export class AuthenticationError extends CloudBeesError {}

/** 403: authenticated (or anonymous) but not allowed; the CasC API requires Overall/Administer. */
export class PermissionError extends CloudBeesError {}

/** 404: the controller, bundle, application, endpoint or method does not exist. */
export class NotFoundError extends CloudBeesError {}

/** 429, or the feature-flag service's 555: over the rate limit. */
export class RateLimitError extends CloudBeesError {
  /** How long the server asked us to wait, when it said. */
  readonly retryAfterMs?: number;
  constructor(cause: string, details: ErrorDetails & { retryAfterMs?: number }) {
    super(cause, details);
    this.retryAfterMs = details.retryAfterMs;
  }
}

/** 5xx. */
export class ServerError extends CloudBeesError {}

/** Any other 4xx: the server refused the request as malformed or impossible (an invalid regex, say). */
export class RequestRejectedError extends CloudBeesError {}

/** The connection failed or broke before a whole response arrived. */
export class NetworkError extends CloudBeesError {
  /** The system or undici error code, e.g. ECONNREFUSED, UND_ERR_SOCKET. */
  readonly code?: string;
  constructor(cause: string, details: ErrorDetails & { code?: string }) {
    super(cause, details);
    this.code = details.code;
  }
}

/** No whole response within the deadline. */
export class TimeoutError extends CloudBeesError {}

/** A response body longer than the client's maxResponseBytes: reading it whole would exhaust memory. */
export class ResponseTooLargeError extends CloudBeesError {
  readonly limitBytes: number;
  constructor(cause: string, details: ErrorDetails & { limitBytes: number }) {
    super(cause, details);
    this.limitBytes = details.limitBytes;
  }
}

/** A 2xx response whose body does not have the shape the spec gives. */
export class UnexpectedResponseError extends CloudBeesError {
  /** The path of the offending field, e.g. `bundles[0].usedBy`; empty for the body itself. */
  readonly field: string;
  constructor(cause: string, details: ErrorDetails & { field: string }) {
    super(cause, details);
    this.field = details.field;
  }
}

/** An argument that would build a wrong request; raised before anything is sent. */
export class InvalidInputError extends CloudBeesError {
  /** The argument at fault, e.g. `controllerPath`. */
  readonly input: string;
  /** Why, without the operation and the input's name. */
  readonly reason: string;
  constructor(input: string, reason: string, operation: string) {
    super(`invalid ${input}: ${reason}`, { operation });
    this.input = input;
    this.reason = reason;
  }
}

/** A client option that cannot work (a malformed URL, plain HTTP to a remote host, a missing credential). */
export class ConfigurationError extends CloudBeesError {
  readonly setting: string;
  constructor(setting: string, reason: string, hint?: string) {
    super(`invalid setting ${setting}: ${reason}`, { operation: "configuring the client", hint });
    this.setting = setting;
  }
}

/**
 * Whether the server may have carried out the request this error reports (see retry-policy's mayHaveActed): the
 * question to answer, by reading what the server holds, before an unsafe call is repeated or given up.
 */
export function outcomeUnknown(error: unknown): boolean {
  if (error instanceof TimeoutError) return true;
  if (error instanceof NetworkError) return mayHaveActed({ kind: "network", code: error.code });
  if (error instanceof UnexpectedResponseError) return error.status !== undefined && error.status >= 200 && error.status < 300;
  if (error instanceof ServerError) return mayHaveActed({ kind: "status", status: error.status });
  return false;
}

/**
 * A file of the machine-wide request spacing (the feature-flag API's one request per second) that cannot be
 * trusted: its folder is not this user's own, or its lock is held longer than any request takes.
 */
export class LocalFileError extends CloudBeesError {
  /** The file or folder at fault. */
  readonly file: string;
  constructor(file: string, cause: string, hint: string) {
    super(cause, { operation: "spacing feature-flag requests on this machine", hint });
    this.file = file;
  }
}
