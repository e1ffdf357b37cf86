/**
 * GlobalAvailabilityPattern: the operations center's "bundles without a pattern are available to all" switch.
 *
 * | operation | calls | notes |
 * |---|---|---|
 * | check | nothing | visibility required, true or false |
 * | diff | nothing | a change updates in place |
 * | create, update | the shared GET casc-bundle/list; POST casc-bundle/set-global-availability-pattern-behavior unless the list shows the switch already as asked | takeover: no write |
 * | read | the shared GET casc-bundle/list | inferred, see below |
 * | delete | as create, with visibility=false | back to the secure setting |
 *
 * No endpoint reads the switch. Read infers it from the bundle list: a bundle without a pattern (regex "") that is
 * available to some controller means true; such bundles available to none while controllers exist means false;
 * without a bundle lacking a pattern, or without controllers, it cannot tell and keeps the state as it was.
 */
import type { ListedBundle } from "../../clients/casc-types";
import { callFailed, casc, listBundles, listBundlesOrFail } from "../shared/casc";
import { InputChecker } from "../shared/check";
import type { CheckResult, DiffResult, Props, ReadResult, ResourceController } from "../shared/types";
import { containsUnknown } from "../shared/values";
import { ID, TYPE_NAME, INPUT_KEYS } from "./types";

async function check(_olds: Props, news: Props): Promise<CheckResult> {
  const c = new InputChecker(news, INPUT_KEYS);
  c.boolean("visibility", { required: true });
  return c.result();
}

async function diff(_id: string, olds: Props, news: Props): Promise<DiffResult> {
  return { changes: containsUnknown(news.visibility) || news.visibility !== olds.visibility, replaces: [], deleteBeforeReplace: false };
}

/** The switch as the bundle list reveals it, or undefined when the list cannot tell. */
export function inferVisibility(bundles: ReadonlyArray<Pick<ListedBundle, "regex" | "availableFor" | "usedBy">>): boolean | undefined {
  const withoutPattern = bundles.filter((b) => b.regex === "");
  if (withoutPattern.some((b) => b.availableFor.length > 0)) return true;
  const controllersExist = bundles.some((b) => b.availableFor.length > 0 || b.usedBy.length > 0);
  return withoutPattern.length > 0 && controllersExist ? false : undefined;
}

/** Sets the switch, unless the bundle list shows it already as asked (takeover without a write). */
async function set(operation: string, id: string, visibility: boolean): Promise<boolean> {
  const c = casc(operation, id);
  try {
    if (inferVisibility(await listBundles(c)) === visibility) return visibility;
    return await c.bundles.write(() => c.oc.client.setGlobalAvailabilityPatternBehavior(visibility));
  } catch (e) {
    throw callFailed(c, operation, id, e);
  }
}

async function create(inputs: Props): Promise<{ id: string; outs: Props }> {
  const visibility = await set(`creating ${TYPE_NAME}`, ID, inputs.visibility === true);
  return { id: ID, outs: { visibility } };
}

async function read(id: string, props: Props): Promise<ReadResult> {
  const operation = `reading ${TYPE_NAME}`;
  const c = casc(operation, id);
  const bundles = await listBundlesOrFail(c, operation, id);
  const visibility = inferVisibility(bundles) ?? props.visibility === true;
  return { id, props: { visibility }, inputs: { visibility } };
}

async function update(id: string, _olds: Props, news: Props): Promise<{ outs: Props }> {
  return { outs: { visibility: await set(`updating ${TYPE_NAME}`, id, news.visibility === true) } };
}

async function remove(id: string): Promise<void> {
  await set(`deleting ${TYPE_NAME}`, id, false);
}

export const globalAvailabilityPattern: ResourceController = { check, diff, create, read, update, delete: remove };
