/**
 * A Flag's `onDelete: "archive"`: what removing the resource does instead of deleting the flag.
 *
 * The API has no call that archives a flag (F1-F5 create, configure and delete; X1-X5 are the configuration per
 * environment). What it has, and what the service's own Git-synced output shows on experiments it archived
 * (rollout/sound-redux-cac: `archived: true`), is the configuration's `archived` flag, beside its on/off switch
 * `enabled`. So archiving keeps everything the service holds: the flag, its available values, its permanence, and
 * its configuration in every environment (value, conditions, platforms, labels: nothing is lost, and turning it on
 * again is a write of `enabled`), each configuration written back whole with `archived: true` and `enabled: false`.
 * Turned off, a configuration serves what an unconfigured flag serves (false, or the code's default): the removal
 * order of the docs has the code stop reading the flag first.
 *
 * - Writes only what differs: a configuration already archived and off is left; an environment where the flag has
 *   no configuration is left too (it serves the default already, and a write there would create one; the legacy
 *   PUT would even create the flag, had someone deleted it meanwhile).
 * - Reads through the deployment's shared lists (the environments, the configurations of each environment): a
 *   FlagConfiguration of the flag that the same deployment deleted first (the engine deletes dependents first) is
 *   gone from them, and nothing is written for it.
 * - A write whose answer was lost (the service may have acted) is settled by reading the environment's list again
 *   (the failed write made the shared list forget it): archived and off, it is done; otherwise the step fails and
 *   the resource stays in the state, so the next run reads again and writes only what is left.
 */
import type { Experiment, ExperimentRequest, FlagOption } from "../../clients/feature-flag-types";
import { NotFoundError, outcomeUnknown } from "../../http/errors";
import { quoted } from "../../text/printable";
import { configurationOf, failed, listOrGone, unreadableFailure, type FeatureFlags } from "../feature-flags/common";
import { experimentFlag, prefixOf, upsert } from "../feature-flags/lists";
import { named } from "../shared/named-list";

/** Archived and off: nothing left to write. */
export function isArchived(configuration: Experiment): boolean {
  return configuration.archived === true && configuration.enabled === false;
}

/**
 * Archives the flag's configuration in every environment of the application where it has one and it is not archived
 * and off already. `values`: the flag's available values, for a configuration whose record does not repeat them.
 */
export async function archiveFlag(f: FeatureFlags, operation: string, id: string, applicationId: string, name: string, values: FlagOption[]): Promise<void> {
  // The application gone: the flag went with it, there is nothing to keep.
  const environments = (await listOrGone(operation, id, () => f.lists.environments(applicationId))) ?? [];
  for (const env of environments) {
    const experiments = await listOrGone(operation, id, () => f.lists.experiments(applicationId, env.name));
    if (!experiments) continue;
    const current = named(experiments, name, experimentFlag);
    if (!current) {
      // Written back whole: a configuration the service holds that cannot be read cannot be kept.
      const unreadable = await f.lists.unreadable("experiments", applicationId, name, env.name);
      if (unreadable) throw unreadableFailure(operation, id, `the configuration of flag ${quoted(name)} in environment ${quoted(env.name)}`, unreadable);
      continue;
    }
    if (!isArchived(current)) await archiveIn(f, operation, id, applicationId, env.name, current, values);
  }
}

async function archiveIn(f: FeatureFlags, operation: string, id: string, applicationId: string, environment: string, current: Experiment, values: FlagOption[]): Promise<void> {
  const request: ExperimentRequest = {
    ...configurationOf(current),
    type: "experiment",
    flag: current.flag,
    name: current.flag,
    availableValues: current.availableValues ?? values,
    archived: true,
    enabled: false,
  };
  const experiments = prefixOf("experiments", applicationId, environment);
  try {
    await f.lists.write(
      () => f.fm.client.putExperiment(applicationId, environment, request),
      (answer) => [upsert<Experiment>(experiments, answer, experimentFlag)],
      [experiments, prefixOf("flags", applicationId)],
    );
  } catch (e) {
    // The environment went meanwhile, and the configuration with it.
    if (e instanceof NotFoundError) return;
    if (!outcomeUnknown(e)) throw failed(operation, id, e);
    if (!(await settled(f, applicationId, environment, current.flag))) throw failed(operation, id, e);
  }
}

/**
 * After a write whose answer was lost: whether what the service holds leaves nothing to write (archived and off, or
 * no configuration any more, or no environment). A list that cannot be read, or holds the configuration in a form
 * this client cannot read, settles nothing.
 */
async function settled(f: FeatureFlags, applicationId: string, environment: string, flag: string): Promise<boolean> {
  let experiments: Experiment[];
  try {
    experiments = await f.lists.experiments(applicationId, environment);
  } catch (e) {
    return e instanceof NotFoundError;
  }
  const held = named(experiments, flag, experimentFlag);
  if (held) return isArchived(held);
  return !(await f.lists.unreadable("experiments", applicationId, flag, environment));
}
