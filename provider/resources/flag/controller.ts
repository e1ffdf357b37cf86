/**
 * Flag: a feature flag, app-wide (it exists in every environment of the application).
 *
 * | operation | calls | notes |
 * |---|---|---|
 * | check | nothing | name usable in a URL path; availableValues a non-empty set of distinct options; onDelete "archive" or "delete"; a change of availableValues while the state says onDelete "archive" is refused (the old flag would be kept under the new one's name) |
 * | diff | nothing | applicationId, name or availableValues (as a set) change replaces: the service fixes them. A replacement that keeps the name deletes the old flag first (deleteBeforeReplace), or the engine's late delete would remove the new one. onDelete changes in place |
 * | create | the shared GET .../environments and GET .../{first environment}/flags; PUT .../flags only when no flag has the name | takeover of a flag with the same values without a write; other values: fails with the fix |
 * | read | the shared GET .../environments and GET .../{first environment}/flags | gone: dropped |
 * | update | PUT .../{environment}/flags/{name} with the flag's configuration there and the new isPermanent (the shared GET .../environments and GET .../{environment}/experiments find an environment where it is configured); onDelete alone: nothing | only isPermanent and onDelete change in place; the service changes permanence only with a configuration |
 * | delete | onDelete "delete" (the default): DELETE .../flags/{name}. onDelete "archive": the shared GET .../environments and GET .../{environment}/experiments, then PUT .../{environment}/experiments for each configuration not archived and off already | delete: the flag and its configuration in every environment. archive: the flag, its values and its configurations stay, each archived and off; an environment without one is left as it is; a lost answer is settled by reading the list again. Already gone: nothing to do |
 */
import type { Flag, FlagOption } from "../../clients/feature-flag-types";
import { InputChecker } from "../shared/check";
import { operationFailed } from "../shared/errors";
import type { CheckResult, DiffResult, Props, ReadResult, ResourceController } from "../shared/types";
import { containsUnknown, isUnknown, plain } from "../shared/values";
import { DEFAULT_AVAILABLE_VALUES, sameAvailableValues } from "../feature-flags/canonical";
import { concernsFlag } from "../feature-flags/audit-trail";
import { configurationOf, declared, deleteOrFail, driftedKeys, featureFlags, listOrFail, listOrGone, replacedKeys, sameIdentity, unreadableFailure, warnChecked, writeOrFail, writtenAtOf, writtenNow, type FeatureFlags } from "../feature-flags/common";
import { experimentFlag, flagName, prefixOf, removal, upsert } from "../feature-flags/lists";
import { named } from "../shared/named-list";
import { checkAvailableValues, pathName } from "../feature-flags/rules";
import { idOf, INPUT_KEYS, ON_DELETE_VALUES, TYPE_NAME, type FlagOnDelete, type FlagOutputs } from "./types";
import { archiveFlag } from "./archive";
import { quoted } from "../../text/printable";

const IDENTITY = ["applicationId", "name"];

async function check(olds: Props, news: Props): Promise<CheckResult> {
  const c = new InputChecker(news, INPUT_KEYS);
  c.text("applicationId", { required: true, example: "5f1e2d3c4b5a69788796a5b4" });
  pathName(c, "name", "checkout.newFlow");
  checkAvailableValues(c, "availableValues", news.availableValues);
  c.boolean("isPermanent", { required: false });
  checkOnDelete(c, news.onDelete);
  checkArchivedReplacement(c, olds, news);
  warnChecked(c, `${TYPE_NAME} "${String(news.name)}"`);
  return c.result();
}

function checkOnDelete(c: InputChecker, value: unknown): void {
  if (value === undefined || value === null || isUnknown(value)) return;
  if (typeof value === "string" && (ON_DELETE_VALUES as readonly string[]).includes(value)) return;
  c.fail(
    "onDelete",
    `onDelete must be "archive" (removing the resource keeps the flag, its configuration in every environment archived ` +
      `and turned off) or "delete" (the default: removing it deletes the flag in every environment), got ` +
      (typeof value === "string" ? quoted(value) : `${Array.isArray(value) ? "a list" : typeof value}`),
  );
}

/** What removing the resource does: onDelete as the state (or the program) has it, absent meaning "delete". */
function onDeleteOf(props: Props): FlagOnDelete {
  return props.onDelete === "archive" ? "archive" : "delete";
}

/**
 * A change of availableValues replaces the flag under the same name, deleting the old one first: with onDelete
 * "archive" in the state (a delete uses the state's inputs, whatever the program now says) the old flag would be
 * kept, and the new one could not be created over it. Refused before anything is written.
 */
function checkArchivedReplacement(c: InputChecker, olds: Props, news: Props): void {
  if (onDeleteOf(olds) !== "archive" || containsUnknown(news.availableValues)) return;
  if (news.applicationId !== olds.applicationId || news.name !== olds.name || sameAvailableValues(valuesOf(news), valuesOf(olds))) return;
  c.fail(
    "availableValues",
    `a change of availableValues replaces flag ${quoted(String(news.name))} under the same name, which deletes the old flag ` +
      `first, and its onDelete is "archive": the old flag would be kept and the new one could not be created. Fix: set ` +
      `onDelete: "delete" and run up, then change availableValues (or keep them, and give the new values to a flag of another name)`,
  );
}

function valuesOf(props: Props): FlagOption[] {
  return Array.isArray(props.availableValues) ? (props.availableValues as FlagOption[]) : DEFAULT_AVAILABLE_VALUES;
}

async function diff(_id: string, olds: Props, news: Props): Promise<DiffResult> {
  const replaces = replacedKeys(IDENTITY, olds, news);
  if (containsUnknown(news.availableValues) || !sameAvailableValues(valuesOf(news), valuesOf(olds))) replaces.push("availableValues");
  const permanence = declared(news, "isPermanent") && news.isPermanent !== (olds.isPermanent ?? false);
  // An update that sends nothing: what a later delete does is kept in the state.
  const onDelete = isUnknown(news.onDelete) || onDeleteOf(news) !== onDeleteOf(olds);
  // Said even when no input of ours replaces: a connection change (withConnection) replaces with the same name too.
  return { changes: replaces.length > 0 || permanence || onDelete, replaces, deleteBeforeReplace: sameIdentity(IDENTITY, olds, news) };
}

function outputsOf(inputs: Props, flag: Flag): FlagOutputs {
  const held = flag.availableValues ?? DEFAULT_AVAILABLE_VALUES;
  // The program's order when it is the same set: a refresh must not show a reordering as a change.
  const availableValues = declared(inputs, "availableValues") && sameAvailableValues(valuesOf(inputs), held) ? valuesOf(inputs) : held;
  const outs: FlagOutputs = { applicationId: String(inputs.applicationId), name: flag.name, availableValues, isPermanent: flag.isPermanent ?? false };
  if (declared(inputs, "onDelete")) outs.onDelete = onDeleteOf(inputs);
  return outs;
}

/** The flag of the name as the application's shared flag list has it; undefined when the application has none. */
async function findFlag(f: FeatureFlags, operation: string, id: string | undefined, applicationId: string, name: string): Promise<Flag | undefined> {
  const flags = await listOrFail(operation, id, () => f.lists.appFlags(applicationId), `applicationId "${applicationId}" names no application of the account: give an Application's applicationId`);
  const flag = flags && named(flags, name, flagName);
  const unreadable = flags && !flag ? await f.lists.unreadable("flags", applicationId, name) : undefined;
  if (unreadable) throw unreadableFailure(operation, id, `flag ${quoted(name)}`, unreadable);
  return flag;
}

/** PUT .../flags (F3), the lists updated from its answer. */
async function putFlag(f: FeatureFlags, operation: string, applicationId: string, inputs: Props, availableValues?: FlagOption[]): Promise<Flag> {
  const request: { name: string; availableValues?: FlagOption[]; isPermanent?: boolean } = { name: String(inputs.name) };
  if (availableValues) request.availableValues = availableValues;
  if (declared(inputs, "isPermanent")) request.isPermanent = inputs.isPermanent === true;
  return writeOrFail(
    f,
    operation,
    undefined,
    () => f.fm.client.createFlag(applicationId, request),
    (flag) => [upsert<Flag>(prefixOf("flags", applicationId), flag, (x) => x.name)],
    [prefixOf("flags", applicationId)],
  );
}

async function create(inputs: Props): Promise<{ id: string; outs: Props }> {
  const applicationId = String(inputs.applicationId);
  const name = String(inputs.name);
  const id = idOf(applicationId, name);
  const operation = `creating ${TYPE_NAME} "${name}"`;
  const f = featureFlags(operation, undefined);
  const current = await findFlag(f, operation, undefined, applicationId, name);
  if (current) {
    const held = current.availableValues ?? DEFAULT_AVAILABLE_VALUES;
    if (!sameAvailableValues(held, valuesOf(inputs))) {
      throw operationFailed(
        operation,
        undefined,
        `the application already has a flag "${name}" with availableValues ${JSON.stringify(held)}, and a flag's values cannot ` +
          `change. Fix: declare availableValues: ${JSON.stringify(held)} to manage that flag, or choose another name`,
      );
    }
    // Takeover: only a permanence the program gives and the server lacks is written.
    if (declared(inputs, "isPermanent") && inputs.isPermanent !== (current.isPermanent ?? false)) {
      await setPermanence(f, operation, undefined, applicationId, name, inputs.isPermanent === true);
      return { id, outs: plain({ ...outputsOf(inputs, { ...current, isPermanent: inputs.isPermanent === true }), writtenAt: writtenNow() }) };
    }
    return { id, outs: plain({ ...outputsOf(inputs, current), writtenAt: writtenNow() }) };
  }
  const flag = await putFlag(f, operation, applicationId, inputs, declared(inputs, "availableValues") ? valuesOf(inputs) : undefined);
  return { id, outs: plain({ ...outputsOf(inputs, flag), writtenAt: writtenNow() }) };
}

/** A flag is app-wide: the audit log of the application's first environment records its changes. */
async function reportDrift(f: FeatureFlags, applicationId: string, props: Props, how: "changed" | "removed"): Promise<void> {
  const name = String(props.name);
  const first = (await f.lists.environments(applicationId).catch(() => []))[0];
  if (!first) return;
  await f.audit.report({ label: `${TYPE_NAME} ${name}`, applicationId, environment: first.name, writtenAt: props.writtenAt, concerns: concernsFlag(name) }, how);
}

async function read(id: string, props: Props): Promise<ReadResult> {
  const operation = `reading ${TYPE_NAME}`;
  const f = featureFlags(operation, id);
  const applicationId = String(props.applicationId);
  f.audit.expect(applicationId, props.writtenAt);
  const flags = await listOrGone(operation, id, () => f.lists.appFlags(applicationId));
  const flag = flags && typeof props.name === "string" ? named(flags, props.name, flagName) : undefined;
  const unreadable = flags && !flag ? await f.lists.unreadable("flags", applicationId, String(props.name)) : undefined;
  if (unreadable) throw unreadableFailure(operation, id, `flag ${quoted(String(props.name))}`, unreadable);
  if (!flag) {
    if (flags) await reportDrift(f, applicationId, props, "removed");
    return {};
  }
  const outs = outputsOf(props, flag);
  const inputs: Props = { applicationId, name: flag.name };
  if (declared(props, "availableValues")) inputs.availableValues = outs.availableValues;
  if (declared(props, "isPermanent")) inputs.isPermanent = outs.isPermanent;
  if (outs.onDelete) inputs.onDelete = outs.onDelete;
  if (driftedKeys(["availableValues", "isPermanent"], props, inputs).length) await reportDrift(f, applicationId, props, "changed");
  return { id, props: plain({ ...outs, ...writtenAtOf(props) }), inputs };
}

/**
 * The service changes a flag's permanence only through a configuration (PUT .../{environment}/flags/{flag}, which
 * replaces the configuration there whole): it is sent with the configuration the flag already has in the first
 * environment where it has one, so that nothing else changes.
 */
async function setPermanence(f: FeatureFlags, operation: string, id: string | undefined, applicationId: string, name: string, isPermanent: boolean): Promise<void> {
  const envs = await listOrFail(operation, id, () => f.lists.environments(applicationId), `applicationId "${applicationId}" names no application of the account`);
  for (const env of envs) {
    const experiments = await listOrFail(operation, id, () => f.lists.experiments(applicationId, env.name), `environment ${quoted(env.name)} is gone`);
    const current = named(experiments, name, experimentFlag);
    if (!current) continue;
    await writeOrFail(
      f,
      operation,
      id,
      () => f.fm.client.setFlagConfiguration(applicationId, env.name, { ...configurationOf(current), name, isPermanent }),
      (flag) => [upsert<Flag>(prefixOf("flags", applicationId), { ...flag, isPermanent }, (x) => x.name)],
      [prefixOf("flags", applicationId), prefixOf("experiments", applicationId, env.name)],
    );
    return;
  }
  throw operationFailed(
    operation,
    id,
    `the service changes a flag's permanence only together with a configuration, and flag "${name}" is configured in no ` +
      `environment. Fix: declare a FlagConfiguration of it and run up again, or set isPermanent in the CloudBees Feature Management UI`,
  );
}

async function update(id: string, olds: Props, news: Props): Promise<{ outs: Props }> {
  const operation = `updating ${TYPE_NAME} "${String(news.name)}"`;
  const applicationId = String(news.applicationId);
  const name = String(news.name);
  const isPermanent = declared(news, "isPermanent") ? news.isPermanent === true : olds.isPermanent === true;
  const writes = isPermanent !== (olds.isPermanent === true);
  if (writes) await setPermanence(featureFlags(operation, id), operation, id, applicationId, name, isPermanent);
  // onDelete alone sends nothing: writtenAt (when this stack last wrote the flag) stays.
  return { outs: plain({ ...outputsOf(news, { name, availableValues: valuesOf(olds), isPermanent }), ...(writes ? { writtenAt: writtenNow() } : writtenAtOf(olds)) }) };
}

async function remove(id: string, props: Props): Promise<void> {
  const applicationId = String(props.applicationId);
  const name = String(props.name);
  if (onDeleteOf(props) === "archive") {
    const operation = `archiving ${TYPE_NAME}`;
    return archiveFlag(featureFlags(operation, id), operation, id, applicationId, name, valuesOf(props));
  }
  const operation = `deleting ${TYPE_NAME}`;
  const f = featureFlags(operation, id);
  // Already gone (or its application is): nothing left to delete.
  await deleteOrFail(
    f,
    operation,
    id,
    () => f.fm.client.deleteFlag(applicationId, name),
    [removal<Flag>(prefixOf("flags", applicationId), name, (x) => x.name), removal<{ flag: string }>(prefixOf("experiments", applicationId), name, (x) => x.flag)],
    [prefixOf("flags", applicationId), prefixOf("experiments", applicationId)],
  );
}

export const flag: ResourceController = { check, diff, create, read, update, delete: remove };
