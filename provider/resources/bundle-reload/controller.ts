/**
 * BundleReload: applies the bundle update of an instance (the operations center, or a controller at instanceUrl)
 * without a restart, in the style of pulumi-command: it runs on create and again when `triggers` changes.
 *
 * | operation | calls | notes |
 * |---|---|---|
 * | check | nothing | instanceUrl an http(s) base URL without credentials; allowRestartRequired a boolean; triggers a list |
 * | diff | nothing | instanceUrl change replaces; triggers change runs again (update); allowRestartRequired alone: recorded |
 * | create, update | GET casc-bundle-mgnt/check-bundle-update, then POST casc-bundle-mgnt/reload-bundle only when an update is available | reload-bundle is never repeated blindly: a lost answer is reconciled with check-bundle-update (see reloadReconciled) |
 * | read | nothing | a reload is not a thing to read back: the state stays |
 * | delete | nothing | a reload cannot be undone |
 *
 * A refusal (`reloaded: false` with the server's reason: not hot reloadable, a reload already in progress; or an
 * update of type RESTART, for which reload-bundle is not sent) fails the step, unless allowRestartRequired is true:
 * then the outputs report it (`reloaded: false`, `reason`) with a warning, and the deployment goes on.
 * An update the instance found invalid (check-bundle-update's new version with valid: false) always fails: reloading
 * cannot apply it, and a restart would not either.
 */
import { needsRestart, type BundleUpdateCheck, type ReloadResult } from "../../clients/casc-types";
import { outcomeUnknown } from "../../http/errors";
import { actionDiff, echoInputs, mustRerun, unchangedRead, type ActionInputsSpec } from "../shared/actions";
import { InputChecker } from "../shared/check";
import { messageOf, operationFailed, OutcomeUnknownError, partiallyCreated, warn } from "../shared/errors";
import { instance, instanceCallFailed, type InstanceConnection } from "../shared/instance";
import type { CheckResult, DiffResult, Props, ReadResult, ResourceController } from "../shared/types";
import { plain } from "../shared/values";
import { idOf, INPUT_KEYS, TYPE_NAME, type BundleReloadOutputs } from "./types";
import { printable, quoted } from "../../text/printable";

const SPEC: ActionInputsSpec = { replaceOn: ["instanceUrl"], recordOn: ["allowRestartRequired"] };

async function check(_olds: Props, news: Props): Promise<CheckResult> {
  const c = new InputChecker(news, INPUT_KEYS);
  c.instanceUrl("instanceUrl");
  c.boolean("allowRestartRequired", { required: false });
  c.triggers();
  return c.result();
}

/** The reason recorded by a create whose reload-bundle outcome stayed unknown: the next up runs again. */
const UNKNOWN_OUTCOME = "unknown: reload-bundle got no answer";

async function diff(_id: string, olds: Props, news: Props): Promise<DiffResult> {
  const base = actionDiff(olds, news, SPEC);
  return olds.reason === UNKNOWN_OUTCOME ? { ...base, changes: true } : base;
}

type Outcome = Pick<BundleReloadOutputs, "updateAvailable" | "reloaded" | "reason" | "version">;

function outputsOf(inputs: Props, outcome: Outcome): Props {
  return plain({ ...echoInputs(inputs, INPUT_KEYS), ...outcome });
}

function instanceUrlOf(inputs: Props): string | undefined {
  return typeof inputs.instanceUrl === "string" ? inputs.instanceUrl : undefined;
}

/** The instance's messages, one a line: each one line (printable), so that no message adds a line of its own. */
function listed(messages: string[]): string {
  return messages.length ? `:\n  ${messages.map((m) => printable(m)).join("\n  ")}` : "";
}

/**
 * POST casc-bundle-mgnt/reload-bundle, reconciled: when the answer is lost (no answer, a 5xx, an unreadable body),
 * check-bundle-update says what happened before anything else is done. The new version in force: it reloaded. The
 * same update still available: it did not, and the reload is sent once more. Anything else: the step fails, saying
 * what to look at.
 */
async function reloadReconciled(
  conn: InstanceConnection,
  operation: string,
  id: string,
  where: string,
  expected: string | undefined,
): Promise<ReloadResult> {
  for (let round = 1; ; round++) {
    try {
      return await conn.client.reloadBundle();
    } catch (e) {
      if (!outcomeUnknown(e)) throw instanceCallFailed(conn, operation, id, e);
      const unsure = (what: string) =>
        new OutcomeUnknownError(
          `${operation} (${id}): reload-bundle got no answer from ${where} (${messageOf(e)}), and ${what}. Fix: look at ` +
            `the instance's update log (casc-bundle-mgnt/casc-bundle-update-log) and its CasC screen, then run \`pulumi up\` ` +
            `again (it checks for an update first)`,
          e,
        );
      let after: BundleUpdateCheck;
      try {
        after = await conn.client.checkBundleUpdate();
      } catch (checkError) {
        throw unsure(`check-bundle-update could not tell whether it reloaded (${messageOf(checkError)})`);
      }
      const nowCurrent = after.versions["current-bundle"].version;
      if (expected !== undefined && nowCurrent === expected && !after["update-available"]) return { reloaded: true };
      const stillOffered = after["update-available"] && after.versions["new-version"]?.version === expected;
      if (stillOffered && round < 2) continue;
      throw unsure(
        stillOffered
          ? `the update (version ${quoted(String(expected))}) is still not applied after ${round} attempts`
          : `the instance now runs version ${quoted(nowCurrent)}${after["update-available"] ? ` with an update to ${quoted(String(after.versions["new-version"]?.version))} available` : ""}, not the expected ${quoted(String(expected))}`,
      );
    }
  }
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
          `${quoted(current)})${listed(next.validations)}\nFix: correct the bundle (a BundleValidation resource that this one depends on stops ` +
          `a bad bundle before it is assigned), check it out again, and run \`pulumi up\``,
      );
    }
    return { updateAvailable: false, reloaded: false, reason: `no bundle update available (current version ${quoted(current)})`, version: current };
  }

  // `said`: the reason as a message shows it (the instance's own words quoted).
  const refused = (reason: string, said = reason): Outcome => {
    if (inputs.allowRestartRequired !== true) {
      throw operationFailed(
        operation,
        id,
        `${where} did not reload its bundle update${next ? ` (version ${quoted(next.version)})` : ""}: ${said}. Fix: if the ` +
          `update needs a restart, restart the instance (or apply it from its CasC screen), then run \`pulumi up\`; if a ` +
          `reload is already in progress, wait for it and change \`triggers\` to try again; or set allowRestartRequired: ` +
          `true to report this in the outputs (reloaded: false, reason) and go on`,
      );
    }
    warn(`${TYPE_NAME} (${id}): ${where} did not reload its bundle update: ${said} (allowRestartRequired: true, going on)`);
    return { updateAvailable: true, reloaded: false, reason, version: current };
  };

  if (needsRestart(update["update-type"])) {
    // The instance says the update needs a restart: asking for a hot reload would only be refused.
    return refused(`the update needs a restart (check-bundle-update says update-type ${printable(String(update["update-type"]))}); reload-bundle was not sent`);
  }

  const result = await reloadReconciled(conn, operation, id, where, next?.version);
  if (!result.reloaded) {
    return result.reason === undefined ? refused("the instance answered reloaded: false without a reason") : refused(result.reason, `it said ${quoted(result.reason)}`);
  }
  // `completed: false`: the reload started and goes on in the background; say so rather than claim it is done.
  const reason = result.completed === false ? "the reload started and was still running when the instance answered: see its update log" : "";
  return { updateAvailable: true, reloaded: true, reason, version: next?.version ?? current };
}

async function create(inputs: Props): Promise<{ id: string; outs: Props }> {
  const id = idOf(instanceUrlOf(inputs));
  try {
    return { id, outs: outputsOf(inputs, await run(`creating ${TYPE_NAME}`, id, inputs)) };
  } catch (e) {
    if (!(e instanceof OutcomeUnknownError)) throw e;
    // Recorded with the unknown outcome as its reason: the next up runs again (checking for an update first).
    const unknown: Outcome = { updateAvailable: true, reloaded: false, reason: UNKNOWN_OUTCOME, version: "N/A" };
    throw partiallyCreated(e.message, id, outputsOf(inputs, unknown), inputs, e.cause);
  }
}

async function read(id: string, props: Props): Promise<ReadResult> {
  return unchangedRead(id, props, INPUT_KEYS);
}

async function update(id: string, olds: Props, news: Props): Promise<{ outs: Props }> {
  if (mustRerun(olds, news, SPEC) || olds.reason === UNKNOWN_OUTCOME) return { outs: outputsOf(news, await run(`updating ${TYPE_NAME}`, id, news)) };
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
