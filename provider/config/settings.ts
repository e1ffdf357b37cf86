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

/** The command (and variable) that sets a setting, for messages. */
export function howToSet(name: SettingName): string {
  const s: SettingSpec = SETTINGS[name];
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

export function missingSettings(names: SettingName[], purpose: string): SettingError {
  const lines = names.map((n) => `  ${SETTINGS[n].key} (${SETTINGS[n].description}): ${howToSet(n)}`);
  const keys = names.map((n) => SETTINGS[n].key).join(", ");
  return new SettingError(names, `missing setting${names.length > 1 ? "s" : ""} ${keys}, needed ${purpose}. Set ${names.length > 1 ? "them" : "it"} with:\n${lines.join("\n")}`);
}

export function invalidSetting(name: SettingName, reason: string): SettingError {
  return new SettingError([name], `invalid setting ${SETTINGS[name].key}: ${reason}. Fix: ${howToSet(name)}`);
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

/** Raw values as they came from the stack config (strings, or booleans/numbers for typed config). */
export type RawConfig = Partial<Record<SettingName, unknown>>;

export interface ResolvedSettings {
  operationsCenterUrl?: string;
  username?: string;
  apiToken?: string;
  featureManagementUrl?: string;
  featureManagementToken?: string;
  http: HttpOptions;
}

/** Stack config value, else environment variable; empty strings count as unset. */
function raw(name: SettingName, config: RawConfig, env: NodeJS.ProcessEnv): unknown {
  const fromConfig = config[name];
  if (fromConfig !== undefined && fromConfig !== null && fromConfig !== "") return fromConfig;
  const fromEnv = env[SETTINGS[name].env];
  return fromEnv === undefined || fromEnv === "" ? undefined : fromEnv;
}

function text(name: SettingName, config: RawConfig, env: NodeJS.ProcessEnv): string | undefined {
  const v = raw(name, config, env);
  if (v === undefined) return undefined;
  if (typeof v !== "string") throw invalidSetting(name, `expected text, got ${typeof v}`);
  const trimmed = v.trim();
  return trimmed === "" ? undefined : trimmed;
}

function flag(name: SettingName, config: RawConfig, env: NodeJS.ProcessEnv): boolean | undefined {
  const v = raw(name, config, env);
  if (v === undefined || typeof v === "boolean") return v;
  const s = String(v).trim().toLowerCase();
  if (s === "true") return true;
  if (s === "false") return false;
  throw invalidSetting(name, `expected true or false, got "${String(v)}"`);
}

function integer(name: SettingName, config: RawConfig, env: NodeJS.ProcessEnv, min: number): number | undefined {
  const v = raw(name, config, env);
  if (v === undefined) return undefined;
  const n = typeof v === "number" ? v : /^\s*\d+\s*$/.test(String(v)) ? Number(v) : NaN;
  if (!Number.isInteger(n) || n < min) throw invalidSetting(name, `expected a whole number >= ${min}, got "${String(v)}"`);
  return n;
}

/** PEM text as is; anything else is taken as the path of a PEM file (config values are single-line in practice). */
function caCertificate(config: RawConfig, env: NodeJS.ProcessEnv): string | undefined {
  const v = text("caCertificate", config, env);
  if (v === undefined || v.includes("-----BEGIN")) return v;
  let content: string;
  try {
    content = fs.readFileSync(v, "utf8");
  } catch (e) {
    throw invalidSetting("caCertificate", `"${v}" is neither PEM text nor a readable file (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  if (!content.includes("-----BEGIN")) throw invalidSetting("caCertificate", `the file "${v}" holds no PEM certificate`);
  return content;
}

export function resolveSettings(config: RawConfig, env: NodeJS.ProcessEnv = process.env): ResolvedSettings {
  const http: HttpOptions = {
    caCertificate: caCertificate(config, env),
    insecureSkipTlsVerify: flag("insecureSkipTlsVerify", config, env),
    allowInsecureHttp: flag("allowInsecureHttp", config, env),
    timeoutMs: integer("timeoutMs", config, env, 1),
    maxRetries: integer("maxRetries", config, env, 0),
  };
  for (const k of Object.keys(http) as (keyof HttpOptions)[]) if (http[k] === undefined) delete http[k];
  return {
    operationsCenterUrl: text("operationsCenterUrl", config, env),
    username: text("username", config, env),
    apiToken: text("apiToken", config, env),
    featureManagementUrl: text("featureManagementUrl", config, env),
    featureManagementToken: text("featureManagementToken", config, env),
    http,
  };
}

/** Reads every setting from the `req.config` of a dynamic provider's configure. */
export function readStackConfig(config: { get(key: string): unknown }): RawConfig {
  const out: RawConfig = {};
  for (const [name, spec] of Object.entries(SETTINGS) as [SettingName, SettingSpec][]) {
    const v = config.get(spec.key);
    if (v !== undefined && v !== null && v !== "") out[name] = v;
  }
  return out;
}
