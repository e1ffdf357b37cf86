/**
 * BundleReload: applies the bundle update of an instance (the operations center, or a controller at instanceUrl)
 * without a restart, in the style of pulumi-command: it runs on create and again when `triggers` changes.
 *
 * | operation | calls | notes |
 * |---|---|---|
 * | check | nothing | instanceUrl an http(s) base URL without credentials; allowRestartRequired a boolean; triggers a list |
 * | diff | nothing | instanceUrl change replaces; triggers change runs again (update); allowRestartRequired alone: recorded |
 * | create, update | GET casc-bundle-mgnt/check-bundle-update, then POST casc-bundle-mgnt/reload-bundle only when an update is available | reload-bundle is sent at most once per run and never retried |
 * | read | nothing | a reload is not a thing to read back: the state stays |
 * | delete | nothing | a reload cannot be undone |
 *
 * A refusal (`reloaded: false` with the server's reason: not hot reloadable, a reload already in progress; or an
 * update of type RESTART, for which reload-bundle is not sent) fails the step, unless allowRestartRequired is true:
 * then the outputs report it (`reloaded: false`, `reason`) with a warning, and the deployment goes on.
 * An update the instance found invalid (check-bundle-update's new version with valid: false) always fails: reloading
 * cannot apply it, and a restart would not either.
 */
import type { BundleUpdateCheck, ReloadResult } from "../../clients/casc-schemas";
import { NetworkError, TimeoutError } from "../../http/errors";
import { actionDiff, echoInputs, mustRerun, unchangedRead, type ActionInputsSpec } from "../shared/actions";
import { InputChecker } from "../shared/check";
import { operationFailed, warn } from "../shared/errors";
import { instance, instanceCallFailed, type InstanceConnection } from "../shared/instance";
import type { CheckResult, DiffResult, Props, ReadResult, ResourceController } from "../shared/types";
import { plain } from "../shared/values";
import { idOf, INPUT_KEYS, TYPE_NAME, type BundleReloadOutputs } from "./types";

const SPEC: ActionInputsSpec = { replaceOn: ["instanceUrl"], recordOn: ["allowRestartRequired"] };

async function check(_olds: Props, news: Props): Promise<CheckResult> {
  const c = new InputChecker(news, INPUT_KEYS);
  c.instanceUrl("instanceUrl");
  c.boolean("allowRestartRequired", { required: false });
  c.triggers();
  return c.result();
}

async function diff(_id: string, olds: Props, news: Props): Promise<DiffResult> {
  return actionDiff(olds, news, SPEC);
}

type Outcome = Pick<BundleReloadOutputs, "updateAvailable" | "reloaded" | "reason" | "version">;

function outputsOf(inputs: Props, outcome: Outcome): Props {
  return plain({ ...echoInputs(inputs, INPUT_KEYS), ...outcome });
}

function instanceUrlOf(inputs: Props): string | undefined {
  return typeof inputs.instanceUrl === "string" ? inputs.instanceUrl : undefined;
}

function listed(messages: string[]): string {
  return messages.length ? `:\n  ${messages.join("\n  ")}` : "";
}

/** The check, then the reload when there is an update: what happened, or an error when the instance refused. */
async function run(operation: string, id: string, inputs: Props): Promise<Outcome> {
  const conn: InstanceConnection = instance(operation, id, instanceUrlOf(inputs));
  const where = conn.isOperationsCenter ? `the operations center (${conn.url})` : `the instance at ${conn.url}`;
  let update: BundleUpdateCheck;
  try {
    update = await conn.client.checkBundleUpdate();
  } catch (e) {
    throw instanceCallFailed(conn, operation, id, e);
  }
  const current = update.versions["current-bundle"].version;
  const next = update.versions["new-version"];

  if (!update["update-available"]) {
    if (next && next.valid === false) {
      throw operationFailed(
        operation,
        id,
        `${where} has a new bundle version that is not valid, so there is nothing it can reload (it keeps version ` +
          `"${current}")${listed(next.validations)}\nFix: correct the bundle (a BundleValidation resource that this one depends on stops ` +
          `a bad bundle before it is assigned), check it out again, and run \`pulumi up\``,
      );
    }
    return { updateAvailable: false, reloaded: false, reason: `no bundle update available (current version "${current}")`, version: current };
  }

  const refused = (reason: string): Outcome => {
    if (inputs.allowRestartRequired !== true) {
      throw operationFailed(
        operation,
        id,
        `${where} did not reload its bundle update${next ? ` (version "${next.version}")` : ""}: ${reason}. Fix: if the ` +
          `update needs a restart, restart the instance (or apply it from its CasC screen), then run \`pulumi up\`; if a ` +
          `reload is already in progress, wait for it and change \`triggers\` to try again; or set allowRestartRequired: ` +
          `true to report this in the outputs (reloaded: false, reason) and go on`,
      );
    }
    warn(`${TYPE_NAME} (${id}): ${where} did not reload its bundle update: ${reason} (allowRestartRequired: true, going on)`);
    return { updateAvailable: true, reloaded: false, reason, version: current };
  };

  if (update["update-type"] === "RESTART") {
    // The instance says the update needs a restart: asking for a hot reload would only be refused.
    return refused("the update needs a restart (check-bundle-update says update-type RESTART); reload-bundle was not sent");
  }

  let result: ReloadResult;
  try {
    result = await conn.client.reloadBundle();
  } catch (e) {
    const unsure = e instanceof TimeoutError || (e instanceof NetworkError && e.code !== "ECONNREFUSED");
    throw instanceCallFailed(
      conn,
      operation,
      id,
      e,
      unsure
        ? `reload-bundle got no answer from ${where}: the reload may have started. Fix: look at the instance's update log ` +
            `(casc-bundle-mgnt/casc-bundle-update-log) before running it again; it was not repeated`
        : undefined,
    );
  }
  if (!result.reloaded) return refused(result.reason ?? "the instance answered reloaded: false without a reason");
  // `completed: false`: the reload started and goes on in the background; say so rather than claim it is done.
  const reason = result.completed === false ? "the reload started and was still running when the instance answered: see its update log" : "";
  return { updateAvailable: true, reloaded: true, reason, version: next?.version ?? current };
}

async function create(inputs: Props): Promise<{ id: string; outs: Props }> {
  const id = idOf(instanceUrlOf(inputs));
  return { id, outs: outputsOf(inputs, await run(`creating ${TYPE_NAME}`, id, inputs)) };
}

async function read(id: string, props: Props): Promise<ReadResult> {
  return unchangedRead(id, props, INPUT_KEYS);
}

async function update(id: string, olds: Props, news: Props): Promise<{ outs: Props }> {
  if (mustRerun(olds, news, SPEC)) return { outs: outputsOf(news, await run(`updating ${TYPE_NAME}`, id, news)) };
  const previous: Outcome = {
    updateAvailable: olds.updateAvailable === true,
    reloaded: olds.reloaded === true,
    reason: typeof olds.reason === "string" ? olds.reason : "",
    version: typeof olds.version === "string" ? olds.version : "N/A",
  };
  return { outs: outputsOf(news, previous) };
}

async function remove(): Promise<void> {
  // Nothing to undo: a reload cannot be taken back.
}

export const bundleReload: ResourceController = { check, diff, create, read, update, delete: remove };
