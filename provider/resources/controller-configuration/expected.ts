/**
 * What a bundle says its controllers should run, from the program's bundle folders, read once per process: every
 * ControllerConfiguration of a deployment (50 controllers on one tree) shares one read of the tree and one view per
 * bundle. The folders do not change within a deployment; the next one (a new provider process) reads them again.
 */
import * as path from "node:path";
import { readBundleTree } from "../../bundle/files";
import { BundleNotFoundError, expectedViewOf, type ConfigurationView } from "../../configuration";
import { providerState } from "../../config/state";
import { messageOf } from "../shared/errors";
import { printable } from "../../text/printable";
import type { Props } from "../shared/types";

export type Expected = { view: ConfigurationView } | { error: string };

function views(): Map<string, Expected> {
  const state = providerState();
  return (state.expectedViews ??= new Map()) as Map<string, Expected>;
}

function trees(): Map<string, ReturnType<typeof readBundleTree>> {
  const state = providerState();
  return (state.bundleTrees ??= new Map()) as Map<string, ReturnType<typeof readBundleTree>>;
}

function viewOf(root: string, bundleId: string): ConfigurationView {
  let tree = trees().get(root);
  if (!tree) {
    tree = readBundleTree(root);
    trees().set(root, tree);
  }
  const bundle = tree.get(bundleId);
  if (!bundle) throw new BundleNotFoundError(root, bundleId, [...tree.keys()]);
  return expectedViewOf(tree, bundle);
}

/** The bundle's view from the local tree (relative to the program's folder), or the reason it cannot be read. */
export function expectedFrom(inputs: Props): Expected {
  const root = path.resolve(String(inputs.bundleTreePath));
  const bundleId = String(inputs.bundleId);
  const key = `${root}\n${bundleId}`;
  const kept = views().get(key);
  if (kept) return kept;
  let result: Expected;
  try {
    result = { view: viewOf(root, bundleId) };
  } catch (e) {
    result = {
      error:
        `bundle "${printable(bundleId)}" in bundleTreePath "${printable(String(inputs.bundleTreePath))}" (resolved from ${process.cwd()}, ` +
        `the program's folder, to ${root}) cannot be read: ${messageOf(e)}`,
    };
  }
  views().set(key, result);
  return result;
}
