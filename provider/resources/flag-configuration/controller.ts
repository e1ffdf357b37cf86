/**
 * FlagConfiguration: a flag's configuration in one environment (the legacy API's experiment of the flag there).
 *
 * | operation | calls | notes |
 * |---|---|---|
 * | check | nothing | names usable in URL paths; values, splits, schedules, conditions and operands well formed; a boolean flag's values true or false when a list of this process already knows them; every form the service wrote passes, the odd ones with a warning |
 * | diff | nothing | applicationId, environment or flag change replaces (when none changes, as on a connection change, the old configuration is removed first: deleteBeforeReplace); the given configuration inputs compared in canonical form (conditions ordered, labels a set, ...) |
 * | create, update | the shared GET .../{environment}/experiments, GET .../environments and GET .../{first environment}/flags (and GET .../target-groups when a condition names a group); PUT .../{environment}/experiments only when a given input differs from what the service holds | the body is the service's configuration with the given inputs laid over it (PUT replaces it whole); values and references checked before any write |
 * | read | the shared GET .../{environment}/experiments | not configured there any more (or the environment gone): dropped; in the list but unreadable: this resource fails, naming flag, environment and field |
 * | delete | DELETE .../{environment}/experiments/{flag} | the flag stays (the legacy rule); already gone: nothing to do |
 */
import type { Experiment, ExperimentRequest, Flag, FlagOption } from "../../clients/feature-flag-types";
import { InputChecker } from "../shared/check";
import { operationFailed } from "../shared/errors";
import type { CheckResult, DiffResult, Props, ReadResult, ResourceController } from "../shared/types";
import { isStringList, plain, sameJson } from "../shared/values";
import { canonicalConfigurationInput, DEFAULT_AVAILABLE_VALUES, type Options } from "../feature-flags/canonical";
import { concernsFlag } from "../feature-flags/audit-trail";
import { changedKeys, configurationOf, declared, deleteOrFail, driftedKeys, featureFlags, listOrFail, listOrGone, pick, replacedKeys, sameIdentity, unreadableFailure, warnChecked, writeOrFail, writtenAtOf, writtenNow, type FeatureFlags } from "../feature-flags/common";
import { experimentFlag, flagName as nameOfFlag, knownAvailableValues, prefixOf, removal, upsert } from "../feature-flags/lists";
import { named } from "../shared/named-list";
import { checkConditions, checkFreeText, checkLabels, checkPlatforms, checkValue, pathName } from "../feature-flags/rules";
import { CONFIGURATION_KEYS, IDENTITY_KEYS, idOf, INPUT_KEYS, TYPE_NAME } from "./types";
import { quoted } from "../../text/printable";

function canonicalWith(options: Options, optionsOf: (flag: string) => Options) {
  return (key: string, value: unknown) => canonicalConfigurationInput(key, value, options, optionsOf);
}

/** The rules of the configuration inputs, against the flag's available values when known. */
function checkConfiguration(c: InputChecker, news: Props, options: Options, optionsOf: (flag: string) => Options): void {
  c.boolean("enabled", { required: false });
  c.boolean("archived", { required: false });
  checkFreeText(c, "description", news.description);
  if (declared(news, "stickinessProperty")) c.text("stickinessProperty", { required: false, example: "rox.distinct_id" });
  checkLabels(c, "labels", news.labels);
  checkValue(c, "value", news.value, options);
  checkConditions(c, "conditions", news.conditions, options, optionsOf);
  checkPlatforms(c, "platforms", news.platforms, options, optionsOf);
}

async function check(_olds: Props, news: Props): Promise<CheckResult> {
  const c = new InputChecker(news, INPUT_KEYS);
  const applicationId = c.text("applicationId", { required: true, example: "5f1e2d3c4b5a69788796a5b4" });
  pathName(c, "environment", "Production");
  const flag = pathName(c, "flag", "checkout.newFlow");
  // Available values are known here only from a list this process already read (check sends no request).
  const known = (name: string | undefined) => (applicationId && name ? knownAvailableValues(applicationId, name) : undefined);
  checkConfiguration(c, news, known(flag), known);
  warnChecked(c, `${TYPE_NAME} "${String(news.flag)}" in "${String(news.environment)}"`);
  return c.result();
}

async function diff(_id: string, olds: Props, news: Props): Promise<DiffResult> {
  const replaces = replacedKeys(IDENTITY_KEYS, olds, news);
  const app = typeof news.applicationId === "string" ? news.applicationId : "";
  const known = (name: string) => knownAvailableValues(app, name);
  const canonical = canonicalWith(typeof news.flag === "string" ? known(news.flag) : undefined, known);
  const changed = changedKeys(CONFIGURATION_KEYS, olds, news, canonical);
  // Said even when no input of ours replaces: a connection change (withConnection) replaces with the same identity too.
  return { changes: replaces.length > 0 || changed.length > 0, replaces, deleteBeforeReplace: sameIdentity(IDENTITY_KEYS, olds, news) };
}

/** The outputs: the identity and the given configuration inputs (in the form `values` has them). */
function outputsOf(inputs: Props, values: Props): Props {
  return plain({ applicationId: inputs.applicationId, environment: inputs.environment, flag: inputs.flag, ...pick(values, CONFIGURATION_KEYS) });
}

/** Target-group names and flag names the conditions (and the platforms' conditions) refer to. */
function references(inputs: Props): { groups: Set<string>; flags: Set<string> } {
  const groups = new Set<string>();
  const flags = new Set<string>();
  const chains: unknown[] = [inputs.conditions];
  if (Array.isArray(inputs.platforms)) for (const p of inputs.platforms) chains.push((p as Props | null)?.conditions);
  for (const chain of chains) {
    if (!Array.isArray(chain)) continue;
    for (const condition of chain as Props[]) {
      const group = condition?.group as Props | undefined;
      if (typeof group?.name === "string") groups.add(group.name);
      else if (isStringList(group?.name)) group.name.forEach((n) => groups.add(n));
      const dependency = condition?.dependency as Props | undefined;
      if (typeof dependency?.flag === "string") flags.add(dependency.flag);
    }
  }
  return { groups, flags };
}

/** A list of names for messages. */
function quotedList(names: Iterable<string>): string {
  return [...names].map(quoted).join(", ");
}

/**
 * Create and update: the configuration the service holds, written (PUT .../experiments, replacing it whole) only when
 * a given input differs, with the given inputs laid over the service's configuration. Everything that can be known
 * wrong is refused before the write: an unknown flag, a value outside its available values, a condition naming a
 * target group or a flag that does not exist.
 */
async function apply(f: FeatureFlags, operation: string, id: string | undefined, inputs: Props): Promise<Props> {
  const applicationId = String(inputs.applicationId);
  const environment = String(inputs.environment);
  const flagName = String(inputs.flag);
  const noApplication = `applicationId "${applicationId}" names no application of the account: give an Application's applicationId`;
  const experiments = await listOrFail(
    operation,
    id,
    () => f.lists.experiments(applicationId, environment),
    `application "${applicationId}" has no environment "${environment}" (names are case-sensitive). Fix: declare it ` +
      `(new Environment(..., { applicationId, name: "${environment}" })) and pass environment: thatEnvironment.name, so that it exists first`,
  );
  const flags: Flag[] = (await listOrFail(operation, id, () => f.lists.appFlags(applicationId), noApplication)) ?? [];
  const flag = named(flags, flagName, nameOfFlag);
  const unreadableFlag = flag ? undefined : await f.lists.unreadable("flags", applicationId, flagName);
  if (unreadableFlag) throw unreadableFailure(operation, id, `flag ${quoted(flagName)}`, unreadableFlag);
  if (!flag) {
    throw operationFailed(
      operation,
      id,
      `flag "${flagName}" does not exist in application "${applicationId}". Fix: declare it (new Flag(..., { applicationId, ` +
        `name: "${flagName}" })) and pass flag: thatFlag.name, so that it exists before its configuration`,
    );
  }
  const options: FlagOption[] = flag.availableValues ?? DEFAULT_AVAILABLE_VALUES;
  const current = named(experiments, flagName, experimentFlag);
  // Written whole over what the service holds: a configuration it holds that cannot be read cannot be kept.
  const unreadable = current ? undefined : await f.lists.unreadable("experiments", applicationId, flagName, environment);
  if (unreadable) throw unreadableFailure(operation, id, configurationText(flagName, environment), unreadable);
  const optionsOf = (name: string): Options => {
    const named_ = named(flags, name, nameOfFlag);
    return named_ ? (named_.availableValues ?? DEFAULT_AVAILABLE_VALUES) : undefined;
  };

  const c = new InputChecker(pick(inputs, CONFIGURATION_KEYS), [...CONFIGURATION_KEYS]);
  checkConfiguration(c, inputs, options, optionsOf);
  if (c.failures.length) throw operationFailed(operation, id, c.failures.map((x) => x.reason).join("; "));

  const refs = references(inputs);
  const missingFlags = [...refs.flags].filter((n) => !named(flags, n, nameOfFlag));
  if (missingFlags.length) {
    throw operationFailed(
      operation,
      id,
      `conditions depend on ${quotedList(missingFlags)}, which ${missingFlags.length > 1 ? "are no flags" : "is no flag"} of application "${applicationId}". ` +
        `Fix: declare ${missingFlags.length > 1 ? "them" : "it"} as Flag resources and pass their names (flag: thatFlag.name), so that they exist first`,
    );
  }
  if (refs.groups.size) {
    const groups = await listOrFail(operation, id, () => f.lists.targetGroups(applicationId), noApplication);
    const missing = [...refs.groups].filter((n) => !groups.some((g) => g.name === n));
    if (missing.length) {
      throw operationFailed(
        operation,
        id,
        `conditions name the target group${missing.length > 1 ? "s" : ""} ${quotedList(missing)}, which application "${applicationId}" does not have. ` +
          `Fix: declare ${missing.length > 1 ? "them" : "it"} as TargetGroup resources and pass their names (name: thatGroup.name), so that they exist first`,
      );
    }
  }

  const canonical = canonicalWith(options, optionsOf);
  const differs = CONFIGURATION_KEYS.some((k) => declared(inputs, k) && !sameJson(canonical(k, inputs[k]), canonical(k, current?.[k])));
  if (current && !differs) return outputsOf(inputs, inputs);

  const given = pick(inputs, CONFIGURATION_KEYS);
  const request = { ...configurationOf(current), ...given, type: "experiment", flag: flagName, name: flagName, availableValues: options } as ExperimentRequest;
  await writeOrFail(
    f,
    operation,
    id,
    () => f.fm.client.putExperiment(applicationId, environment, request),
    (answer) => [upsert<Experiment>(prefixOf("experiments", applicationId, environment), answer, (e) => e.flag)],
    [prefixOf("experiments", applicationId, environment), prefixOf("flags", applicationId)],
  );
  return outputsOf(inputs, inputs);
}

function configurationText(flag: string, environment: string): string {
  return `the configuration of flag "${flag}" in environment "${environment}"`;
}

function identityOf(props: Props): { applicationId: string; environment: string; flag: string } {
  return { applicationId: String(props.applicationId), environment: String(props.environment), flag: String(props.flag) };
}

async function create(inputs: Props): Promise<{ id: string; outs: Props }> {
  const { applicationId, environment, flag } = identityOf(inputs);
  const operation = `creating ${TYPE_NAME} "${flag}" in "${environment}"`;
  const outs = await apply(featureFlags(operation, undefined), operation, undefined, inputs);
  return { id: idOf(applicationId, environment, flag), outs: { ...outs, writtenAt: writtenNow() } };
}

async function read(id: string, props: Props): Promise<ReadResult> {
  const operation = `reading ${TYPE_NAME}`;
  const f = featureFlags(operation, id);
  const { applicationId, environment, flag } = identityOf(props);
  f.audit.expect(applicationId, props.writtenAt);
  const experiments = await listOrGone(operation, id, () => f.lists.experiments(applicationId, environment));
  const current = experiments && named(experiments, flag, experimentFlag);
  const subject = { label: `${TYPE_NAME} ${flag}/${environment}`, applicationId, environment, writtenAt: props.writtenAt, concerns: concernsFlag(flag) };
  const unreadable = experiments && !current ? await f.lists.unreadable("experiments", applicationId, flag, environment) : undefined;
  if (unreadable) throw unreadableFailure(operation, id, configurationText(flag, environment), unreadable);
  if (!current) {
    if (experiments) await f.audit.report(subject, "removed");
    return {};
  }
  const optionsOf = (name: string) => f.lists.knownAvailableValues(applicationId, name);
  const canonical = canonicalWith(current.availableValues ?? optionsOf(flag), optionsOf);
  const inputs: Props = { applicationId, environment, flag };
  for (const k of CONFIGURATION_KEYS) {
    if (!declared(props, k)) continue;
    const held = current[k];
    inputs[k] = sameJson(canonical(k, held), canonical(k, props[k])) ? props[k] : (held === undefined ? canonical(k, undefined) : held);
  }
  if (driftedKeys(CONFIGURATION_KEYS, props, inputs).length) await f.audit.report(subject, "changed");
  return { id, props: { ...outputsOf(inputs, inputs), ...writtenAtOf(props) }, inputs: plain(inputs) };
}

async function update(id: string, _olds: Props, news: Props): Promise<{ outs: Props }> {
  const { environment, flag } = identityOf(news);
  const operation = `updating ${TYPE_NAME} "${flag}" in "${environment}"`;
  return { outs: { ...(await apply(featureFlags(operation, id), operation, id, news)), writtenAt: writtenNow() } };
}

async function remove(id: string, props: Props): Promise<void> {
  const { applicationId, environment, flag } = identityOf(props);
  const operation = `deleting ${TYPE_NAME}`;
  const f = featureFlags(operation, id);
  // Not configured there any more, or the flag, the environment or the application is gone: nothing to remove.
  await deleteOrFail(
    f,
    operation,
    id,
    () => f.fm.client.deleteExperiment(applicationId, environment, flag),
    [removal<Experiment>(prefixOf("experiments", applicationId, environment), flag, (e) => e.flag)],
    [prefixOf("experiments", applicationId, environment), prefixOf("flags", applicationId)],
  );
}

export const flagConfiguration: ResourceController = { check, diff, create, read, update, delete: remove };
