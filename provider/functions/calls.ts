import { requireText } from "../clients/inputs";
import type { InstanceClient } from "../clients/instance-client";
import {
  featureManagementFor,
  instanceFor,
  namedInstanceFor,
  nameProblem,
  operationsCenterFor,
  resolveConnection,
  SETTINGS,
  type FeatureManagementConnection,
  type OperationsCenterConnection,
  type ConnectionSettings,
  type RawConfig,
  type SettingValues,
} from "../config";
import { CloudBeesError, InvalidInputError } from "../http/errors";
import type { FunctionHost, FunctionSpec } from "./host";
import { quoted } from "../text/printable";
import { hiddenTextsOf, withoutCredentials, withoutTexts, type InputKind } from "../text/credentials";
import { quotedUrl } from "../http/url";

/**
 * What every function shares, under both faces: its options, where its settings come from (the face's host), which
 * client it uses, and how its errors read.
 */

/** The last argument of every function. */
export interface FunctionOptions {
  /**
   * Settings that win over the stack config and the `CLOUDBEES_*` environment variables, one by one (the others
   * still come from there): for scripts and tests. Same names as the stack config keys without `cloudbees:`.
   */
  settings?: Partial<SettingValues>;
  /**
   * The connection to use: a name under `cloudbees:connections` in the stack config (`prod`). Default `default`:
   * the top-level `cloudbees:*` settings and the `CLOUDBEES_*` variables. `settings` win over its values.
   */
  connection?: string;
}

/** Options of the functions that call an instance endpoint (an operations center's or a controller's). */
export interface InstanceOptions extends FunctionOptions {
  /**
   * The instance to ask, with its prefix: a controller's URL (`https://ci.example.com/team-a/controller-a/`).
   * Default: the connection's operations center. Authenticates as the connection's user. Not with `instance`.
   */
  instanceUrl?: string;
  /**
   * The instance to ask, by its name in the connection's `instances` (`cloudbees:connections.<c>.instances.<name>`):
   * its URL, with its own username and API token where it has them. Not with `instanceUrl`.
   */
  instance?: string;
}

/** Optional on the endpoints that take it: true lists only WARNING and ERROR messages. Default: the server's (all). */
export interface QuietOptions {
  quiet?: boolean;
}

function explicitSettings(options: FunctionOptions | undefined, operation: string): RawConfig {
  const given = options?.settings;
  if (given === undefined) return {};
  if (typeof given !== "object" || given === null || Array.isArray(given)) {
    throw new InvalidInputError("settings", "expected an object of settings", operation);
  }
  const out: RawConfig = {};
  for (const [key, value] of Object.entries(given)) {
    if (!(key in SETTINGS)) {
      throw new InvalidInputError("settings", `unknown setting "${key}" (known: ${Object.keys(SETTINGS).join(", ")})`, operation);
    }
    if (value !== undefined && value !== null && value !== "") out[key as keyof SettingValues] = value;
  }
  return out;
}

/** `options.connection`, checked: a name, as in `cloudbees:connections.<name>`. */
function connectionOf(options: FunctionOptions | undefined, operation: string): string | undefined {
  const connection = options?.connection;
  if (connection === undefined) return undefined;
  const name = requireText(connection, "connection", operation);
  const problem = nameProblem(name);
  if (problem) throw new InvalidInputError("connection", `"${name}" is not a usable connection name: ${problem}`, operation);
  return name;
}

/**
 * The settings of one call: `options.settings`, then the stack config of the connection (the host's), then (for
 * the default connection) the environment. One parser for all three (provider/config), so names, checks and
 * messages are the resources'.
 */
export function settingsFor(host: FunctionHost, options: FunctionOptions | undefined, operation: string): ConnectionSettings {
  const s = resolveConnection(host.stackConfig(), connectionOf(options, operation), process.env, explicitSettings(options, operation));
  s.http = { ...s.http, userAgent: host.userAgent };
  return s;
}

/** The operations center's client (cached per process and settings by provider/config). */
export function operationsCenterOf(host: FunctionHost, options: FunctionOptions | undefined, operation: string): OperationsCenterConnection {
  return operationsCenterFor(settingsFor(host, options, operation));
}

export function featureManagementOf(host: FunctionHost, options: FunctionOptions | undefined, operation: string): FeatureManagementConnection {
  return featureManagementFor(settingsFor(host, options, operation));
}

/**
 * The client of `options.instanceUrl`, of the connection's instance `options.instance`, or of the operations center
 * (an OperationsCenterClient is an InstanceClient).
 */
export function instanceOf(host: FunctionHost, options: InstanceOptions | undefined, operation: string): InstanceClient {
  // run() has checked both (checkOptions): texts, not both at once.
  const { instanceUrl, instance } = options ?? {};
  if (instance !== undefined) return namedInstanceFor(settingsFor(host, options, operation), instance).client;
  if (instanceUrl === undefined) return operationsCenterOf(host, options, operation).client;
  return instanceFor(settingsFor(host, options, operation), instanceUrl.trim(), { input: "instanceUrl", operation }).client;
}

/** What an argument is (InputKind): as its function says, a URL by its name (`...Url`), else a name. */
function kindOf(spec: FunctionSpec<unknown>, input: string): InputKind {
  return spec.inputKinds?.[input] ?? (/url$/i.test(input) ? "url" : "name");
}

/**
 * How an argument reads in an error's operation: strings quoted, without a credential where the argument can hold one
 * (a URL without what quotedUrl leaves out; a token typed where a name belongs; a local path is shown in full), zips
 * by size, never a setting.
 */
function describeValue(value: unknown, kind: InputKind): string {
  if (value instanceof Uint8Array) return `<zip of ${value.length} bytes>`;
  if (typeof value === "string") {
    const shown = kind === "path" ? value : withoutCredentials(kind === "url" ? quotedUrl(value) : value);
    return quoted(shown.length > 200 ? `${shown.slice(0, 200)}...` : shown);
  }
  return JSON.stringify(value) ?? String(value);
}

/**
 * `getBundle(name: "team-a")`: the function and its inputs, the start of every error it throws; and the texts of
 * them it hides, which the rest of the error must not show either.
 */
export function describeCall(spec: FunctionSpec<unknown>, inputs: Record<string, unknown>, names: Readonly<Record<string, string>> = {}): { operation: string; hidden: string[] } {
  const given = Object.entries(inputs).filter(([, v]) => v !== undefined);
  const args = given.map(([k, v]) => `${names[k] ?? k}: ${describeValue(v, kindOf(spec, k))}`);
  const hidden = given.flatMap(([k, v]) => (v instanceof Uint8Array ? [] : hiddenTextsOf(v, kindOf(spec, k))));
  return { operation: `${spec.name}(${args.join(", ")})`, hidden };
}

/**
 * Puts the call in front of an error's message (and, for the clients' errors, its `operation`), once; what the call
 * hides of its arguments is hidden in the rest of the message too.
 */
function attribute(error: unknown, operation: string, hidden: string[]): unknown {
  if (!(error instanceof Error) || error.message.startsWith(operation)) return error;
  const old = error.message;
  // Read before the message changes: V8 writes the stack's first line when the stack is first read.
  const stack = error.stack;
  error.message = `${operation}: ${hidden.length ? withoutTexts(old, hidden) : old}`;
  if (error instanceof CloudBeesError) {
    (error as { operation: string }).operation = `${operation}: ${hidden.length ? withoutTexts(error.operation, hidden) : error.operation}`;
  }
  if (typeof stack === "string") error.stack = stack.replace(old, error.message);
  return error;
}

/**
 * What every call's options must be, checked without reading a setting (so also under mocks): `settings` an object
 * of known settings, `connection` a usable name, and `instance` and `instanceUrl` not both, each a text.
 */
function checkOptions(options: InstanceOptions | undefined, operation: string): void {
  explicitSettings(options, operation);
  connectionOf(options, operation);
  const { instanceUrl, instance } = options ?? {};
  if (instanceUrl !== undefined && instance !== undefined) {
    throw new InvalidInputError("instance", "give either instance (a name from the connection's instances) or instanceUrl, not both", operation);
  }
  if (instance !== undefined) requireText(instance, "instance", operation);
  if (instanceUrl !== undefined) requireText(instanceUrl, "instanceUrl", operation);
}

/**
 * Runs one function: its errors keep their class (the clients' typed errors, SettingError, InvalidInputError) and
 * gain the call (`getBundle(name: "team-a"): listing bundles (GET /cjoc/casc-bundle/list): ...`).
 *
 * `check` tests the arguments (no request, no file read) before anything else, so a bad argument fails the same way
 * in a program and under `pulumi.runtime.setMocks`. When the host answers instead (the TypeScript face's mocks), the
 * body does not run: the host gets `spec` and the inputs (plus `connection` and `instance` when given; never
 * `settings`).
 */
export async function run<T>(
  host: FunctionHost,
  spec: FunctionSpec<T>,
  inputs: Record<string, unknown>,
  body: (operation: string) => Promise<T>,
  options?: InstanceOptions,
  check?: (operation: string) => void,
): Promise<T> {
  const names = host.inputNames ?? {};
  const { operation, hidden } = describeCall(spec as FunctionSpec<unknown>, inputs, names);
  try {
    checkOptions(options, operation);
    check?.(operation);
    const answered = host.answer?.(spec, { ...inputs, connection: options?.connection, instance: options?.instance }, operation);
    if (answered) return await answered;
    return await body(operation);
  } catch (e) {
    throw attribute(e instanceof InvalidInputError && names[e.input] ? new InvalidInputError(names[e.input]!, e.reason, e.operation) : e, operation, hidden);
  }
}
