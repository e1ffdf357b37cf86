/**
 * DefaultBundle: the bundle the operations center pre-selects for controllers that match its availability pattern.
 * Setting it assigns nothing (ordering rule 2 of the spec).
 *
 * | operation | calls | notes |
 * |---|---|---|
 * | check | nothing | bundleId required |
 * | diff | nothing | a bundleId change updates in place (there is one default per operations center) |
 * | create, update | POST casc-bundle/set-default-bundle, then the shared GET casc-bundle/list | |
 * | read | the shared GET casc-bundle/list | checks the bundle still exists (gone: dropped) |
 * | delete | nothing (a warning) | the API cannot unset the default |
 *
 * No endpoint tells which bundle is the default: read cannot see a default changed outside Pulumi (in the UI or by
 * another stack). `pulumi up` with no diff does not set it again; change the input, or replace the resource
 * (`pulumi up --replace <urn>`), to set it again. For the same reason a create cannot tell that the server already
 * holds the value, and always sends it (setting the default it already has changes nothing on the server).
 *
 * The output is the bundle id alone: the controllers it is pre-selected for follow its availability pattern, which
 * other resources and people change (getBundle gives them).
 */
import type { ListedBundle } from "../../clients/casc-types";
import { NotFoundError } from "../../http/errors";
import { bundleNamesText, callFailed, casc, findBundle, findBundleOrFail, listBundles, type Casc } from "../shared/casc";
import { listUnchanged } from "../shared/bundle-list-cache";
import { InputChecker } from "../shared/check";
import { operationFailed, partiallyCreated, warn } from "../shared/errors";
import type { CheckResult, DiffResult, Props, ReadResult, ResourceController } from "../shared/types";
import { containsUnknown, plain } from "../shared/values";
import { ID, TYPE_NAME, type DefaultBundleOutputs, INPUT_KEYS } from "./types";

async function check(_olds: Props, news: Props): Promise<CheckResult> {
  const c = new InputChecker(news, INPUT_KEYS);
  c.text("bundleId", { required: true, example: "base" });
  return c.result();
}

async function diff(_id: string, olds: Props, news: Props): Promise<DiffResult> {
  const changes = containsUnknown(news.bundleId) || news.bundleId !== olds.bundleId;
  return { changes, replaces: [], deleteBeforeReplace: false };
}

function outputsOf(bundle: ListedBundle): DefaultBundleOutputs {
  return { bundleId: bundle.name };
}

async function setDefault(c: Casc, operation: string, id: string, bundleId: string): Promise<void> {
  try {
    await c.bundles.write(() => c.oc.client.setDefaultBundle(bundleId), listUnchanged);
  } catch (e) {
    if (e instanceof NotFoundError) {
      const bundles = await listBundles(c).catch(() => undefined);
      if (bundles && !bundles.some((b) => b.name === bundleId)) {
        throw operationFailed(
          operation,
          id,
          `bundleId "${bundleId}" names no bundle: ${bundleNamesText(bundles)}. Fix: set bundleId to one of them, or add ` +
            `the bundle to the bundle location and check it out`,
          e,
        );
      }
    }
    throw callFailed(c, operation, id, e);
  }
}

async function create(inputs: Props): Promise<{ id: string; outs: Props }> {
  const bundleId = String(inputs.bundleId);
  const operation = `creating ${TYPE_NAME}`;
  const c = casc(operation, ID);
  await setDefault(c, operation, ID, bundleId);
  let bundle: ListedBundle | undefined;
  try {
    bundle = await findBundle(c, bundleId);
  } catch (e) {
    throw partiallyCreated(`${operation} (${ID}): the default is set, but reading the bundle list failed: ${(e as Error).message}`, ID, { bundleId }, inputs, e);
  }
  if (!bundle) throw partiallyCreated(`${operation} (${ID}): the default is set, but the bundle is no longer listed`, ID, { bundleId }, inputs, undefined);
  return { id: ID, outs: plain({ ...outputsOf(bundle) }) };
}

async function read(id: string, props: Props): Promise<ReadResult> {
  const bundleId = String(props.bundleId ?? "");
  const operation = `reading ${TYPE_NAME}`;
  const c = casc(operation, id);
  const bundle = await findBundleOrFail(c, bundleId, operation, id);
  if (!bundle) return {};
  return { id, props: plain({ ...outputsOf(bundle) }), inputs: { bundleId } };
}

async function update(id: string, _olds: Props, news: Props): Promise<{ outs: Props }> {
  const bundleId = String(news.bundleId);
  const operation = `updating ${TYPE_NAME}`;
  const c = casc(operation, id);
  await setDefault(c, operation, id, bundleId);
  const bundle = await findBundleOrFail(c, bundleId, `${operation}: the default is set, but reading the bundle list failed`, id);
  if (!bundle) throw operationFailed(operation, id, `the default is set, but bundle "${bundleId}" is no longer listed`);
  return { outs: plain({ ...outputsOf(bundle) }) };
}

async function remove(id: string, props: Props): Promise<void> {
  warn(
    `${TYPE_NAME} (${id}): the CasC API cannot unset the default bundle, so "${String(props.bundleId)}" stays the ` +
      `default. Set another one (a DefaultBundle resource, or the operations center's configuration) if needed.`,
  );
}

export const defaultBundle: ResourceController = { check, diff, create, read, update, delete: remove };
