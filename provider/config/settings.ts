import * as fs from "node:fs";
import type { HttpOptions } from "../http/options";

/**
 * The provider's settings: stack config (`cloudbees:*`, handed to `configure`) first, then environment variables.
 * Values are resolved when a client is first needed, never at load time, so that a missing setting fails the first
 * call that needs it (and only that one) with the exact command that fixes it.
 */

export interface SettingSpec {
  /** Stack config key, namespace included. */
  key: string;
  env: string;
  secret: boolean;
  /** What to put in the `pulumi config set` example. */
  placeholder: string;
  /** One line for messages and the README. */
  description: string;
}

// Plain data (no functions, no clients): nothing here is ever serialized into a provider's closure.
export const SETTINGS = {
  operationsCenterUrl: {
    key: "cloudbees:operationsCenterUrl",
    env: "CLOUDBEES_OPERATIONS_CENTER_URL",
    secret: false,
    placeholder: "https://ci.example.com/cjoc/",
    description: "base URL of the operations center, with its prefix",
  },
  username: {
    key: "cloudbees:username",
    env: "CLOUDBEES_USERNAME",
    secret: false,
    placeholder: "<admin-user>",
    description: "operations-center user, an administrator",
  },
  apiToken: {
    key: "cloudbees:apiToken",
    env: "CLOUDBEES_API_TOKEN",
    secret: true,
    placeholder: "<token>",
    description: "API token of that user",
  },
  featureManagementUrl: {
    key: "cloudbees:featureManagementUrl",
    env: "CLOUDBEES_FEATURE_MANAGEMENT_URL",
    secret: false,
    placeholder: "https://x-api.rollout.io",
    description: "base URL of the feature-flag service (default https://x-api.rollout.io)",
  },
  featureManagementToken: {
    key: "cloudbees:featureManagementToken",
    env: "CLOUDBEES_FEATURE_MANAGEMENT_TOKEN",
    secret: true,
    placeholder: "<token>",
    description: "API token of the feature-flag account",
  },
  featureManagementRequestIntervalMs: {
    key: "cloudbees:featureManagementRequestIntervalMs",
    env: "CLOUDBEES_FEATURE_MANAGEMENT_REQUEST_INTERVAL_MS",
    secret: false,
    placeholder: "1000",
    description: "least time in ms between two requests to the feature-flag service, machine-wide (default 1000: the service's limit; lower it only for an emulator)",
  },
  caCertificate: {
    key: "cloudbees:caCertificate",
    env: "CLOUDBEES_CA_CERTIFICATE",
    secret: false,
    placeholder: "/path/to/ca.pem",
    description: "PEM text, or the path of a PEM file, of the CA(s) to trust",
  },
  insecureSkipTlsVerify: {
    key: "cloudbees:insecureSkipTlsVerify",
    env: "CLOUDBEES_INSECURE_SKIP_TLS_VERIFY",
    secret: false,
    placeholder: "true",
    description: "skip TLS certificate verification (test installations only)",
  },
  allowInsecureHttp: {
    key: "cloudbees:allowInsecureHttp",
    env: "CLOUDBEES_ALLOW_INSECURE_HTTP",
    secret: false,
    placeholder: "true",
    description: "allow plain http:// to a non-loopback host",
  },
  timeoutMs: {
    key: "cloudbees:timeoutMs",
    env: "CLOUDBEES_TIMEOUT_MS",
    secret: false,
    placeholder: "30000",
    description: "deadline of each HTTP attempt in ms (default 30000)",
  },
  maxRetries: {
    key: "cloudbees:maxRetries",
    env: "CLOUDBEES_MAX_RETRIES",
    secret: false,
    placeholder: "3",
    description: "retries of a failed safe request (default 3)",
  },
} as const satisfies Record<string, SettingSpec>;

export type SettingName = keyof typeof SETTINGS;

/** The connection of today's top-level `cloudbees:*` keys and `CLOUDBEES_*` variables. */
export const DEFAULT_CONNECTION = "default";

/**
 * The stack config key of a setting of a connection: the top-level key for the default connection, the path inside
 * `cloudbees:connections` for a named one (`cloudbees:connections.prod.apiToken`).
 */
export function settingKey(name: SettingName, connection: string = DEFAULT_CONNECTION): string {
  return connection === DEFAULT_CONNECTION ? SETTINGS[name].key : `cloudbees:connections.${connection}.${name}`;
}

/** The command that sets `path` (a key inside `cloudbees:connections`), for messages. */
export function howToSetPath(path: string, placeholder: string, secret: boolean): string {
  return `pulumi config set ${secret ? "--secret " : ""}--path '${path}' ${placeholder}`;
}

/**
 * The command (and variable) that sets a setting of a connection, for messages. Named connections are read from
 * the stack config only: the environment variables belong to the default connection.
 */
export function howToSet(name: SettingName, connection: string = DEFAULT_CONNECTION): string {
  const s: SettingSpec = SETTINGS[name];
  if (connection !== DEFAULT_CONNECTION) return howToSetPath(settingKey(name, connection), s.placeholder, s.secret);
  return `pulumi config set ${s.secret ? "--secret " : ""}${s.key} ${s.placeholder} (or the environment variable ${s.env})`;
}

/** A setting that is missing or unusable; the message names the key and gives the command that fixes it. */
export class SettingError extends Error {
  constructor(
    readonly settings: SettingName[],
    message: string,
  ) {
    super(message);
    this.name = "SettingError";
  }
}

export function missingSettings(names: SettingName[], purpose: string, connection: string = DEFAULT_CONNECTION): SettingError {
  const lines = names.map((n) => `  ${settingKey(n, connection)} (${SETTINGS[n].description}): ${howToSet(n, connection)}`);
  const keys = names.map((n) => settingKey(n, connection)).join(", ");
  return new SettingError(names, `missing setting${names.length > 1 ? "s" : ""} ${keys}, needed ${purpose}. Set ${names.length > 1 ? "them" : "it"} with:\n${lines.join("\n")}`);
}

export function invalidSetting(name: SettingName, reason: string, connection: string = DEFAULT_CONNECTION): SettingError {
  return new SettingError([name], `invalid setting ${settingKey(name, connection)}: ${reason}. Fix: ${howToSet(name, connection)}`);
}

/**
 * Typed values of every setting, as a script or test gives them directly (the program functions' `settings`
 * option). Parsed by resolveSettings like stack config, so the same checks and messages apply.
 */
export interface SettingValues {
  operationsCenterUrl: string;
  username: string;
  apiToken: string;
  featureManagementUrl: string;
  featureManagementToken: string;
  /** Default 1000 (the service allows one request per second); lower only against an emulator. */
  featureManagementRequestIntervalMs: number;
  /** PEM text, or the path of a PEM file. */
  caCertificate: string;
  insecureSkipTlsVerify: boolean;
  allowInsecureHttp: boolean;
  timeoutMs: number;
  maxRetries: number;
}

// Keeps SettingValues and SETTINGS in step: a setting added to one and not the other fails to compile.
type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : never) : never;
const settingValuesCoverSettings: SameKeys<SettingValues, typeof SETTINGS> = true;
void settingValuesCoverSettings;

/**
 * Raw values as they came from the stack config (strings, or booleans/numbers for typed config), and the raw
 * `cloudbees:connections` (an object, or its JSON text; see connections.ts).
 */
export type RawConfig = Partial<Record<SettingName, unknown>> & { connections?: unknown };

export interface ResolvedSettings {
  /** The connection these settings belong to: messages name its keys. */
  connection: string;
  operationsCenterUrl?: string;
  username?: string;
  apiToken?: string;
  featureManagementUrl?: string;
  featureManagementToken?: string;
  featureManagementRequestIntervalMs?: number;
  http: HttpOptions;
}

/** Where values come from: stack config first, then the environment; `connection` names the keys in messages. */
interface Source {
  config: RawConfig;
  env: NodeJS.ProcessEnv;
  connection: string;
}

/** Stack config value, else environment variable; empty strings count as unset. */
function raw(name: SettingName, { config, env }: Source): unknown {
  const fromConfig = config[name];
  if (fromConfig !== undefined && fromConfig !== null && fromConfig !== "") return fromConfig;
  const fromEnv = env[SETTINGS[name].env];
  return fromEnv === undefined || fromEnv === "" ? undefined : fromEnv;
}

function text(name: SettingName, src: Source): string | undefined {
  const v = raw(name, src);
  if (v === undefined) return undefined;
  if (typeof v !== "string") throw invalidSetting(name, `expected text, got ${typeof v}`, src.connection);
  const trimmed = v.trim();
  return trimmed === "" ? undefined : trimmed;
}

function flag(name: SettingName, src: Source): boolean | undefined {
  const v = raw(name, src);
  if (v === undefined || typeof v === "boolean") return v;
  const s = String(v).trim().toLowerCase();
  if (s === "true") return true;
  if (s === "false") return false;
  throw invalidSetting(name, `expected true or false, got "${String(v)}"`, src.connection);
}

function integer(name: SettingName, src: Source, min: number): number | undefined {
  const v = raw(name, src);
  if (v === undefined) return undefined;
  const n = typeof v === "number" ? v : /^\s*\d+\s*$/.test(String(v)) ? Number(v) : NaN;
  if (!Number.isInteger(n) || n < min) throw invalidSetting(name, `expected a whole number >= ${min}, got "${String(v)}"`, src.connection);
  return n;
}

/** PEM text as is; anything else is taken as the path of a PEM file (config values are single-line in practice). */
function caCertificate(src: Source): string | undefined {
  const v = text("caCertificate", src);
  if (v === undefined || v.includes("-----BEGIN")) return v;
  let content: string;
  try {
    content = fs.readFileSync(v, "utf8");
  } catch (e) {
    throw invalidSetting("caCertificate", `"${v}" is neither PEM text nor a readable file (${(e as NodeJS.ErrnoException).code ?? String(e)})`, src.connection);
  }
  if (!content.includes("-----BEGIN")) throw invalidSetting("caCertificate", `the file "${v}" holds no PEM certificate`, src.connection);
  return content;
}

/**
 * The settings of one connection from its raw values (`connection` only names the keys in messages: the caller
 * picks the values and the environment, see connections.ts).
 */
export function resolveSettings(config: RawConfig, env: NodeJS.ProcessEnv = process.env, connection: string = DEFAULT_CONNECTION): ResolvedSettings {
  const src: Source = { config, env, connection };
  const http: HttpOptions = {
    caCertificate: caCertificate(src),
    insecureSkipTlsVerify: flag("insecureSkipTlsVerify", src),
    allowInsecureHttp: flag("allowInsecureHttp", src),
    timeoutMs: integer("timeoutMs", src, 1),
    maxRetries: integer("maxRetries", src, 0),
  };
  for (const k of Object.keys(http) as (keyof HttpOptions)[]) if (http[k] === undefined) delete http[k];
  return {
    connection,
    operationsCenterUrl: text("operationsCenterUrl", src),
    username: text("username", src),
    apiToken: text("apiToken", src),
    featureManagementUrl: text("featureManagementUrl", src),
    featureManagementToken: text("featureManagementToken", src),
    featureManagementRequestIntervalMs: integer("featureManagementRequestIntervalMs", src, 0),
    http,
  };
}

/** The stack config key of the named connections (see connections.ts). */
export const CONNECTIONS_KEY = "cloudbees:connections";

/** Reads every setting, and the named connections, from the `req.config` of a dynamic provider's configure. */
export function readStackConfig(config: { get(key: string): unknown }): RawConfig {
  const out: RawConfig = {};
  for (const [name, spec] of Object.entries(SETTINGS) as [SettingName, SettingSpec][]) {
    const v = config.get(spec.key);
    if (v !== undefined && v !== null && v !== "") out[name] = v;
  }
  const connections = config.get(CONNECTIONS_KEY);
  if (connections !== undefined && connections !== null && connections !== "") out.connections = connections;
  return out;
}
