import { quotedUrl } from "../../http/url";
import type { InstanceClient } from "../../clients/instance-client";
import type { OperationsCenterClient } from "../../clients/operations-center-client";
import { currentSettings, instanceFor, namedInstanceFor, operationsCenter, type OperationsCenterConnection } from "../../config/clients";
import type { CredentialSources } from "../../config/connections";
import { currentScope } from "../../config/scope";
import { InvalidInputError } from "../../http/errors";
import { bundleListOf, type BundleListCache } from "./bundle-list-cache";
import { accessProblem, messageOf, operationFailed } from "./errors";

/**
 * The instance an action resource talks to: the connection's operations center (no `instanceUrl`), the operations
 * center or a controller at `instanceUrl`, with the connection's credentials (`cloudbees:username` /
 * `cloudbees:apiToken`: the same administrator on every instance, as with the operations center's single
 * sign-on), or the connection's instance named by the resource's `instance` input, with its own credentials where
 * it has them. That name is not an argument here: the wrapper of every controller (with-connection.ts) puts it in
 * the call's scope with the connection, so the controllers need not know of it. Clients come from the per-process
 * caches of ../../config.
 */
export interface InstanceConnection {
  client: InstanceClient;
  /** Base URL as the client uses it (trailing slash). */
  url: string;
  username: string;
  /** Where the credentials are set, for messages. */
  credentials: CredentialSources;
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
    return {
      client: oc.client,
      url: oc.url,
      username: oc.username,
      credentials: oc.credentials,
      isOperationsCenter: true,
      what: "the operations center",
      bundles: bundleListOf(oc),
      oc,
    };
  } catch (e) {
    throw operationFailed(operation, id, accessProblem(e) ?? messageOf(e), e);
  }
}

/**
 * The instance at `instanceUrl`, the named instance of the call's scope, or the connection's operations center
 * without either. A missing setting or an unusable URL fails here, before any request, as
 * "<operation> (<id>): <cause naming the setting or input>".
 */
export function instance(operation: string, id: string, instanceUrl: string | undefined): InstanceConnection {
  const named = currentScope().instance;
  if (instanceUrl === undefined && named === undefined) return operationsCenterInstance(operation, id);
  try {
    const s = currentSettings();
    const conn = named !== undefined ? namedInstanceFor(s, named) : instanceFor(s, instanceUrl!, { input: "instanceUrl", operation });
    return { client: conn.client, url: conn.url, username: conn.username, credentials: conn.credentials, isOperationsCenter: false, what: "the instance" };
  } catch (e) {
    if (e instanceof InvalidInputError) throw operationFailed(operation, id, `instanceUrl "${quotedUrl(instanceUrl ?? "")}" cannot be used: ${e.reason}`, e);
    throw operationFailed(operation, id, accessProblem(e) ?? messageOf(e), e);
  }
}

/** Turns a failed call into the resource's error; credentials problems name the settings to fix. */
export function instanceCallFailed(conn: InstanceConnection, operation: string, id: string, error: unknown, cause?: string): Error {
  const access = accessProblem(error, conn, conn.what);
  return operationFailed(operation, id, access ?? cause ?? messageOf(error), access || cause ? error : undefined);
}

/** "operations-center", the instance URL, or the name of the scope's instance (`instance` input): for ids and messages. */
export function instanceLabel(instanceUrl: string | undefined): string {
  return instanceUrl ?? currentScope().instance ?? "operations-center";
}

/** "the instance at <url>", `instance "<name>"` (the scope's) or "the operations center": where the call acts, for messages. */
export function instanceDescription(instanceUrl: string | undefined): string {
  if (instanceUrl !== undefined) return `the instance at ${quotedUrl(instanceUrl)}`;
  const named = currentScope().instance;
  return named !== undefined ? `instance "${named}"` : "the operations center";
}
