import { createHash } from "node:crypto";
import { OperationsCenterClient } from "../../clients/operations-center-client";
import { operationsCenter, type OperationsCenterConnection } from "../../config/clients";
import { invalidSetting, missingSettings, resolveSettings } from "../../config/settings";
import { providerState } from "../../config/state";
import { ConfigurationError } from "../../http/errors";
import type { HttpOptions } from "../../http/options";
import { bundleListOf, type BundleListCache } from "./bundle-list-cache";
import { accessProblem, messageOf, operationFailed } from "./errors";

/**
 * The instance an action resource talks to: the operations center (no `instanceUrl`), or the operations center or a
 * controller at `instanceUrl`, with the stack's credentials (`cloudbees:username` / `cloudbees:apiToken`: the same
 * administrator on every instance, as with the operations center's single sign-on).
 */
export interface InstanceConnection {
  /** An OperationsCenterClient only when `isOperationsCenter`; otherwise use the InstanceClient methods only. */
  client: OperationsCenterClient;
  /** Base URL as the client uses it (trailing slash). */
  url: string;
  username: string;
  /** true when the call goes to the configured operations center (no instanceUrl). */
  isOperationsCenter: boolean;
  /** "the operations center" or "the instance": for messages. */
  what: string;
  /** The shared bundle list of the configured operations center: only when isOperationsCenter. */
  bundles?: BundleListCache;
  oc?: OperationsCenterConnection;
}

const USER_AGENT = "pulumi-cloudbees-provider";
/** Clients of this module, per process, beside those of ../../config (a registered symbol: see config/state.ts). */
const CLIENTS_KEY = Symbol.for("pulumi-cloudbees.resource-instance-clients");

function clients(): Map<string, OperationsCenterClient> {
  const holder = globalThis as unknown as Record<symbol, Map<string, OperationsCenterClient> | undefined>;
  return (holder[CLIENTS_KEY] ??= new Map());
}

function digest(parts: unknown[]): string {
  // Keys hold a hash of the token, never the token.
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex");
}

/**
 * A client for `baseUrl` with the stack's credentials and network settings; `minTimeoutMs` raises the deadline of
 * each attempt for a call known to take long (a check-out waits up to its `timeout` on the server).
 * Throws a SettingError naming what is missing, or one naming `input` when the URL cannot be used.
 */
function clientFor(baseUrl: string, input: string, purpose: string, minTimeoutMs?: number): OperationsCenterClient {
  const s = resolveSettings(providerState().stackConfig ?? {});
  const missing = (["username", "apiToken"] as const).filter((n) => !s[n]);
  if (missing.length) throw missingSettings([...missing], purpose);
  const http: HttpOptions = { userAgent: USER_AGENT, ...s.http };
  if (minTimeoutMs !== undefined && minTimeoutMs > (http.timeoutMs ?? 30_000)) http.timeoutMs = minTimeoutMs;
  const key = digest([baseUrl, s.username, s.apiToken, http]);
  const cache = clients();
  let client = cache.get(key);
  if (!client) {
    try {
      client = new OperationsCenterClient({ baseUrl, username: s.username!, apiToken: s.apiToken!, ...http });
    } catch (e) {
      if (e instanceof ConfigurationError && e.setting === "baseUrl") {
        const reason = e.message.replace(/^configuring the client: invalid setting \S+: /, "").replace(/\.$/, "");
        if (input === "operationsCenterUrl") throw invalidSetting("operationsCenterUrl", reason);
        throw new Error(`${input} "${baseUrl}" cannot be used: ${reason.replace("set allowInsecureHttp: true", "set cloudbees:allowInsecureHttp to true")}`);
      }
      throw e;
    }
    cache.set(key, client);
  }
  return client;
}

/**
 * The connection for one call of an action resource. A missing setting or an unusable URL fails here, before any
 * request, as "<operation> (<id>): <cause naming the setting or input>".
 */
export function instance(operation: string, id: string, instanceUrl: string | undefined, opts: { minTimeoutMs?: number } = {}): InstanceConnection {
  try {
    if (instanceUrl === undefined) {
      const oc = operationsCenter();
      const configured = resolveSettings(providerState().stackConfig ?? {}).http.timeoutMs ?? 30_000;
      const client =
        opts.minTimeoutMs === undefined || opts.minTimeoutMs <= configured
          ? oc.client
          : clientFor(oc.url, "operationsCenterUrl", "to manage CasC bundles on the operations center", opts.minTimeoutMs);
      return { client, url: oc.url, username: oc.username, isOperationsCenter: true, what: "the operations center", bundles: bundleListOf(oc), oc };
    }
    const client = clientFor(instanceUrl, "instanceUrl", `to call the CasC API of ${instanceUrl}`, opts.minTimeoutMs);
    const s = resolveSettings(providerState().stackConfig ?? {});
    return { client, url: client.baseUrl, username: s.username!, isOperationsCenter: false, what: "the instance" };
  } catch (e) {
    throw operationFailed(operation, id, accessProblem(e) ?? messageOf(e), e);
  }
}

/** Turns a failed call into the resource's error; credentials problems name the settings to fix. */
export function instanceCallFailed(conn: InstanceConnection, operation: string, id: string, error: unknown, cause?: string): Error {
  const access = accessProblem(error, conn, conn.what);
  return operationFailed(operation, id, access ?? cause ?? messageOf(error), access || cause ? error : undefined);
}

/** "operations-center", or the instance URL: for ids and messages. */
export function instanceLabel(instanceUrl: string | undefined): string {
  return instanceUrl === undefined ? "operations-center" : instanceUrl;
}
