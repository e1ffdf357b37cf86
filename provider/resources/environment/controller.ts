/**
 * Environment: an environment of a feature-flag application. The service has no delete (and no rename) of
 * environments: destroy leaves it and warns.
 *
 * | operation | calls | notes |
 * |---|---|---|
 * | check | nothing | applicationId required; name must be usable in a URL path |
 * | diff | nothing | applicationId or name change replaces (delete is a no-op: the old one stays, nothing is lost); description compared only when given |
 * | create | the shared GET .../environments; PUT .../environments/key only when no environment has the name, or a given description differs (answered without a body, the client reads the key back with one more GET .../environments) | takeover by name without a write; an entry of the list it cannot read is skipped with a warning, and the PUT (by name: it makes no second environment) goes on |
 * | read | the shared GET .../environments | found by key, else by name; gone (or the application gone): dropped; listed by its name in a form it cannot read: fails, naming it |
 * | update | the same as create | |
 * | delete | nothing (a warning) | the API cannot delete environments |
 */
import type { Environment } from "../../clients/feature-flag-types";
import { InputChecker } from "../shared/check";
import { warn } from "../shared/errors";
import type { CheckResult, DiffResult, Props, ReadResult, ResourceController } from "../shared/types";
import { plain } from "../shared/values";
import { concernsNamed } from "../feature-flags/audit-trail";
import { changedKeys, declared, driftedKeys, featureFlags, listOrFail, listOrGone, replacedKeys, unreadableFailure, writeOrFail, writtenAtOf, writtenNow, type FeatureFlags } from "../feature-flags/common";
import { prefixOf, upsert } from "../feature-flags/lists";
import { checkFreeText, pathName } from "../feature-flags/rules";
import { INPUT_KEYS, TYPE_NAME, type EnvironmentOutputs } from "./types";
import { quoted } from "../../text/printable";

const IDENTITY = ["applicationId", "name"];
const canonical = (_k: string, v: unknown) => v ?? "";

async function check(_olds: Props, news: Props): Promise<CheckResult> {
  const c = new InputChecker(news, INPUT_KEYS);
  c.text("applicationId", { required: true, example: "5f1e2d3c4b5a69788796a5b4" });
  pathName(c, "name", "Staging");
  checkFreeText(c, "description", news.description);
  return c.result();
}

async function diff(_id: string, olds: Props, news: Props): Promise<DiffResult> {
  const replaces = replacedKeys(IDENTITY, olds, news);
  const changes = replaces.length > 0 || changedKeys(["description"], olds, news, canonical).length > 0;
  // delete leaves the environment (no endpoint), so the engine's default order loses nothing.
  return { changes, replaces, deleteBeforeReplace: false };
}

function outputsOf(inputs: Props, env: Environment): EnvironmentOutputs {
  const out: EnvironmentOutputs = { applicationId: String(inputs.applicationId), name: env.name, key: env.key };
  if (declared(inputs, "description")) out.description = env.description ?? "";
  return out;
}

/** The environment of the name as the shared list has it, written (PUT .../environments/key) only where it differs. */
async function ensure(f: FeatureFlags, operation: string, id: string | undefined, inputs: Props): Promise<Environment> {
  const applicationId = String(inputs.applicationId);
  const name = String(inputs.name);
  const envs = await listOrFail(operation, id, () => f.lists.environments(applicationId), `applicationId "${applicationId}" names no application of the account: give an Application's applicationId`);
  const current = envs.find((e) => e.name === name);
  const description = declared(inputs, "description") ? String(inputs.description) : undefined;
  if (current && (description === undefined || (current.description ?? "") === description)) return current;
  const request = description === undefined ? { name } : { name, description };
  // The real service answers a bare key, which names no environment: one the list has under that key (a name that
  // differs only in case) keeps its own name.
  const answered = (env: Environment): Environment => {
    const known = envs.find((e) => e.key === env.key);
    return known ? { ...known, ...env, name: known.name } : env;
  };
  return await writeOrFail(
    f,
    operation,
    id,
    async () => answered(await f.fm.client.createEnvironment(applicationId, request)),
    (env) => [upsert<Environment>(prefixOf("environments", applicationId), env, (e) => e.name)],
    [prefixOf("environments", applicationId)],
  );
}

async function create(inputs: Props): Promise<{ id: string; outs: Props }> {
  const operation = `creating ${TYPE_NAME} "${String(inputs.name)}"`;
  const env = await ensure(featureFlags(operation, undefined), operation, undefined, inputs);
  return { id: env.key, outs: plain({ ...outputsOf(inputs, env), writtenAt: writtenNow() }) };
}

async function read(id: string, props: Props): Promise<ReadResult> {
  const operation = `reading ${TYPE_NAME}`;
  const f = featureFlags(operation, id);
  const applicationId = String(props.applicationId);
  f.audit.expect(applicationId, props.writtenAt);
  const envs = await listOrGone(operation, id, () => f.lists.environments(applicationId));
  const env = envs?.find((e) => e.key === (props.key ?? id)) ?? envs?.find((e) => e.name === props.name);
  // Listed, but in a form this version cannot read: not gone (a drop would lose it from the state).
  const unreadable = envs && !env ? await f.lists.unreadable("environments", applicationId, String(props.name)) : undefined;
  if (unreadable) throw unreadableFailure(operation, id, `environment ${quoted(String(props.name))}`, unreadable);
  if (!env) return {};
  const inputs: Props = { applicationId, name: env.name };
  if (declared(props, "description")) inputs.description = env.description ?? "";
  if (driftedKeys(["name", "description"], props, inputs).length) {
    const label = `${TYPE_NAME} ${env.name}`;
    await f.audit.report({ label, applicationId, environment: env.name, writtenAt: props.writtenAt, concerns: concernsNamed(/environment/i, env.name) }, "changed");
  }
  return { id: env.key, props: plain({ ...outputsOf(inputs, env), ...writtenAtOf(props) }), inputs };
}

async function update(id: string, _olds: Props, news: Props): Promise<{ outs: Props }> {
  const operation = `updating ${TYPE_NAME} "${String(news.name)}"`;
  const env = await ensure(featureFlags(operation, id), operation, id, news);
  return { outs: plain({ ...outputsOf(news, env), writtenAt: writtenNow() }) };
}

async function remove(id: string, props: Props): Promise<void> {
  warn(
    `${TYPE_NAME} "${String(props.name)}" (${id}) stays in application ${String(props.applicationId)}: the feature-flag API cannot ` +
      `delete environments. It is removed from the stack only; delete it in the CloudBees Feature Management UI if it is no longer needed.`,
  );
}

export const environment: ResourceController = { check, diff, create, read, update, delete: remove };
