/** What the feature-flag resources (Environment, Flag, FlagConfiguration, TargetGroup) share: the connection and its lists, errors, inputs. */
import { featureManagement, type FeatureManagementConnection } from "../../config/clients";
import { NotFoundError } from "../../http/errors";
import { accessProblem, messageOf, operationFailed, ResourceError, warn } from "../shared/errors";
import type { InputChecker } from "../shared/check";
import type { Experiment } from "../../clients/feature-flag-types";
import type { UnreadableItem } from "../../clients/readable-list-types";
import type { Props } from "../shared/types";
import { containsUnknown, isUnknown, sameJson } from "../shared/values";
import { providerState } from "../../config/state";
import { auditTrailOf, type AuditTrail } from "./audit-trail";
import { featureFlagListsOf, type FeatureFlagLists, type ListChange } from "./lists";

export interface FeatureFlags {
  fm: FeatureManagementConnection;
  lists: FeatureFlagLists;
  /** Who changed what, for the drift a refresh finds. */
  audit: AuditTrail;
}

/** The connection of the current settings and its shared lists; a missing setting fails here, naming the key. */
export function featureFlags(operation: string, id: string | undefined): FeatureFlags {
  let fm: FeatureManagementConnection;
  try {
    fm = featureManagement();
  } catch (e) {
    throw operationFailed(operation, id, accessProblem(e) ?? messageOf(e), e);
  }
  const state = providerState();
  return { fm, lists: featureFlagListsOf(fm.client), audit: auditTrailOf(fm.client, (state.auditTrails ??= new Map())) };
}

/** A failed call as the resource's error: credentials problems name the setting to fix; else the client's message. */
export function failed(operation: string, id: string | undefined, e: unknown): Error {
  const access = accessProblem(e);
  return operationFailed(operation, id, access ?? messageOf(e), access ? e : undefined);
}

/** Runs a list read; a 404 (the application or environment is gone) is undefined, any other failure the resource's error. */
export async function listOrGone<T>(operation: string, id: string, list: () => Promise<T>): Promise<T | undefined> {
  try {
    return await list();
  } catch (e) {
    if (e instanceof NotFoundError) return undefined;
    throw failed(operation, id, e);
  }
}

/** Runs a list read; any failure (a 404 included) is the resource's error, with `notFound` as the cause of a 404. */
export async function listOrFail<T>(operation: string, id: string | undefined, list: () => Promise<T>, notFound: string): Promise<T> {
  try {
    return await list();
  } catch (e) {
    if (e instanceof NotFoundError) throw operationFailed(operation, id, notFound, e);
    throw failed(operation, id, e);
  }
}

/** Inputs for which null is a value the program gives: a configuration's `value` (null: the code's default). */
const NULL_IS_A_VALUE = ["value"];

/** An input the program gives (present, and not null unless null means something): only those are compared and written. */
export function declared(props: Props, key: string): boolean {
  return props[key] !== undefined && (props[key] !== null || NULL_IS_A_VALUE.includes(key));
}

/**
 * The declared inputs of `keys` whose canonical forms differ between `news` and `olds` (a value not known yet is a
 * change; an input the program stopped declaring is not: the server keeps what it has).
 */
export function changedKeys(keys: readonly string[], olds: Props, news: Props, canonical: (key: string, value: unknown) => unknown): string[] {
  return keys.filter((k) => {
    if (!declared(news, k)) return false;
    if (containsUnknown(news[k])) return true;
    if (!declared(olds, k)) return true;
    return !sameJson(canonical(k, news[k]), canonical(k, olds[k]));
  });
}

/**
 * The inputs a read reports for the declared keys: the server's value, or the program's own form of it when the two
 * mean the same (so that a refresh after a clean up changes nothing).
 */
export function readBack(keys: readonly string[], props: Props, server: (key: string) => unknown, canonical: (key: string, value: unknown) => unknown): Props {
  const out: Props = {};
  for (const k of keys) {
    if (!declared(props, k)) continue;
    const held = server(k);
    out[k] = sameJson(canonical(k, held), canonical(k, props[k])) ? props[k] : (held ?? null);
  }
  return out;
}

/** The declared inputs of `keys`, as given. */
export function pick(props: Props, keys: readonly string[]): Props {
  const out: Props = {};
  for (const k of keys) if (declared(props, k)) out[k] = props[k];
  return out;
}

/** True when a replacement keeps the identity (`keys` equal, or not known yet): the old object must go first. */
export function sameIdentity(keys: readonly string[], olds: Props, news: Props): boolean {
  return keys.every((k) => isUnknown(news[k]) || news[k] === olds[k]);
}

/** The identity inputs that differ (or are not known yet): they replace. */
export function replacedKeys(keys: readonly string[], olds: Props, news: Props): string[] {
  return keys.filter((k) => isUnknown(news[k]) || news[k] !== olds[k]);
}

/** A write through the shared lists (updated from its answer), a failure phrased as the resource's error. */
export async function writeOrFail<T>(f: FeatureFlags, operation: string, id: string | undefined, task: () => Promise<T>, changes: (answer: T) => ListChange[], mayChange: string[]): Promise<T> {
  try {
    return await f.lists.write(task, changes, mayChange);
  } catch (e) {
    throw failed(operation, id, e);
  }
}

/** A delete through the shared lists: already gone (404) is done. */
export async function deleteOrFail(f: FeatureFlags, operation: string, id: string, task: () => Promise<void>, changes: ListChange[], mayChange: string[]): Promise<void> {
  try {
    await f.lists.write(task, () => changes, mayChange);
  } catch (e) {
    if (e instanceof NotFoundError) return;
    throw failed(operation, id, e);
  }
}

/** When a create or update of this deployment wrote (or took over) the object: recorded as the output `writtenAt`. */
export function writtenNow(): string {
  return new Date().toISOString();
}

/** The state's `writtenAt`, carried by a read unchanged (a refresh never moves it). */
export function writtenAtOf(props: Props): Props {
  return typeof props.writtenAt === "string" ? { writtenAt: props.writtenAt } : {};
}

/** The declared inputs of `keys` whose value a read found differs from the state's (what a refresh shows as drift). */
export function driftedKeys(keys: readonly string[], props: Props, read: Props): string[] {
  return keys.filter((k) => declared(props, k) && !sameJson(read[k], props[k]));
}

/** Says check's warnings (odd inputs it accepts), each after `label`: `FlagConfiguration "x" in "Production"`. */
export function warnChecked(c: InputChecker, label: string): void {
  for (const w of c.warnings) warn(`${label}: ${w.reason}`);
}

/**
 * The error of a resource whose object is in a list the service answered, but in a form this client cannot read
 * (`what`: `the configuration of flag "x" in environment "Production"`). Only that resource fails: the list's other
 * items were read, and their resources go on.
 */
export function unreadableFailure(operation: string, id: string | undefined, what: string, item: UnreadableItem): Error {
  return operationFailed(
    operation,
    id,
    `the service holds ${what}, in a form this version of pulumi-cloudbees cannot read (${item.problem}); the other ` +
      `items of that list were read. Fix: report the form (with the field above); meanwhile change it in the CloudBees ` +
      `Feature Management UI, or stop managing it here (pulumi state delete)`,
  );
}

/**
 * A configuration the service holds (an experiment), as a write sends it back whole: without the fields a write
 * takes from elsewhere (identity, type, the flag's values) and without nulls, every other field kept as it came
 * (those this package has no name for too), so that a write changes only what it means to.
 */
export function configurationOf(current: Experiment | undefined): Record<string, unknown> {
  if (!current) return {};
  const { version: _v, type: _t, flag: _f, name: _n, availableValues: _a, ...rest } = current;
  // A null list is the service's "none"; a null value means something (the code's default) and stays.
  return Object.fromEntries(Object.entries(rest).filter(([k, v]) => v !== undefined && (v !== null || k === "value")));
}

/**
 * A change the service refuses to make through its API, whatever is retried (an existing target group under a
 * service that only creates them: 409). Typed, so that a caller can tell it from a failure worth retrying; the
 * message names the way out.
 */
export class ChangeRefusedError extends ResourceError {
  constructor(
    message: string,
    readonly status: number | undefined,
    cause: unknown,
  ) {
    super(message, { cause });
    this.name = "ChangeRefusedError";
  }
}
