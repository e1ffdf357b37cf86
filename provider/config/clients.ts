import { createHash } from "node:crypto";
import { FeatureManagementClient, DEFAULT_FEATURE_MANAGEMENT_URL } from "../clients/feature-management-client";
import { InstanceClient } from "../clients/instance-client";
import { OperationsCenterClient } from "../clients/operations-center-client";
import { ConfigurationError, InvalidInputError } from "../http/errors";
import type { HttpOptions } from "../http/options";
import { providerState } from "./state";
import { invalidSetting, missingSettings, resolveSettings, type ResolvedSettings, type SettingName } from "./settings";

/** The operations-center connection the CasC resources use, with what messages need to name it. */
export interface OperationsCenterConnection {
  client: OperationsCenterClient;
  url: string;
  username: string;
  /** Per operations center and user: the key of the shared bundle list. */
  key: string;
}

export interface FeatureManagementConnection {
  client: FeatureManagementClient;
  url: string;
}

const USER_AGENT = "pulumi-cloudbees-provider";

function digest(parts: unknown[]): string {
  // Client keys hold a hash of the token, never the token, so that a key printed while debugging leaks nothing.
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex");
}

function settings() {
  return resolveSettings(providerState().stackConfig ?? {});
}

/** The client's own configuration errors name its option ("baseUrl"); ours name the stack config key. */
function renameConfigurationError(error: unknown, map: Record<string, SettingName>): unknown {
  if (error instanceof ConfigurationError && map[error.setting]) {
    const reason = error.message
      .replace(/^configuring the client: invalid setting \S+: /, "")
      // The client's hint names its own option; users set the stack config key.
      .replace("set allowInsecureHttp: true", "set cloudbees:allowInsecureHttp to true")
      .replace(/\.$/, "");
    return invalidSetting(map[error.setting]!, reason);
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
  return operationsCenterFor(settings());
}

/**
 * The operations-center client for already resolved settings (the program functions resolve theirs from the
 * program's stack config), from the same per-process cache as operationsCenter(). `purpose` ends the
 * missing-settings message ("needed <purpose>").
 */
export function operationsCenterFor(s: ResolvedSettings, purpose: string = OPERATIONS_CENTER_PURPOSE): OperationsCenterConnection {
  const missing = (["operationsCenterUrl", "username", "apiToken"] as const).filter((n) => !s[n]);
  if (missing.length) throw missingSettings([...missing], purpose);
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
      throw renameConfigurationError(e, { baseUrl: "operationsCenterUrl", username: "username", apiToken: "apiToken" });
    }
    clients.set(id, client);
  }
  return { client, url: client.baseUrl, username, key: `${client.baseUrl}\n${username}` };
}

/** The feature-flag client for the current settings: one per process and settings, so its 1 request/s throttle holds. */
export function featureManagement(): FeatureManagementConnection {
  return featureManagementFor(settings());
}

/** The feature-flag client for already resolved settings, from the same per-process cache as featureManagement(). */
export function featureManagementFor(s: ResolvedSettings, purpose: string = FEATURE_MANAGEMENT_PURPOSE): FeatureManagementConnection {
  if (!s.featureManagementToken) throw missingSettings(["featureManagementToken"], purpose);
  const url = s.featureManagementUrl ?? DEFAULT_FEATURE_MANAGEMENT_URL;
  const http: HttpOptions = { userAgent: USER_AGENT, ...s.http };
  const id = digest([url, s.featureManagementToken, http]);
  const clients = providerState().featureManagementClients;
  let client = clients.get(id);
  if (!client) {
    try {
      client = new FeatureManagementClient({ baseUrl: url, token: s.featureManagementToken, ...http });
    } catch (e) {
      throw renameConfigurationError(e, { baseUrl: "featureManagementUrl", token: "featureManagementToken" });
    }
    clients.set(id, client);
  }
  return { client, url };
}

/** A CasC instance (a controller, or an operations center reached by its own URL) with the operations-center user. */
export interface InstanceClientConnection {
  client: InstanceClient;
  url: string;
  username: string;
}

/**
 * The client of the instance at `instanceUrl`, authenticated as the configured operations-center user (the CasC API
 * of controllers takes the same user and API token). One per process, URL and settings. A URL the client refuses
 * is an InvalidInputError naming `input` (it is an argument, not a setting); `operation` names the caller.
 */
export function instanceFor(
  s: ResolvedSettings,
  instanceUrl: string,
  { input = "instanceUrl", operation = "connecting to the instance" }: { input?: string; operation?: string } = {},
): InstanceClientConnection {
  const missing = (["username", "apiToken"] as const).filter((n) => !s[n]);
  if (missing.length) throw missingSettings([...missing], `to call the CasC API of ${instanceUrl}`);
  const username = s.username!;
  const http: HttpOptions = { userAgent: USER_AGENT, ...s.http };
  const id = digest([instanceUrl, username, s.apiToken, http]);
  // Created on first use: a state made by an older copy of this module has no such map.
  const clients = (providerState().instanceClients ??= new Map());
  let client = clients.get(id);
  if (!client) {
    try {
      client = new InstanceClient({ baseUrl: instanceUrl, username, apiToken: s.apiToken!, ...http });
    } catch (e) {
      if (e instanceof ConfigurationError && e.setting === "baseUrl") {
        const reason = e.message
          .replace(/^configuring the client: invalid setting \S+: /, "")
          .replace("set allowInsecureHttp: true", "set cloudbees:allowInsecureHttp to true")
          .replace(/\.$/, "");
        throw new InvalidInputError(input, reason, operation);
      }
      throw renameConfigurationError(e, { username: "username", apiToken: "apiToken" });
    }
    clients.set(id, client);
  }
  return { client, url: client.baseUrl, username };
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
