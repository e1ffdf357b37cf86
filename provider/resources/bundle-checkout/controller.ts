/**
 * BundleCheckout: makes the operations center re-read its bundle locations, in the style of pulumi-command: it runs
 * on create and again when `triggers` changes.
 *
 * | operation | calls | notes |
 * |---|---|---|
 * | check | nothing | timeoutSeconds a whole number >= 1; triggers a list |
 * | diff | nothing | triggers change: runs again (update); timeoutSeconds alone: recorded, no call |
 * | create | POST casc-bundle/check-out?timeout= | through the shared bundle list's write: lists sent before it are not reused |
 * | update | POST casc-bundle/check-out when triggers changed | |
 * | read | nothing | a check-out is not a thing to read back: the state stays |
 * | delete | nothing | the bundles checked out stay where they are; nothing to undo remotely |
 *
 * The client waits for the check-out as long as the server may take (timeoutSeconds, or the server's default 600 s,
 * plus a margin) when that is longer than cloudbees:timeoutMs: the operations center answers only when it is done.
 */
import type { CheckOutResult } from "../../clients/casc-types";
import { MAX_TIMEOUT_SECONDS } from "../../clients/limits";
import { actionDiff, echoInputs, mustRerun, unchangedRead, type ActionInputsSpec } from "../shared/actions";
import { InputChecker } from "../shared/check";
import { instanceCallFailed, operationsCenterInstance } from "../shared/instance";
import type { CheckResult, DiffResult, Props, ReadResult, ResourceController } from "../shared/types";
import { plain } from "../shared/values";
import { ID, INPUT_KEYS, TYPE_NAME, type BundleCheckoutOutputs } from "./types";

const SPEC: ActionInputsSpec = { recordOn: ["timeoutSeconds"] };

async function check(_olds: Props, news: Props): Promise<CheckResult> {
  const c = new InputChecker(news, INPUT_KEYS);
  c.positiveInteger("timeoutSeconds", { required: false, example: 600, max: MAX_TIMEOUT_SECONDS });
  c.triggers();
  return c.result();
}

async function diff(_id: string, olds: Props, news: Props): Promise<DiffResult> {
  return actionDiff(olds, news, SPEC);
}

function outputsOf(inputs: Props, result: Pick<BundleCheckoutOutputs, "remotes">): Props {
  const remotes = result.remotes.map((r) => ({ name: r.name, bundles: r.bundles.map((b) => ({ bundleName: b.bundleName, localText: b.localText })) }));
  const bundles = [...new Set(remotes.flatMap((r) => r.bundles.map((b) => b.bundleName)))].sort();
  return plain({ ...echoInputs(inputs, INPUT_KEYS), remotes, bundles });
}

async function checkOut(operation: string, inputs: Props): Promise<CheckOutResult> {
  const timeoutSeconds = typeof inputs.timeoutSeconds === "number" ? inputs.timeoutSeconds : undefined;
  const conn = operationsCenterInstance(operation, ID);
  try {
    // A write for the shared bundle list: a list request already sent may not see the bundles checked out.
    return await conn.bundles.write(() => conn.client.checkOut(timeoutSeconds === undefined ? {} : { timeoutSeconds }));
  } catch (e) {
    throw instanceCallFailed(conn, operation, ID, e);
  }
}

async function create(inputs: Props): Promise<{ id: string; outs: Props }> {
  const result = await checkOut(`creating ${TYPE_NAME}`, inputs);
  return { id: ID, outs: outputsOf(inputs, result) };
}

async function read(id: string, props: Props): Promise<ReadResult> {
  return unchangedRead(id, props, INPUT_KEYS);
}

async function update(_id: string, olds: Props, news: Props): Promise<{ outs: Props }> {
  if (mustRerun(olds, news, SPEC)) return { outs: outputsOf(news, await checkOut(`updating ${TYPE_NAME}`, news)) };
  const previous = { remotes: Array.isArray(olds.remotes) ? (olds.remotes as BundleCheckoutOutputs["remotes"]) : [] };
  return { outs: outputsOf(news, previous) };
}

async function remove(): Promise<void> {
  // Nothing to undo: the bundles checked out stay in the operations center.
}

export const bundleCheckout: ResourceController = { check, diff, create, read, update, delete: remove };
