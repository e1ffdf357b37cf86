/**
 * TargetGroup: a target group of a feature-flag application, app-wide, referred to by name in flag conditions. The
 * service has no delete of target groups: destroy leaves it and warns.
 *
 * | operation | calls | notes |
 * |---|---|---|
 * | check | nothing | conditions (at most 1,000; none, or null, is a group without tests) each with a known operator and an operand exactly where it takes one; a regex JavaScript cannot compile warns |
 * | diff | nothing | applicationId or name change replaces (delete is a no-op: nothing is lost); operator (default and) and conditions (a set) compared in canonical form, description only when given |
 * | create, update | the shared GET .../target-groups; PUT .../target-groups only when a given input differs | takeover without a write; the body keeps the service's description and operator where the program gives none; a service that refuses to change an existing group (409) fails this resource alone with ChangeRefusedError, naming the ways out |
 * | read | the shared GET .../target-groups | gone: dropped |
 * | delete | nothing (a warning) | the API cannot delete target groups |
 */
import type { TargetGroup, TargetGroupRequest } from "../../clients/feature-flag-types";
import { InputChecker } from "../shared/check";
import { operationFailed, warn } from "../shared/errors";
import { RequestRejectedError } from "../../http/errors";
import type { CheckResult, DiffResult, Props, ReadResult, ResourceController } from "../shared/types";
import { plain, sameJson } from "../shared/values";
import { canonicalTargetGroupConditions, canonicalTargetGroupOperator } from "../feature-flags/canonical";
import { concernsNamed } from "../feature-flags/audit-trail";
import { ChangeRefusedError, changedKeys, declared, driftedKeys, failed, featureFlags, listOrFail, listOrGone, pick, readBack, replacedKeys, unreadableFailure, warnChecked, writtenAtOf, writtenNow, type FeatureFlags } from "../feature-flags/common";
import { prefixOf, upsert } from "../feature-flags/lists";
import { checkFreeText, checkTargetGroupConditions, checkTargetGroupOperator } from "../feature-flags/rules";
import { idOf, INPUT_KEYS, SETTING_KEYS, TYPE_NAME } from "./types";
import { quoted } from "../../text/printable";

const IDENTITY = ["applicationId", "name"];

function canonical(key: string, value: unknown): unknown {
  if (key === "operator") return canonicalTargetGroupOperator(value);
  if (key === "conditions") return canonicalTargetGroupConditions(value ?? []);
  return value ?? "";
}

async function check(_olds: Props, news: Props): Promise<CheckResult> {
  const c = new InputChecker(news, INPUT_KEYS);
  c.text("applicationId", { required: true, example: "5f1e2d3c4b5a69788796a5b4" });
  c.text("name", { required: true, example: "beta-users" });
  checkFreeText(c, "description", news.description);
  checkTargetGroupOperator(c, "operator", news.operator);
  checkTargetGroupConditions(c, "conditions", news.conditions);
  warnChecked(c, `${TYPE_NAME} "${String(news.name)}"`);
  return c.result();
}

async function diff(_id: string, olds: Props, news: Props): Promise<DiffResult> {
  const replaces = replacedKeys(IDENTITY, olds, news);
  const changes = replaces.length > 0 || changedKeys(SETTING_KEYS, olds, news, canonical).length > 0;
  // delete leaves the target group (no endpoint), so the engine's default order loses nothing.
  return { changes, replaces, deleteBeforeReplace: false };
}

function outputsOf(inputs: Props): Props {
  return plain({ applicationId: inputs.applicationId, name: inputs.name, ...pick(inputs, SETTING_KEYS) });
}

/** The group as the shared list has it, written (PUT .../target-groups) only where a given input differs. */
async function apply(f: FeatureFlags, operation: string, id: string | undefined, inputs: Props): Promise<Props> {
  const applicationId = String(inputs.applicationId);
  const name = String(inputs.name);
  const groups = await listOrFail(operation, id, () => f.lists.targetGroups(applicationId), `applicationId "${applicationId}" names no application of the account: give an Application's applicationId`);
  const current = groups.find((g) => g.name === name);
  const unreadable = current ? undefined : await f.lists.unreadable("targetGroups", applicationId, name);
  if (unreadable) throw unreadableFailure(operation, id, `target group ${quoted(name)}`, unreadable);
  const differs = SETTING_KEYS.some((k) => declared(inputs, k) && !sameJson(canonical(k, inputs[k]), canonical(k, current?.[k])));
  if (current && !differs) return outputsOf(inputs);
  const request: TargetGroupRequest = { type: "target-group", name };
  // Left out (or null, as the service kept some groups): the group as given, without conditions.
  if (inputs.conditions !== undefined) request.conditions = inputs.conditions as TargetGroupRequest["conditions"];
  else if (current && current.conditions !== undefined) request.conditions = current.conditions;
  const description = declared(inputs, "description") ? inputs.description : current?.description;
  if (typeof description === "string") request.description = description;
  const operator = declared(inputs, "operator") ? inputs.operator : current?.operator;
  if (operator === "and" || operator === "or") request.operator = operator;
  try {
    await f.lists.write(
      () => f.fm.client.putTargetGroup(applicationId, request),
      (answer) => [upsert<TargetGroup>(prefixOf("targetGroups", applicationId), answer, (g) => g.name)],
      [prefixOf("targetGroups", applicationId)],
    );
  } catch (e) {
    if (current && e instanceof RequestRejectedError && e.status === 409) throw changeRefused(operation, id, name, e);
    throw failed(operation, id, e);
  }
  return outputsOf(inputs);
}

/**
 * T2 of a group that exists, refused as a conflict: the service only creates target groups (the reading
 * putExistingTargetGroup=409), and no other call changes one. Said once, with the server's words and the ways out.
 */
function changeRefused(operation: string, id: string | undefined, name: string, e: RequestRejectedError): ChangeRefusedError {
  const said = e.bodyExcerpt ? `, saying ${quoted(e.bodyExcerpt)}` : "";
  const cause =
    `the service refused to change the existing target group ${quoted(name)} (409${said}): its API creates target groups but cannot ` +
    `change one. Fix: change the group in the CloudBees Feature Management UI (then declare what it holds), or declare the changed ` +
    `group under a new name and point the flags' conditions at that name`;
  return new ChangeRefusedError(operationFailed(operation, id, cause).message, e.status, e);
}

async function create(inputs: Props): Promise<{ id: string; outs: Props }> {
  const operation = `creating ${TYPE_NAME} "${String(inputs.name)}"`;
  const outs = await apply(featureFlags(operation, undefined), operation, undefined, inputs);
  return { id: idOf(String(inputs.applicationId), String(inputs.name)), outs: { ...outs, writtenAt: writtenNow() } };
}

async function read(id: string, props: Props): Promise<ReadResult> {
  const operation = `reading ${TYPE_NAME}`;
  const f = featureFlags(operation, id);
  const applicationId = String(props.applicationId);
  f.audit.expect(applicationId, props.writtenAt);
  const groups = await listOrGone(operation, id, () => f.lists.targetGroups(applicationId));
  const group = groups?.find((g) => g.name === props.name);
  const unreadable = groups && !group ? await f.lists.unreadable("targetGroups", applicationId, String(props.name)) : undefined;
  if (unreadable) throw unreadableFailure(operation, id, `target group ${quoted(String(props.name))}`, unreadable);
  if (!group) return {};
  const inputs: Props = { applicationId, name: group.name, ...readBack(SETTING_KEYS, props, (k) => group[k as keyof TargetGroup], canonical) };
  // conditions is required: a read by id alone (pulumi import) reads it too, so that the adopted group is whole.
  if (props.conditions === undefined) inputs.conditions = group.conditions ?? [];
  if (driftedKeys(SETTING_KEYS, props, inputs).length) await reportDrift(f, applicationId, group.name, props);
  return { id, props: { ...outputsOf(inputs), ...writtenAtOf(props) }, inputs: plain(inputs) };
}

/** Target groups are app-wide: the audit log of the application's first environment records their changes. */
async function reportDrift(f: FeatureFlags, applicationId: string, name: string, props: Props): Promise<void> {
  const first = (await f.lists.environments(applicationId).catch(() => []))[0];
  if (!first) return;
  const concerns = concernsNamed(/target.?group/i, name);
  await f.audit.report({ label: `${TYPE_NAME} ${name}`, applicationId, environment: first.name, writtenAt: props.writtenAt, concerns }, "changed");
}

async function update(id: string, _olds: Props, news: Props): Promise<{ outs: Props }> {
  const operation = `updating ${TYPE_NAME} "${String(news.name)}"`;
  return { outs: { ...(await apply(featureFlags(operation, id), operation, id, news)), writtenAt: writtenNow() } };
}

async function remove(id: string, props: Props): Promise<void> {
  warn(
    `${TYPE_NAME} "${String(props.name)}" (${id}) stays in application ${String(props.applicationId)}: the feature-flag API cannot ` +
      `delete target groups. It is removed from the stack only; delete it in the CloudBees Feature Management UI if it is no longer needed ` +
      `(flag conditions that name it keep working until then).`,
  );
}

export const targetGroup: ResourceController = { check, diff, create, read, update, delete: remove };
