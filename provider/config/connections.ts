import { jsonTextTooDeep, MAX_JSON_DEPTH, valueTooDeep } from "../http/json-depth";
import {
  CONNECTIONS_KEY,
  DEFAULT_CONNECTION,
  howToSet,
  howToSetPath,
  resolveSettings,
  SETTINGS,
  SettingError,
  settingKey as settingKeyOf,
  type RawConfig,
  type ResolvedSettings,
  type SettingName,
} from "./settings";

/**
 * Named connections: `cloudbees:connections` is an object of connections, each with the keys of today's top-level
 * settings plus `instances` (named controllers with `url` and, optionally, their own `username` / `apiToken`):
 *
 *   pulumi config set --path 'cloudbees:connections.prod.operationsCenterUrl' https://ci.example.com/cjoc/
 *   pulumi config set --secret --path 'cloudbees:connections.prod.apiToken' <token>
 *   pulumi config set --path 'cloudbees:connections.prod.instances.team-a.url' https://ci.example.com/team-a/
 *
 * The connection named `default` is today's top-level keys with the `CLOUDBEES_*` variables as fallback
 * (`cloudbees:connections.default.*`, when given, wins over them, key by key). A named connection reads its own
 * keys only, neither the top-level keys nor the environment: a production connection never picks up staging's
 * token by accident. Everything is parsed at the first call that needs it, so a bad entry fails that call only,
 * with the command that fixes it.
 */

/** A controller (or an operations center reached by its own URL) of a connection, by name. */
export interface InstanceSettings {
  name: string;
  url: string;
  /** Own credentials; each one missing falls back to the connection's. */
  username?: string;
  apiToken?: string;
}

/** The settings of a connection, with its instances (names -> raw entries, checked when one is used). */
export interface ConnectionSettings extends ResolvedSettings {
  instances: Record<string, unknown>;
}

/** Connection and instance names: letters, digits, `-` and `_`, so that `--path 'a.b.c'` addresses them. */
const NAME = /^[A-Za-z0-9_-]+$/;
const INSTANCE_KEYS = ["url", "username", "apiToken"] as const;
const CONNECTION_KEYS = [...Object.keys(SETTINGS), "instances"];

export function nameProblem(name: string): string | undefined {
  return NAME.test(name) ? undefined : "use letters, digits, - and _ only (the name is one segment of a --path key)";
}

function invalid(path: string, reason: string): SettingError {
  return new SettingError([], `invalid setting ${path}: ${reason}`);
}

/**
 * Secret values nested in an object reach configure wrapped when the engine keeps secrets; the provider host
 * unwraps the top level only. The values are needed in clear here, and never leave this process.
 */
function unwrapSecrets(v: unknown): unknown {
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.map(unwrapSecrets);
  const o = v as Record<string, unknown>;
  if (o["4dabf18193072939515e22adb298388d"] === "1b47061264138c4ac30d75fd1eb44270") return unwrapSecrets(o.value);
  return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, unwrapSecrets(x)]));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** `cloudbees:connections` as an object of objects: given as an object, or as its JSON text (the engine sends either). */
export function parseConnections(raw: unknown): Record<string, Record<string, unknown>> {
  if (raw === undefined || raw === null || raw === "") return {};
  let value: unknown = raw;
  // Measured before it is parsed or walked: a value nested 20,000 deep would overflow the stack naming nothing.
  const tooDeep = `nested deeper than ${MAX_JSON_DEPTH} levels; a connection nests three (connections.<name>.instances.<name>.url)`;
  if (typeof value === "string" && jsonTextTooDeep(value)) throw invalid(CONNECTIONS_KEY, tooDeep);
  if (typeof value !== "string" && valueTooDeep(value)) throw invalid(CONNECTIONS_KEY, tooDeep);
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      throw invalid(CONNECTIONS_KEY, "expected an object of named connections; set its keys one by one with pulumi config set --path");
    }
  }
  value = unwrapSecrets(value);
  if (!isObject(value)) throw invalid(CONNECTIONS_KEY, "expected an object of named connections; set its keys one by one with pulumi config set --path");
  const out: Record<string, Record<string, unknown>> = {};
  for (const [name, entry] of Object.entries(value)) {
    const path = `${CONNECTIONS_KEY}.${name}`;
    const problem = nameProblem(name);
    if (problem) throw invalid(path, `"${name}" is not a usable connection name: ${problem}`);
    if (!isObject(entry)) throw invalid(path, `expected an object with the connection's keys (${CONNECTION_KEYS.join(", ")})`);
    const unknown = Object.keys(entry).filter((k) => !CONNECTION_KEYS.includes(k));
    if (unknown.length) throw invalid(`${path}.${unknown[0]}`, `unknown key; a connection has ${CONNECTION_KEYS.join(", ")}`);
    if (entry.instances !== undefined && !isObject(entry.instances)) {
      throw invalid(`${path}.instances`, "expected an object of named instances, each with url and optional username and apiToken");
    }
    out[name] = entry;
  }
  return out;
}

/** The names of the configured connections, `default` first (it always exists: top-level keys and environment), then sorted. */
export function connectionNames(config: RawConfig): string[] {
  return [DEFAULT_CONNECTION, ...Object.keys(parseConnections(config.connections)).filter((n) => n !== DEFAULT_CONNECTION).sort()];
}

/** A connection that is not configured: the message gives the commands that configure it. */
export function unknownConnection(name: string, known: string[]): SettingError {
  const keys: SettingName[] = ["operationsCenterUrl", "username", "apiToken", "featureManagementToken"];
  const lines = keys.map((n) => `  ${howToSet(n, name)}`);
  return new SettingError(
    [],
    `connection "${name}" is not configured: ${CONNECTIONS_KEY} has no "${name}" (connections: ${known.join(", ")}). ` +
      `Configure it (the operations center's keys for CasC resources, the feature-flag token for applications) with:\n${lines.join("\n")}`,
  );
}

/**
 * The settings of connection `name`. `overrides` win over the connection's values one by one (the functions'
 * `settings` option). Throws a SettingError naming the key and the command for anything unusable.
 */
export function resolveConnection(
  config: RawConfig,
  name: string = DEFAULT_CONNECTION,
  env: NodeJS.ProcessEnv = process.env,
  overrides: RawConfig = {},
): ConnectionSettings {
  const connections = parseConnections(config.connections);
  const { connections: _ignored, ...topLevel } = config;
  const entry = connections[name];
  if (name !== DEFAULT_CONNECTION && !entry) throw unknownConnection(name, connectionNames(config));
  const { instances, ...own } = entry ?? {};
  const values: RawConfig = name === DEFAULT_CONNECTION ? { ...topLevel, ...own, ...overrides } : { ...own, ...overrides };
  const s = resolveSettings(values, name === DEFAULT_CONNECTION ? env : {}, name);
  return { ...s, instances: isObject(instances) ? instances : {} };
}

/** `cloudbees:connections.prod.instances.team-a.url` */
export function instanceKey(connection: string, instance: string, key: (typeof INSTANCE_KEYS)[number]): string {
  return `${CONNECTIONS_KEY}.${connection}.instances.${instance}.${key}`;
}

/** The command that sets an instance's key. */
export function howToSetInstance(connection: string, instance: string, key: (typeof INSTANCE_KEYS)[number]): string {
  const placeholder = { url: "https://ci.example.com/team-a/", username: "<admin-user>", apiToken: "<token>" }[key];
  return howToSetPath(instanceKey(connection, instance, key), placeholder, key === "apiToken");
}

/** The instance `name` of connection `s`: its URL and own credentials, checked. */
export function instanceSettings(s: ConnectionSettings, name: string): InstanceSettings {
  const entry = s.instances[name];
  if (entry === undefined) {
    const known = Object.keys(s.instances);
    throw new SettingError(
      [],
      `connection "${s.connection}" has no instance "${name}" (instances: ${known.length ? known.join(", ") : "none"}). Set its URL with:\n` +
        `  ${howToSetInstance(s.connection, name, "url")}\n` +
        `and, if its credentials differ from the connection's:\n  ${howToSetInstance(s.connection, name, "username")}\n  ${howToSetInstance(s.connection, name, "apiToken")}`,
    );
  }
  if (!isObject(entry)) throw invalid(`${CONNECTIONS_KEY}.${s.connection}.instances.${name}`, "expected an object with url and optional username and apiToken");
  const unknown = Object.keys(entry).filter((k) => !(INSTANCE_KEYS as readonly string[]).includes(k));
  if (unknown.length) throw invalid(instanceKey(s.connection, name, unknown[0] as "url"), `unknown key; an instance has ${INSTANCE_KEYS.join(", ")}`);
  const text = (key: (typeof INSTANCE_KEYS)[number]): string | undefined => {
    const v = entry[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== "string") throw invalid(instanceKey(s.connection, name, key), `expected text, got ${typeof v}. Fix: ${howToSetInstance(s.connection, name, key)}`);
    return v.trim() === "" ? undefined : v.trim();
  };
  const url = text("url");
  if (url === undefined) {
    throw new SettingError([], `missing setting ${instanceKey(s.connection, name, "url")} (base URL of the instance, with its prefix). Set it with:\n  ${howToSetInstance(s.connection, name, "url")}`);
  }
  return { name, url, username: text("username"), apiToken: text("apiToken") };
}

/** Where a credential was set, for messages that tell the user what to fix. */
export interface CredentialSource {
  /** The stack config key (`cloudbees:apiToken`, `cloudbees:connections.prod.instances.team-a.apiToken`). */
  key: string;
  /** The command that sets it. */
  command: string;
}

export interface CredentialSources {
  username: CredentialSource;
  apiToken: CredentialSource;
}

/** The keys of the credentials a connection (or one of its instances, for those it sets itself) uses. */
export function credentialSources(connection: string, instance?: InstanceSettings): CredentialSources {
  const source = (key: "username" | "apiToken"): CredentialSource =>
    instance?.[key] !== undefined
      ? { key: instanceKey(connection, instance.name, key), command: howToSetInstance(connection, instance.name, key) }
      : { key: settingKeyOf(key, connection), command: howToSet(key, connection) };
  return { username: source("username"), apiToken: source("apiToken") };
}
