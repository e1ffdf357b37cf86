import { createHash } from "node:crypto";
import { FeatureManagementClient, DEFAULT_FEATURE_MANAGEMENT_URL } from "../clients/feature-management-client";
import { InstanceClient } from "../clients/instance-client";
import { OperationsCenterClient } from "../clients/operations-center-client";
import { ConfigurationError, InvalidInputError } from "../http/errors";
import { headerValueProblem } from "../http/header-value";
import { quotedUrl } from "../http/url";
import type { HttpOptions } from "../http/options";
import {
  credentialSources,
  howToSetInstance,
  instanceKey,
  instanceSettings,
  resolveConnection,
  type ConnectionSettings,
  type CredentialSources,
} from "./connections";
import { currentScope } from "./scope";
import { providerState } from "./state";
import { invalidSetting, missingSettings, SettingError, settingKey, type ResolvedSettings, type SettingName } from "./settings";

/** The operations-center connection the CasC resources use, with what messages need to name it. */
export interface OperationsCenterConnection {
  client: OperationsCenterClient;
  url: string;
  username: string;
  /** Per operations center and user: the key of the shared bundle list. */
  key: string;
  /** The connection's name (`default`: the top-level settings). */
  connection: string;
  /** Where its credentials are set, for messages. */
  credentials: CredentialSources;
}

export interface FeatureManagementConnection {
  client: FeatureManagementClient;
  url: string;
  connection: string;
}

const USER_AGENT = "pulumi-cloudbees-provider";

function digest(parts: unknown[]): string {
  // Client keys hold a hash of the token, never the token, so that a key printed while debugging leaks nothing.
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex");
}

/** The settings of the connection the current call is for (see scope.ts), from the stack config kept by configure(). */
export function currentSettings(): ConnectionSettings {
  return resolveConnection(providerState().stackConfig ?? {}, currentScope().connection);
}

/** The reason of a client's configuration error, its hint naming the stack config key rather than the client's option. */
function configurationReason(error: ConfigurationError, connection: string): string {
  return error.message
    .replace(/^configuring the client: invalid setting \S+: /, "")
    .replace("set allowInsecureHttp: true", `set ${settingKey("allowInsecureHttp", connection)} to true`)
    .replace(/\.$/, "");
}

/** The client's own configuration errors name its option ("baseUrl"); ours name the stack config key. */
function renameConfigurationError(error: unknown, map: Record<string, SettingName>, connection: string): unknown {
  if (error instanceof ConfigurationError && map[error.setting]) {
    return invalidSetting(map[error.setting]!, configurationReason(error, connection), connection);
  }
  return error;
}

const OPERATIONS_CENTER_PURPOSE = "to manage CasC bundles on the operations center";
const FEATURE_MANAGEMENT_PURPOSE = "to manage feature-flag applications";

/**
 * The operations-center client for the current settings, one per process and settings (so one connection pool,
 * and one shared bundle list per operations center and user). Throws a SettingError naming what is missing.
 */
export function operationsCenter(): OperationsCenterConnection {
  return operationsCenterFor(currentSettings());
}

/**
 * The operations-center client for already resolved settings (the program functions resolve theirs from the
 * program's stack config), from the same per-process cache as operationsCenter(). `purpose` ends the
 * missing-settings message ("needed <purpose>").
 */
export function operationsCenterFor(s: ResolvedSettings, purpose: string = OPERATIONS_CENTER_PURPOSE): OperationsCenterConnection {
  const missing = (["operationsCenterUrl", "username", "apiToken"] as const).filter((n) => !s[n]);
  if (missing.length) throw missingSettings([...missing], purpose, s.connection);
  const url = s.operationsCenterUrl!;
  const username = s.username!;
  const http: HttpOptions = { userAgent: USER_AGENT, ...s.http };
  const id = digest([url, username, s.apiToken, http]);
  const clients = providerState().operationsCenterClients;
  let client = clients.get(id);
  if (!client) {
    try {
      client = new OperationsCenterClient({ baseUrl: url, username, apiToken: s.apiToken!, ...http });
    } catch (e) {
      throw renameConfigurationError(e, { baseUrl: "operationsCenterUrl", username: "username", apiToken: "apiToken" }, s.connection);
    }
    clients.set(id, client);
  }
  // Two connections to the same operations center as the same user share one list: it is the same data, and a
  // write through either must keep the other's later reads from joining a list sent before it.
  return { client, url: client.baseUrl, username, key: `${client.baseUrl}\n${username}`, connection: s.connection, credentials: credentialSources(s.connection) };
}

/** The feature-flag client for the current settings: one per process and settings, so its 1 request/s throttle holds. */
export function featureManagement(): FeatureManagementConnection {
  return featureManagementFor(currentSettings());
}

/** The feature-flag client for already resolved settings, from the same per-process cache as featureManagement(). */
export function featureManagementFor(s: ResolvedSettings, purpose: string = FEATURE_MANAGEMENT_PURPOSE): FeatureManagementConnection {
  if (!s.featureManagementToken) throw missingSettings(["featureManagementToken"], purpose, s.connection);
  // Sent as is in the authorization header: a value it cannot carry fails here, naming the setting, not the network.
  const tokenProblem = headerValueProblem(s.featureManagementToken);
  if (tokenProblem) throw invalidSetting("featureManagementToken", tokenProblem, s.connection);
  const url = s.featureManagementUrl ?? DEFAULT_FEATURE_MANAGEMENT_URL;
  const http: HttpOptions = { userAgent: USER_AGENT, ...s.http };
  const interval = s.featureManagementRequestIntervalMs;
  const id = digest([url, s.featureManagementToken, http, interval]);
  const clients = providerState().featureManagementClients;
  let client = clients.get(id);
  if (!client) {
    try {
      client = new FeatureManagementClient({ baseUrl: url, token: s.featureManagementToken, ...http, ...(interval === undefined ? {} : { minRequestIntervalMs: interval }) });
    } catch (e) {
      throw renameConfigurationError(e, { baseUrl: "featureManagementUrl", token: "featureManagementToken" }, s.connection);
    }
    clients.set(id, client);
  }
  // The 1 request/s spacing is per service origin (the service counts per client IP), across connections.
  return { client, url, connection: s.connection };
}

/** A CasC instance (a controller, or an operations center reached by its own URL) with the credentials it takes. */
export interface InstanceClientConnection {
  client: InstanceClient;
  url: string;
  username: string;
  connection: string;
  credentials: CredentialSources;
}

interface InstanceTarget {
  url: string;
  username: string;
  apiToken: string;
  credentials: CredentialSources;
}

/** One client per process, URL, credentials and HTTP settings. A URL the client refuses is the error `badUrl` makes. */
function instanceClient(s: ResolvedSettings, target: InstanceTarget, badUrl: (reason: string) => Error): InstanceClientConnection {
  const http: HttpOptions = { userAgent: USER_AGENT, ...s.http };
  const id = digest([target.url, target.username, target.apiToken, http]);
  // Created on first use: a state made by an older copy of this module has no such map.
  const clients = (providerState().instanceClients ??= new Map());
  let client = clients.get(id);
  if (!client) {
    try {
      client = new InstanceClient({ baseUrl: target.url, username: target.username, apiToken: target.apiToken, ...http });
    } catch (e) {
      if (e instanceof ConfigurationError && e.setting === "baseUrl") throw badUrl(configurationReason(e, s.connection));
      throw renameConfigurationError(e, { username: "username", apiToken: "apiToken" }, s.connection);
    }
    clients.set(id, client);
  }
  return { client, url: client.baseUrl, username: target.username, connection: s.connection, credentials: target.credentials };
}

/**
 * The client of the instance at `instanceUrl`, authenticated as the connection's operations-center user (the CasC
 * API of controllers takes the same user and API token under single sign-on). A URL the client refuses is an
 * InvalidInputError naming `input` (it is an argument, not a setting); `operation` names the caller.
 */
export function instanceFor(
  s: ResolvedSettings,
  instanceUrl: string,
  { input = "instanceUrl", operation = "connecting to the instance" }: { input?: string; operation?: string } = {},
): InstanceClientConnection {
  const missing = (["username", "apiToken"] as const).filter((n) => !s[n]);
  if (missing.length) throw missingSettings([...missing], `to call the CasC API of ${quotedUrl(instanceUrl)}`, s.connection);
  const target = { url: instanceUrl, username: s.username!, apiToken: s.apiToken!, credentials: credentialSources(s.connection) };
  return instanceClient(s, target, (reason) => new InvalidInputError(input, reason, operation));
}

/**
 * The client of the instance `name` of the connection (`cloudbees:connections.<c>.instances.<name>`): its URL, with
 * its own username and API token where it sets them, else the connection's. A missing instance or key is a
 * SettingError with the command that sets it.
 */
export function namedInstanceFor(s: ConnectionSettings, name: string): InstanceClientConnection {
  const inst = instanceSettings(s, name);
  const username = inst.username ?? s.username;
  const apiToken = inst.apiToken ?? s.apiToken;
  const missing = (["username", "apiToken"] as const).filter((n) => !(n === "username" ? username : apiToken));
  if (missing.length) throw missingSettings([...missing], `to call the CasC API of instance "${name}" (or set its own: cloudbees:connections.${s.connection}.instances.${name}.${missing[0]})`, s.connection);
  const target = { url: inst.url, username: username!, apiToken: apiToken!, credentials: credentialSources(s.connection, inst) };
  const key = instanceKey(s.connection, name, "url");
  return instanceClient(s, target, (reason) => new SettingError([], `invalid setting ${key}: ${reason}. Fix: ${howToSetInstance(s.connection, name, "url")}`));
}

/**
 * Closes every client of this process and forgets them (the stack config kept by configure() stays). Idle
 * connections never keep a process alive (undici unreferences idle sockets), so scripts need not call this; it is
 * for tests and long-running processes that change settings.
 */
export async function closeClients(): Promise<void> {
  const state = providerState();
  const all = [
    ...state.operationsCenterClients.values(),
    ...state.featureManagementClients.values(),
    ...(state.instanceClients?.values() ?? []),
  ];
  state.operationsCenterClients.clear();
  state.featureManagementClients.clear();
  state.instanceClients?.clear();
  await Promise.all(all.map((c) => c.close()));
}
