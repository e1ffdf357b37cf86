/**
 * What the action resources share (BundleCheckout, ControllerBundleToken, BundleReload, Items, BundleValidation). In
 * the style of pulumi-command's Command: they run on create and again when `triggers` (or another input said to
 * re-run) changes. Unlike Command, a trigger change runs the action again in place (an update), not through a
 * replacement: the ids are stable, and delete undoes nothing remote, so a replacement would only add a no-op delete
 * (and, for Items, a misleading "items stay" warning).
 */
import type { DiffResult, Props, ReadResult } from "./types";
import { containsUnknown, isUnknown, plain, PROVIDER_KEY, sameJson } from "./values";

export interface ActionInputsSpec {
  /** Inputs whose change replaces the resource (another target: a controller, an instance, a folder on disk). */
  replaceOn?: string[];
  /** Inputs whose change runs the action again (`triggers` is always one). */
  rerunOn?: string[];
  /** Inputs whose change is only recorded: they matter to the next run, not to what was done. */
  recordOn?: string[];
}

/** Whether `key` differs between the old outputs and the new inputs; a value not known yet always does. */
export function changed(olds: Props, news: Props, key: string): boolean {
  return containsUnknown(news[key]) || !sameJson(olds[key], news[key]);
}

function rerunKeys(spec: ActionInputsSpec): string[] {
  return ["triggers", ...(spec.rerunOn ?? [])];
}

/** The diff of an action resource: explicit `changes` always; a new provider text alone is no change. */
export function actionDiff(olds: Props, news: Props, spec: ActionInputsSpec): DiffResult {
  const replaces = (spec.replaceOn ?? []).filter((k) => isUnknown(news[k]) || changed(olds, news, k));
  const changes = replaces.length > 0 || [...rerunKeys(spec), ...(spec.recordOn ?? [])].some((k) => changed(olds, news, k));
  return { changes, replaces, deleteBeforeReplace: false };
}

/** Whether an update must run the action again (else it only records the inputs that changed). */
export function mustRerun(olds: Props, news: Props, spec: ActionInputsSpec): boolean {
  return rerunKeys(spec).some((k) => changed(olds, news, k));
}

/**
 * Read of an action: there is nothing remote to read back (what ran, ran), so the state stays as it is, without a
 * request. `inputKeys` are the inputs the outputs repeat, returned as `inputs` so the next diff compares like with like.
 */
export function unchangedRead(id: string, props: Props, inputKeys: string[]): ReadResult {
  const outs: Props = { ...props };
  delete outs[PROVIDER_KEY];
  const inputs: Props = {};
  for (const k of inputKeys) if (props[k] !== undefined && props[k] !== null) inputs[k] = props[k];
  return { id, props: plain(outs), inputs: plain(inputs) };
}

/** The inputs to repeat in the outputs (those given), as plain JSON. */
export function echoInputs(inputs: Props, keys: string[]): Props {
  const out: Props = {};
  for (const k of keys) if (inputs[k] !== undefined && inputs[k] !== null) out[k] = inputs[k];
  return plain(out);
}
