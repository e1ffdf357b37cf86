import { createHash } from "node:crypto";
import { FeatureManagementClient, DEFAULT_FEATURE_MANAGEMENT_URL } from "../clients/feature-management-client";
import { OperationsCenterClient } from "../clients/operations-center-client";
import { ConfigurationError } from "../http/errors";
import type { HttpOptions } from "../http/options";
import { providerState } from "./state";
import { invalidSetting, missingSettings, resolveSettings, type SettingName } from "./settings";

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

/**
 * The operations-center client for the current settings, one per process and settings (so one connection pool,
 * and one shared bundle list per operations center and user). Throws a SettingError naming what is missing.
 */
export function operationsCenter(): OperationsCenterConnection {
  const s = settings();
  const missing = (["operationsCenterUrl", "username", "apiToken"] as const).filter((n) => !s[n]);
  if (missing.length) throw missingSettings([...missing], "to manage CasC bundles on the operations center");
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
  const s = settings();
  if (!s.featureManagementToken) throw missingSettings(["featureManagementToken"], "to manage feature-flag applications");
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
