/**
 * ControllerBundleToken: issues a new bundle token for a controller and outputs the controller's bundle link, in the
 * style of pulumi-command: it runs on create and again when `triggers` changes.
 *
 * | operation | calls | notes |
 * |---|---|---|
 * | check | nothing | controllerPath a full path; triggers a list |
 * | diff | nothing | controllerPath change replaces; triggers change regenerates (update) |
 * | create | POST casc-bundle/regenerate-token?controllerPath=, then GET config-bundle-download-link?id= | regenerate is retried (another fresh token is harmless); the link read after it gives the token in force |
 * | update | when triggers changed: both calls; else only the link (after a create that stopped half-way) | |
 * | read | GET config-bundle-download-link?id= | token changed outside Pulumi: the new one shows as drift and is kept; 404: dropped |
 * | delete | nothing | the API cannot revoke a token without issuing another: the controller keeps its current one |
 *
 * The token and the link file content are secrets: the SDK class lists them in additionalSecretOutputs, so the engine
 * encrypts them in the state (the provider host cannot return secrets itself). A create whose regenerate-token worked
 * but whose link read failed is recorded as partially created with an empty token (never a plain token in an error's
 * properties): a refresh or the next up reads the link.
 */
import type { BundleDownloadLink } from "../../clients/casc-types";
import { NotFoundError, outcomeUnknown } from "../../http/errors";
import { actionDiff, echoInputs, mustRerun, type ActionInputsSpec } from "../shared/actions";
import { findBundleUsedBy } from "../shared/casc";
import { InputChecker } from "../shared/check";
import { partiallyCreated } from "../shared/errors";
import { instanceCallFailed, operationsCenterInstance, type OperationsCenterInstance } from "../shared/instance";
import type { CheckResult, DiffResult, Props, ReadResult, ResourceController } from "../shared/types";
import { plain } from "../shared/values";
import { controllerPathOf, idOf, INPUT_KEYS, TYPE_NAME } from "./types";
import { quoted } from "../../text/printable";

const SPEC: ActionInputsSpec = { replaceOn: ["controllerPath"] };

async function check(_olds: Props, news: Props): Promise<CheckResult> {
  const c = new InputChecker(news, INPUT_KEYS);
  c.fullPathText("controllerPath", { required: true, example: "team-a/controller-a" });
  c.triggers();
  return c.result();
}

async function diff(_id: string, olds: Props, news: Props): Promise<DiffResult> {
  return actionDiff(olds, news, SPEC);
}

function outputsOf(inputs: Props, link: BundleDownloadLink): Props {
  const linkFileContent = link.url === "" && link.token === "" ? "" : `${link.url}\n${link.token}`;
  return plain({ ...echoInputs(inputs, INPUT_KEYS), url: link.url, token: link.token, linkFileContent });
}

/** A 404 says the controller is unknown or has no bundle: the bundle list tells which, for the message. */
async function notFoundCause(conn: OperationsCenterInstance, controllerPath: string): Promise<string> {
  const assigned = await findBundleUsedBy({ oc: conn.oc!, bundles: conn.bundles! }, controllerPath).catch(() => undefined);
  if (assigned) {
    return `the operations center found no bundle link for controller "${controllerPath}" (controllerPath), although bundle ${quoted(assigned.name)} is assigned to it. Fix: check the controller's full path`;
  }
  return (
    `controllerPath "${controllerPath}" names no controller with a CasC bundle: a bundle token exists only for a controller ` +
    `that has a bundle assigned. Fix: give the controller's full path as the operations center shows it (folder1/controller1), ` +
    `and assign it a bundle first: a ControllerBundleAssignment for "${controllerPath}" that this resource depends on (dependsOn)`
  );
}

/**
 * POST casc-bundle/regenerate-token (the client repeats it after a lost answer: another fresh token is harmless).
 * When the answer is still lost, a link whose token is not `previousToken` proves the regenerate worked.
 */
async function regenerate(conn: OperationsCenterInstance, operation: string, id: string, controllerPath: string, previousToken?: unknown): Promise<void> {
  try {
    await conn.client.regenerateToken(controllerPath);
  } catch (e) {
    if (outcomeUnknown(e) && typeof previousToken === "string" && previousToken !== "") {
      const now = await conn.client.getBundleDownloadLink(controllerPath).catch(() => undefined);
      if (now && now.token !== "" && now.token !== previousToken) return;
    }
    if (e instanceof NotFoundError) throw instanceCallFailed(conn, operation, id, e, await notFoundCause(conn, controllerPath));
    throw instanceCallFailed(conn, operation, id, e);
  }
}

async function link(conn: OperationsCenterInstance, operation: string, id: string, controllerPath: string): Promise<BundleDownloadLink> {
  try {
    return await conn.client.getBundleDownloadLink(controllerPath);
  } catch (e) {
    if (e instanceof NotFoundError) throw instanceCallFailed(conn, operation, id, e, await notFoundCause(conn, controllerPath));
    throw instanceCallFailed(conn, operation, id, e);
  }
}

/**
 * The link after a regenerate-token that worked: the old token no longer works, so a failure here must not leave
 * the old one in the state (nor orphan a new resource). It is recorded with an empty token, never a plain one in the
 * error's properties; the next refresh or up reads the link.
 */
async function linkAfterRegenerate(conn: OperationsCenterInstance, operation: string, id: string, inputs: Props): Promise<Props> {
  try {
    return outputsOf(inputs, await link(conn, operation, id, String(inputs.controllerPath)));
  } catch (e) {
    throw partiallyCreated(
      `${(e as Error).message} (the token was regenerated: run \`pulumi refresh\` or \`pulumi up\` to read the new one)`,
      id,
      outputsOf(inputs, { url: "", token: "" }),
      inputs,
      e,
    );
  }
}

async function create(inputs: Props): Promise<{ id: string; outs: Props }> {
  const controllerPath = String(inputs.controllerPath);
  const id = idOf(controllerPath);
  const operation = `creating ${TYPE_NAME}`;
  const conn = operationsCenterInstance(operation, id);
  await regenerate(conn, operation, id, controllerPath);
  return { id, outs: await linkAfterRegenerate(conn, operation, id, inputs) };
}

async function read(id: string, props: Props): Promise<ReadResult> {
  const controllerPath = typeof props.controllerPath === "string" ? props.controllerPath : controllerPathOf(id);
  const operation = `reading ${TYPE_NAME}`;
  const conn = operationsCenterInstance(operation, id);
  let current: BundleDownloadLink;
  try {
    current = await conn.client.getBundleDownloadLink(controllerPath);
  } catch (e) {
    // The controller is gone, or has no bundle any more: its token is gone with it.
    if (e instanceof NotFoundError) return {};
    throw instanceCallFailed(conn, operation, id, e);
  }
  // A token regenerated outside Pulumi (UI, script, another stack) shows as a change of token and linkFileContent;
  // the state then holds the token that works.
  const inputs = echoInputs({ ...props, controllerPath }, INPUT_KEYS);
  return { id, props: outputsOf(inputs, current), inputs };
}

async function update(id: string, olds: Props, news: Props): Promise<{ outs: Props }> {
  const controllerPath = String(news.controllerPath);
  const operation = `updating ${TYPE_NAME}`;
  const conn = operationsCenterInstance(operation, id);
  if (mustRerun(olds, news, SPEC)) {
    await regenerate(conn, operation, id, controllerPath, olds.token);
    return { outs: await linkAfterRegenerate(conn, operation, id, news) };
  }
  if (typeof olds.token === "string" && olds.token !== "") {
    // Nothing to run again (the engine may still call update, e.g. after a partial create): keep what is known.
    return { outs: outputsOf(news, { url: String(olds.url ?? ""), token: olds.token }) };
  }
  return { outs: outputsOf(news, await link(conn, operation, id, controllerPath)) };
}

async function remove(): Promise<void> {
  // Nothing to undo: a token cannot be revoked without issuing another, which would break the controller's link.
}

export const controllerBundleToken: ResourceController = { check, diff, create, read, update, delete: remove };
