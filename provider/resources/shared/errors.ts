import { AuthenticationError, CloudBeesError, PermissionError } from "../../http/errors";
import { bounded, MAX_MESSAGE_LENGTH } from "../../http/response-text";
import { printable, quoted } from "../../text/printable";
import { howToSet, DEFAULT_CONNECTION, SettingError } from "../../config/settings";
import type { OperationsCenterConnection } from "../../config/clients";
import { currentScope } from "../../config/scope";
import { PROVIDER_KEY } from "./values";
import type { Props } from "./types";

/**
 * Errors of the resources read like terraform-provider-aws's: "<doing what> <Type> (<id>): <cause>", where the
 * cause names the input at fault and the fix. The client's own error (method, path, server words) stays at the
 * end, for whoever needs to dig.
 */

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class ResourceError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    // Escapes (ESC, NUL, bidi) shown as such; newlines stay, as some messages are multi-line by design (a setting's
    // how-to): the values they quote go in with quoted() (a server's, an input's), so only their own text breaks lines.
    super(bounded(printable(message, { keepNewlines: true }), MAX_MESSAGE_LENGTH), options);
    this.name = "ResourceError";
  }
}

/**
 * ` on connection prod` for a call made for a named connection (see config/scope.ts), "" for the default one: one
 * place, so that every resource's errors name the server they were about without the controllers knowing of it.
 */
function onConnection(): string {
  const { connection } = currentScope();
  return connection === DEFAULT_CONNECTION ? "" : ` on connection ${connection}`;
}

/** Longest id an error shows: an id from a caller (`pulumi import`, `Resource.get`) can be anything, of any length. */
export const MAX_SHOWN_ID = 200;

/**
 * An id as an error shows it: as it is when it has the look of the ids the provider makes (one line of printable
 * characters, no quotes, parentheses or backslashes, at most MAX_SHOWN_ID long), so that the usual messages read
 * `(bundle-availability/team-a)`; any other id (from a caller) quoted, escaped (printable.ts) and cut to
 * MAX_SHOWN_ID characters, so that it can neither forge a line nor flood one.
 */
export function shownId(id: string): string {
  const plain = id.length <= MAX_SHOWN_ID && id.trim() === id && !/["()\\]/.test(id) && printable(id) === id;
  return plain ? id : quoted(bounded(id, MAX_SHOWN_ID));
}

/** `creating BundleAvailability (bundle-availability/team-a): <cause>` (`... (bundle-availability/team-a) on connection prod: <cause>`) */
export function operationFailed(operation: string, id: string | undefined, cause: string, original?: unknown): ResourceError {
  const detail = original !== undefined && messageOf(original) !== cause ? ` [${messageOf(original)}]` : "";
  return new ResourceError(`${operation}${id ? ` (${shownId(id)})` : ""}${onConnection()}: ${cause}${detail}`, { cause: original });
}

/**
 * The cause of a failure that is the credentials' fault, phrased with the settings to change; undefined for any
 * other failure. Setting errors (missing or invalid settings) already say which key and command.
 */
export function accessProblem(
  error: unknown,
  oc?: Pick<OperationsCenterConnection, "username" | "url"> & Partial<Pick<OperationsCenterConnection, "credentials">>,
  /** What `oc.url` is, for the 401 message: a controller's URL when the call went to a controller. */
  instance = "the operations center",
): string | undefined {
  if (error instanceof SettingError) return error.message;
  if (!(error instanceof CloudBeesError)) return undefined;
  const { connection } = currentScope();
  if (oc) {
    // The keys the credentials came from: the connection's, or a named instance's own.
    const username = oc.credentials?.username ?? { key: "cloudbees:username", command: howToSet("username") };
    const apiToken = oc.credentials?.apiToken ?? { key: "cloudbees:apiToken", command: howToSet("apiToken") };
    if (error instanceof PermissionError) {
      return (
        `the operations-center user ${quoted(oc.username)} (${username.key}) is not allowed to use the CasC API at ${oc.url} ` +
        `(403: it requires Overall/Administer). Fix: use an administrator and that administrator's API token: ` +
        `${username.command}, and ${apiToken.command}`
      );
    }
    if (error instanceof AuthenticationError) {
      return (
        `${instance} at ${oc.url} refused the credentials of user ${quoted(oc.username)} (401). Fix: check ` +
        `${username.key} and ${apiToken.key} (a revoked token stops working): ${apiToken.command}`
      );
    }
    return undefined;
  }
  if (error instanceof AuthenticationError || error instanceof PermissionError) {
    return (
      `the feature-flag service refused the API token (${error.status}; generating a new token revokes the old ` +
      `one). Fix: ${howToSet("featureManagementToken", connection)}`
    );
  }
  return undefined;
}

/**
 * A create that made the remote change and then failed: the error carries the id and what is known of the
 * outputs (with `__provider`, which the host needs to find the provider for a later read or delete), so the engine
 * records the resource instead of orphaning it. Keep `properties` small: it travels in gRPC trailers.
 */
export function partiallyCreated(
  message: string,
  id: string,
  outs: Props,
  inputs: Props,
  cause: unknown,
): ResourceError & { id: string; properties: Props; reasons: string[] } {
  // The controllers write "<operation> (<id>): ..."; the connection goes after the id, as in operationFailed.
  const named = onConnection() && !message.includes(onConnection()) ? message.replace(`(${id}):`, `(${id})${onConnection()}:`) : message;
  const error = new ResourceError(named, { cause }) as ResourceError & { id: string; properties: Props; reasons: string[] };
  error.id = id;
  error.properties = inputs[PROVIDER_KEY] === undefined ? { ...outs } : { ...outs, [PROVIDER_KEY]: inputs[PROVIDER_KEY] };
  error.reasons = [messageOf(cause)];
  return error;
}

/**
 * An unsafe call whose outcome is still unknown after reading what the server holds. The message says what is known
 * and what to check; a create records the resource as partially created (`partiallyCreated`) rather than dropping it.
 */
export class OutcomeUnknownError extends ResourceError {
  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.name = "OutcomeUnknownError";
  }
}

/** A warning on stderr, as a line of its own. */
export function stderrWarning(line: string): void {
  console.warn(`warning: ${line}`);
}

let warningSink: (line: string) => void = stderrWarning;

/** Where warn() sends its warnings from now on (the plugin: the engine's log, provider/plugin/engine-log.ts). */
export function sendWarningsTo(sink: (line: string) => void): void {
  warningSink = sink;
}

/**
 * The dynamic providers' warnings reach the CLI through their host's stderr (SDK 3.146+); no engine log connection
 * exists there. The engine makes each line of it a diagnostic of its own (pulumi/pulumi pkg/resource/plugin/plugin.go,
 * `runtrace`), so a warning is one line, whatever it quotes: values from a server go in with quoted(), and any line
 * break left is escaped here. The plugin's stderr the engine hides: it sends them to the engine's log instead.
 */
export function warn(message: string): void {
  // Warnings start "<Type> (<id>): ..."; the connection goes after the id, as in operationFailed.
  const suffix = onConnection();
  const named = suffix ? (/^\S+ \([^)]*\):/.test(message) ? message.replace(/^(\S+ \([^)]*\)):/, `$1${suffix}:`) : `${suffix.trim()}: ${message}`) : message;
  warningSink(printable(named));
}

/**
 * A partial create's error (partiallyCreated) with its recorded outputs changed by `change`: the layers above a
 * controller add what they keep in the outputs (connection names, declared input names) or mark secrets. Any other
 * error is returned as it is.
 */
export function withPartialProperties(error: unknown, change: (properties: Props) => Props): unknown {
  if (error instanceof Error && typeof (error as { properties?: unknown }).properties === "object") {
    const e = error as Error & { properties: Props };
    e.properties = change(e.properties);
  }
  return error;
}
