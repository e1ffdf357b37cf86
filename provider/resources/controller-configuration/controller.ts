/**
 * ControllerConfiguration: "this controller runs this bundle". Its refresh reads what the controller really runs and
 * compares it with the bundle (with its parents) from the program's own bundle folders; its update puts back what a
 * reload can put back.
 *
 * | operation | calls | notes |
 * |---|---|---|
 * | check | nothing (reads the local bundle tree) | controllerPath, bundleTreePath, bundleId required; instanceUrl or instance; ignore paths; computes `configuration` (what the bundle declares) and `pendingUpdate: "none"` |
 * | diff | nothing | controllerPath, instanceUrl change replaces; any other input, a value of `configuration` (compared by its digest, whatever its form) or `pendingUpdate` updates |
 * | create, update | GET check-bundle-update and core-casc-export/zipExport (shared within the deployment); when it differs: POST reload-bundle, then both again | fails naming what a reload could not put back, the controller's words and the way out; a create records the resource as it found it (drifted) |
 * | read | the same two reads; when a drifted path lives in a file the configuration history records, GET jobConfigHistory/api/json (once per controller and deployment) | `configuration` as the controller runs it, over the paths the bundle declares; `pendingUpdate` when it is behind; a warning with the drifted paths, then one per path: who changed it and when (who-changed.ts), from what to what |
 * | delete | nothing | the controller keeps what it runs |
 *
 * What is compared (provider/configuration): a value the bundle declares; a setting it leaves out is the controller's
 * own (a default, or one an export adds) and is neither drift nor overwritten. Secrets count by presence only; a value
 * is written as it is, or as its digest with the reason where it can hold a secret (provider/configuration/shown.ts,
 * secret-values.ts). The
 * bundle is read from the program's folder (the provider's working directory) in check and in read, so a preview
 * shows what a change to a bundle, or to a parent, does to each controller before anything is checked out.
 */
import { needsRestart, type BundleUpdateCheck } from "../../clients/casc-types";
import { ABSENT } from "../../configuration";
import { configurationDigests, describeDrift, exportedView, ignorePathProblem, sameValues, type ConfigurationView, type Secrecy } from "../../configuration";
import { expectedFrom } from "./expected";
import { NotFoundError, outcomeUnknown } from "../../http/errors";
import { bounded } from "../../http/response-text";
import { printable, quoted } from "../../text/printable";
import { InputChecker } from "../shared/check";
import { messageOf, operationFailed, partiallyCreated, ResourceError, warn } from "../shared/errors";
import { instance, instanceCallFailed, type InstanceConnection } from "../shared/instance";
import type { CheckResult, DiffResult, Props, ReadResult, ResourceController } from "../shared/types";
import { containsUnknown, isUnknown, plain, sameJson } from "../shared/values";
import { forgetRunning, readRunning, type RunningConfiguration } from "./running";
import { COMPUTED_KEYS, idOf, INPUT_KEYS, NO_PENDING_UPDATE, TYPE_NAME } from "./types";
import { driftedKeys, MAX_PATH_NOTES, pathNote } from "./drift-notes";
import { secrecyOf } from "./secret-values";
import { whoChanged } from "./who-changed";

const ignoreOf = (inputs: Props): string[] => (Array.isArray(inputs.ignore) ? inputs.ignore.map(String) : []);

async function check(_olds: Props, news: Props): Promise<CheckResult> {
  // The computed keys are known too: check's result keeps them (a program cannot set them: the SDKs do not take them).
  const c = new InputChecker(news, [...INPUT_KEYS, ...COMPUTED_KEYS]);
  const inputs: Props = { ...news };
  for (const key of COMPUTED_KEYS) delete inputs[key];
  c.fullPathText("controllerPath", { required: true, example: "team-a/controller-a" });
  c.instanceUrl("instanceUrl");
  c.filePath("bundleTreePath", { required: true, example: "bundles" });
  c.text("bundleId", { required: true, example: "team-a" });
  const ignore = c.has("ignore") ? c.stringList("ignore", { required: false, example: "jenkins.yaml: jenkins.systemMessage" }) : undefined;
  (ignore ?? []).forEach((p, i) => {
    const problem = ignorePathProblem(p);
    if (problem) c.fail("ignore", `ignore[${i}] "${p}": ${problem}`);
  });
  const known = ["bundleTreePath", "bundleId", "ignore"].every((k) => !containsUnknown(news[k]));
  if (c.failures.length === 0 && known) {
    const expected = expectedFrom(news);
    if ("error" in expected) c.fail("bundleId", `${expected.error}. Fix bundleTreePath (the folder of bundle folders) or bundleId (a bundle in it)`);
    else inputs.configuration = configurationDigests(expected.view, undefined, ignoreOf(news)).expected;
  }
  inputs.pendingUpdate = NO_PENDING_UPDATE;
  return c.result(inputs);
}

async function diff(_id: string, olds: Props, news: Props): Promise<DiffResult> {
  const replaces = ["controllerPath", "instanceUrl"].filter((k) => isUnknown(news[k]) || (news[k] ?? null) !== (olds[k] ?? null));
  const changes =
    replaces.length > 0 ||
    ["bundleTreePath", "bundleId", "ignore", "pendingUpdate"].some((k) => containsUnknown(news[k]) || !sameJson(news[k] ?? null, olds[k] ?? null)) ||
    !sameConfiguration(olds.configuration, news.configuration);
  return { changes, replaces, deleteBeforeReplace: false };
}

/**
 * Two `configuration` records hold the same values, whatever form each was written in (a digest by an earlier
 * version, a value shown, its digest kept), and the same program secrets (a change of those rewrites the state).
 */
function sameConfiguration(olds: unknown, news: unknown): boolean {
  if (containsUnknown(news)) return false;
  const record = (v: unknown) => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);
  const [a, b] = [record(olds), record(news)];
  if (a === undefined || b === undefined) return sameJson(olds ?? null, news ?? null);
  return sameValues(a, b) && secrecyOf(a).programSecret === secrecyOf(b).programSecret;
}

/** What the controller runs, as the comparison sees it. */
interface Observed {
  configuration: Record<string, string>;
  /** What the bundle declares, in the same forms (for the warnings). */
  expected: Record<string, string>;
  drift: string[];
  pendingUpdate: string;
  bundleVersion: string;
  update: BundleUpdateCheck;
}

function pendingOf(update: BundleUpdateCheck): string {
  if (!update["update-available"]) return NO_PENDING_UPDATE;
  const current = update.versions["current-bundle"].version;
  const next = update.versions["new-version"]?.version ?? "?";
  // Server text, kept in the state and shown: one line, bounded.
  return bounded(printable(`${current} -> ${next} (${update["update-type"] ?? "RELOAD"})`), 300);
}

function observe(expected: ConfigurationView, running: RunningConfiguration, ignore: string[], label: string, secrecy: Secrecy): Observed {
  const exported = exportedView(running.files);
  for (const problem of exported.problems) warn(`${TYPE_NAME} (${label}): the controller's export: ${problem}`);
  // A file read only in part is left out of the comparison (what could not be read is not "missing"), and said.
  if (exported.incomplete.length > 0) {
    warn(`${TYPE_NAME} (${label}): ${exported.incomplete.join(", ")} could not be read whole from the controller's export, so ${exported.incomplete.length === 1 ? "it is" : "they are"} left out of the comparison this time`);
  }
  const digests = configurationDigests(expected, exported.view, [...ignore, ...exported.incomplete], secrecy);
  const pendingUpdate = pendingOf(running.update);
  const drift = describeDrift(digests.expected, digests.running);
  if (pendingUpdate !== NO_PENDING_UPDATE) drift.push(`bundle version: ${pendingUpdate}`);
  const bundleVersion = bounded(printable(running.update.versions["current-bundle"].version), 200);
  return { configuration: digests.running, expected: digests.expected, drift, pendingUpdate, bundleVersion, update: running.update };
}

function outputsOf(inputs: Props, seen: Observed): Props {
  const echoed: Props = {};
  for (const k of INPUT_KEYS) echoed[k] = inputs[k];
  return plain({ ...echoed, configuration: seen.configuration, pendingUpdate: seen.pendingUpdate, bundleVersion: seen.bundleVersion, drift: seen.drift });
}

function connectionOf(operation: string, id: string, inputs: Props): InstanceConnection {
  return instance(operation, id, typeof inputs.instanceUrl === "string" ? inputs.instanceUrl : undefined);
}

async function readOrFail(conn: InstanceConnection, operation: string, id: string): Promise<RunningConfiguration> {
  try {
    return await readRunning(conn);
  } catch (e) {
    throw instanceCallFailed(conn, operation, id, e);
  }
}

/** The way out for what is still different after a reload, by kind of line. */
function wayOut(lines: string[]): string {
  const fixes: string[] = [];
  if (lines.some((l) => /^plugins\.yaml: \+/.test(l))) {
    fixes.push("a plugin installed by hand stays after a reload: uninstall it on the controller (Manage Jenkins > Plugins) and restart it, or add it to the bundle's plugins.yaml");
  }
  if (lines.some((l) => !/^plugins\.yaml: \+/.test(l))) {
    fixes.push("restart the controller so that it applies its bundle (from the operations center or its CasC screen), or change the bundle to match what the controller runs, or add the path to `ignore`; then run `pulumi up --refresh`");
  }
  return fixes.join("; ");
}

const listed = (lines: string[]): string => lines.map((l) => `\n  ${l}`).join("");

/**
 * Brings the controller to its bundle: nothing when it already runs it; else one reload (unless the update needs a
 * restart), then a fresh read. Throws, with what it found, when something is still different.
 */
async function converge(operation: string, id: string, inputs: Props): Promise<Observed> {
  const expected = expectedFrom(inputs);
  if ("error" in expected) throw operationFailed(operation, id, `${expected.error}. Fix bundleTreePath or bundleId`);
  const ignore = ignoreOf(inputs);
  const conn = connectionOf(operation, id, inputs);
  const where = `controller "${printable(String(inputs.controllerPath))}" (${conn.url})`;
  const secrecy = secrecyOf(inputs.configuration);
  const before = observe(expected.view, await readOrFail(conn, operation, id), ignore, id, secrecy);
  if (before.drift.length === 0) return before;

  if (before.update["update-available"] && needsRestart(before.update["update-type"])) {
    throw new DriftLeft(
      before,
      `${operation} (${id}): ${where} has an update that needs a restart (check-bundle-update says update-type ${printable(String(before.update["update-type"]))}), so ` +
        `reload-bundle was not sent; it differs from its bundle in:${listed(before.drift)}\nFix: restart the controller, then run \`pulumi up --refresh\``,
    );
  }
  let refusal: string | undefined;
  try {
    const result = await conn.client.reloadBundle();
    if (!result.reloaded) refusal = result.reason ?? "reloaded: false, without a reason";
  } catch (e) {
    // The outcome is read back below: a lost answer is not repeated blindly.
    if (!outcomeUnknown(e)) throw instanceCallFailed(conn, operation, id, e);
  } finally {
    forgetRunning(conn);
  }
  const after = observe(expected.view, await readOrFail(conn, operation, id), ignore, id, secrecy);
  if (after.drift.length === 0) return after;
  const said = refusal === undefined ? "it reloaded its bundle" : `it refused to reload: ${quoted(refusal)}`;
  throw new DriftLeft(
    after,
    `${operation} (${id}): ${where} still differs from bundle "${printable(String(inputs.bundleId))}" after a reload (${said}):` +
      `${listed(after.drift)}\nFix: ${wayOut(after.drift)}`,
  );
}

/** Drift a reload could not put back: the message, and what the controller runs for the state. */
class DriftLeft extends Error {
  constructor(readonly seen: Observed, message: string) {
    super(message);
  }
}

async function create(inputs: Props): Promise<{ id: string; outs: Props }> {
  const id = idOf(String(inputs.controllerPath));
  const operation = `creating ${TYPE_NAME}`;
  try {
    return { id, outs: outputsOf(inputs, await converge(operation, id, inputs)) };
  } catch (e) {
    // Recorded as found (drifted): the next preview shows the same drift rather than a clean state.
    if (e instanceof DriftLeft) throw partiallyCreated(e.message, id, outputsOf(inputs, e.seen), inputs, e);
    throw e;
  }
}

async function update(id: string, _olds: Props, news: Props): Promise<{ outs: Props }> {
  try {
    return { outs: outputsOf(news, await converge(`updating ${TYPE_NAME}`, id, news)) };
  } catch (e) {
    if (e instanceof DriftLeft) throw new ResourceError(e.message, { cause: e });
    throw e;
  }
}

async function read(id: string, props: Props): Promise<ReadResult> {
  const operation = `reading ${TYPE_NAME}`;
  const expected = expectedFrom(props);
  if ("error" in expected) throw operationFailed(operation, id, `${expected.error}. Run the refresh from the program's folder, or fix bundleTreePath`);
  const conn = connectionOf(operation, id, props);
  let running: RunningConfiguration;
  try {
    running = await readRunning(conn);
  } catch (e) {
    // The controller is gone: so is what this resource watched.
    if (e instanceof NotFoundError) return {};
    throw instanceCallFailed(conn, operation, id, e);
  }
  const seen = observe(expected.view, running, ignoreOf(props), id, secrecyOf(props.configuration));
  if (seen.drift.length > 0) {
    const keys = driftedKeys(seen.expected, seen.configuration);
    const more = keys.length > MAX_PATH_NOTES ? ` (who changed each path, and from what to what, follows for the first ${MAX_PATH_NOTES} of ${keys.length})` : "";
    warn(`${TYPE_NAME} (${id}): controller "${printable(String(props.controllerPath))}" differs from its bundle "${printable(String(props.bundleId))}": ${seen.drift.join("; ")}${more}`);
    const told = keys.slice(0, MAX_PATH_NOTES);
    const who = await whoChanged(conn, told);
    for (const key of told) warn(pathNote(id, key, seen.expected[key] ?? ABSENT, seen.configuration[key] ?? ABSENT, who.get(key)!));
  }
  const outs = outputsOf(props, seen);
  const inputs: Props = {};
  for (const k of INPUT_KEYS) if (props[k] !== undefined) inputs[k] = props[k];
  return { id, props: outs, inputs: plain({ ...inputs, configuration: seen.configuration, pendingUpdate: seen.pendingUpdate }) };
}

async function remove(): Promise<void> {
  // Nothing to undo: the controller keeps running what it runs.
}

export const controllerConfiguration: ResourceController = { check, diff, create, read, update, delete: remove };
