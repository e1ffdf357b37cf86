import type { InstanceClient } from "../../clients/instance-client";
import type { OperationsCenterClient } from "../../clients/operations-center-client";
import { instanceFor, operationsCenter, type OperationsCenterConnection } from "../../config/clients";
import { resolveSettings } from "../../config/settings";
import { providerState } from "../../config/state";
import { InvalidInputError } from "../../http/errors";
import { bundleListOf, type BundleListCache } from "./bundle-list-cache";
import { accessProblem, messageOf, operationFailed } from "./errors";

/**
 * The instance an action resource talks to: the operations center (no `instanceUrl`), or the operations center or a
 * controller at `instanceUrl`, with the stack's credentials (`cloudbees:username` / `cloudbees:apiToken`: the same
 * administrator on every instance, as with the operations center's single sign-on). Clients come from the per-process
 * caches of ../../config.
 */
export interface InstanceConnection {
  client: InstanceClient;
  /** Base URL as the client uses it (trailing slash). */
  url: string;
  username: string;
  /** true when the call goes to the configured operations center (no instanceUrl). */
  isOperationsCenter: boolean;
  /** "the operations center" or "the instance": for messages. */
  what: string;
}

/** The configured operations center, for its own endpoints, with its shared bundle list. */
export interface OperationsCenterInstance extends InstanceConnection {
  client: OperationsCenterClient;
  isOperationsCenter: true;
  bundles: BundleListCache;
  oc: OperationsCenterConnection;
}

/**
 * The configured operations center. A missing setting fails here, before any request, as
 * "<operation> (<id>): <cause naming the setting>".
 */
export function operationsCenterInstance(operation: string, id: string): OperationsCenterInstance {
  try {
    const oc = operationsCenter();
    return { client: oc.client, url: oc.url, username: oc.username, isOperationsCenter: true, what: "the operations center", bundles: bundleListOf(oc), oc };
  } catch (e) {
    throw operationFailed(operation, id, accessProblem(e) ?? messageOf(e), e);
  }
}

/**
 * The instance at `instanceUrl`, or the configured operations center without one. A missing setting or an unusable
 * URL fails here, before any request, as "<operation> (<id>): <cause naming the setting or input>".
 */
export function instance(operation: string, id: string, instanceUrl: string | undefined): InstanceConnection {
  if (instanceUrl === undefined) return operationsCenterInstance(operation, id);
  try {
    const conn = instanceFor(resolveSettings(providerState().stackConfig ?? {}), instanceUrl, { input: "instanceUrl", operation });
    return { client: conn.client, url: conn.url, username: conn.username, isOperationsCenter: false, what: "the instance" };
  } catch (e) {
    if (e instanceof InvalidInputError) throw operationFailed(operation, id, `instanceUrl "${instanceUrl}" cannot be used: ${e.reason}`, e);
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
