/**
 * The `connection` input of every resource, and the `instance` input of the instance-level ones, added to a
 * controller from outside: resources/index.ts wraps each controller once.
 *
 * Why a wrapper: the inputs mean the same for every resource (which server; for an instance-level resource, which
 * of the connection's named instances), and so does what follows from them: check validates the names, a change
 * replaces the resource (it is another server), outputs and refreshed inputs repeat them, and every method runs
 * inside the connection's scope (config/scope.ts), where operationsCenter(), featureManagement(), the instance
 * helpers, the bundle-list cache and operationFailed find the connection by themselves. One place for all of it
 * keeps the controllers as they were: a controller's file still holds that resource's whole behaviour, and
 * connections are this file's behaviour.
 *
 * The controllers never see the two inputs (they are taken out before a call and put back into what it returns),
 * so their own input checks and diffs stay about their own inputs. The state holds the names only: URLs and
 * credentials stay in the stack config.
 */
import { connectionNames, instanceSettings, nameProblem, resolveConnection, type ConnectionSettings } from "../../config/connections";
import { inScope, type ConnectionScope } from "../../config/scope";
import { CONNECTIONS_KEY, DEFAULT_CONNECTION, type RawConfig } from "../../config/settings";
import { providerState } from "../../config/state";
import { holdsCredential } from "../../text/credentials";
import { withoutCredential } from "./check";
import { messageOf, withPartialProperties } from "./errors";
import type { CheckFailure, DiffResult, Props, ResourceController } from "./types";
import { isUnknown } from "./values";

export const CONNECTION_INPUT = "connection";
export const INSTANCE_INPUT = "instance";

export interface ConnectionInputsSpec {
  /** The resource talks to an instance (`instanceUrl`), so it also takes `instance`. */
  instanceLevel?: boolean;
  /** Inputs that exclude `instance`, as they exclude `instanceUrl` (BundleValidation's bundleTreePath). */
  instanceConflicts?: string[];
  /** The resource talks to a controller only: `instanceUrl` or `instance` is required (ControllerConfiguration). */
  instanceRequired?: boolean;
}

/** The resource's own inputs, without the two this wrapper handles. */
function own(props: Props): Props {
  const { [CONNECTION_INPUT]: _c, [INSTANCE_INPUT]: _i, ...rest } = props;
  return rest;
}

/** The two inputs as given (absent ones left out), to put back into outputs and refreshed inputs. */
function names(props: Props): Props {
  const out: Props = {};
  for (const k of [CONNECTION_INPUT, INSTANCE_INPUT]) if (typeof props[k] === "string") out[k] = props[k];
  return out;
}

function scopeOf(props: Props): ConnectionScope {
  const connection = typeof props[CONNECTION_INPUT] === "string" ? (props[CONNECTION_INPUT] as string) : DEFAULT_CONNECTION;
  const instance = typeof props[INSTANCE_INPUT] === "string" ? (props[INSTANCE_INPUT] as string) : undefined;
  return instance === undefined ? { connection } : { connection, instance };
}

/** `connection` and `instance` name configured entries (a missing key inside one fails at the first call instead). */
function checkNames(news: Props, spec: ConnectionInputsSpec): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const name = (property: string, example: string): string | undefined => {
    const v = news[property];
    if (v === undefined || v === null || isUnknown(v)) return undefined;
    if (typeof v !== "string" || v.trim() === "") {
      failures.push({ property, reason: `${property} must be the name of a ${property} in ${CONNECTIONS_KEY}, e.g. ${property}: "${example}"` });
      return undefined;
    }
    if (holdsCredential(v)) {
      failures.push({ property, reason: `${property} looks like a credential, not a name: give the name of a ${property} in ${CONNECTIONS_KEY}, e.g. ${property}: "${example}" (tokens belong in the stack config, set with --secret)` });
      return undefined;
    }
    const problem = nameProblem(v);
    if (problem) {
      failures.push({ property, reason: `${property} "${v}" is not a usable name: ${problem}` });
      return undefined;
    }
    return v;
  };
  const connection = name(CONNECTION_INPUT, "prod");
  const instance = name(INSTANCE_INPUT, "team-a");
  if (news[INSTANCE_INPUT] !== undefined && news[INSTANCE_INPUT] !== null) {
    if (!spec.instanceLevel) {
      failures.push({ property: INSTANCE_INPUT, reason: `instance does not apply here: this resource talks to the connection's operations center or feature-flag service; leave it out` });
    }
    for (const other of ["instanceUrl", ...(spec.instanceConflicts ?? [])]) {
      if (news[other] !== undefined && news[other] !== null) {
        failures.push({ property: INSTANCE_INPUT, reason: `give either instance (a name from the connection's instances) or ${other}, not both` });
      }
    }
  }
  if (spec.instanceRequired && (news[INSTANCE_INPUT] ?? null) === null && (news["instanceUrl"] ?? null) === null) {
    failures.push({ property: "instanceUrl", reason: `give the controller: instanceUrl (its base URL, e.g. instanceUrl: "https://ci.example.com/team-a/") or instance (its name in the connection's instances)` });
  }
  if (failures.length || (connection === undefined && instance === undefined)) return failures;
  // The names are checked against the stack config here, at preview; a missing or bad key inside a configured
  // connection or instance is left to the first call that needs it (an Application needs no operations center).
  const config = providerState().stackConfig ?? {};
  let settings: ConnectionSettings;
  try {
    settings = resolveConnection(config, connection ?? DEFAULT_CONNECTION);
  } catch (e) {
    if (connection !== undefined && !isConfigured(config, connection)) failures.push({ property: CONNECTION_INPUT, reason: messageOf(e) });
    return failures;
  }
  if (instance !== undefined && spec.instanceLevel && !(instance in settings.instances)) {
    try {
      instanceSettings(settings, instance);
    } catch (e) {
      failures.push({ property: INSTANCE_INPUT, reason: messageOf(e) });
    }
  }
  return failures;
}

/** Whether `connection` is `default` or an entry of a readable `cloudbees:connections`. */
function isConfigured(config: RawConfig, connection: string): boolean {
  try {
    return connectionNames(config).includes(connection);
  } catch {
    return false;
  }
}

/** A change of connection or instance replaces the resource; a value not known yet may be one. */
function replacedBy(olds: Props, news: Props): string[] {
  const connectionOf = (p: Props) => (typeof p[CONNECTION_INPUT] === "string" ? p[CONNECTION_INPUT] : DEFAULT_CONNECTION);
  const out: string[] = [];
  if (isUnknown(news[CONNECTION_INPUT]) || connectionOf(olds) !== connectionOf(news)) out.push(CONNECTION_INPUT);
  if (isUnknown(news[INSTANCE_INPUT]) || (olds[INSTANCE_INPUT] ?? null) !== (news[INSTANCE_INPUT] ?? null)) out.push(INSTANCE_INPUT);
  return out;
}

export function withConnection(controller: ResourceController, spec: ConnectionInputsSpec = {}): ResourceController {
  return {
    async check(olds, news) {
      const result = await controller.check(own(olds), own(news));
      // A token typed where a name belongs is told without its value, as the controllers' checks tell theirs.
      const named = checkNames(news, spec).map((f) => withoutCredential(f, news[f.property]));
      return { inputs: { ...result.inputs, ...names(news) }, failures: [...result.failures, ...named] };
    },
    async diff(id, olds, news) {
      const base: DiffResult = await controller.diff(id, own(olds), own(news));
      const extra = replacedBy(olds, news);
      return { ...base, changes: base.changes || extra.length > 0, replaces: [...base.replaces, ...extra] };
    },
    create(inputs) {
      return inScope(scopeOf(inputs), async () => {
        try {
          const result = await controller.create(own(inputs));
          return { ...result, outs: { ...result.outs, ...names(inputs) } };
        } catch (e) {
          // The outputs a partial create records keep the names, so that the later read or delete goes to the same connection.
          throw withPartialProperties(e, (p) => ({ ...p, ...names(inputs) }));
        }
      });
    },
    read(id, props) {
      return inScope(scopeOf(props), async () => {
        const result = await controller.read(id, own(props));
        if (result.props === undefined) return result;
        return { ...result, props: { ...result.props, ...names(props) }, inputs: result.inputs && { ...result.inputs, ...names(props) } };
      });
    },
    update(id, olds, news) {
      return inScope(scopeOf(news), async () => {
        const result = await controller.update(id, own(olds), own(news));
        return { outs: { ...result.outs, ...names(news) } };
      });
    },
    delete(id, props) {
      return inScope(scopeOf(props), () => controller.delete(id, own(props)));
    },
  };
}
