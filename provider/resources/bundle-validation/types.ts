/**
 * BundleValidation: validates a local bundle (lint, then casc-bundle-validate on an instance) or bundle tree (lint,
 * then pre-validate-bundle on the operations center), and fails when an ERROR is found.
 */
import { uniqueSorted } from "../shared/values";

export const TYPE_NAME = "BundleValidation";

export interface BundleValidationInputs {
  /** A bundle folder (holding bundle.yaml), relative to the program's folder or absolute. Exactly one of bundlePath, bundleTreePath. */
  bundlePath?: string;
  /** Instance that validates bundlePath (casc-bundle-validate). Default: the operations center. Not with bundleTreePath. */
  instanceUrl?: string;
  /** A bundle location (a folder of bundle folders): pre-validate-bundle on the operations center. */
  bundleTreePath?: string;
  /** With bundleTreePath: the bundles (names below it, e.g. "team-a") to validate, with their parents. Default: all. */
  bundles?: string[];
  /** With bundleTreePath: the branch the bundles come from (the zip's top folder, "/" written "___"). Default "main". */
  branch?: string;
  /** Any values: a change validates again. */
  triggers?: unknown[];
  /** Computed by check from the files (not given by programs): SHA-256 of what is validated. */
  contentHash?: string;
}

export interface BundleValidationOutputs extends BundleValidationInputs {
  contentHash: string;
  /** The server's messages, `<LEVEL> - [<CODE>] - <text>` (tree: prefixed with the bundle, `main/team-a: ...`). */
  messages: string[];
  /** The local lint's messages (tree: prefixed with the bundle name). */
  lintMessages: string[];
}

export function idOf(inputs: { bundlePath?: unknown; bundleTreePath?: unknown }): string {
  return typeof inputs.bundleTreePath === "string"
    ? `bundle-tree-validation/${inputs.bundleTreePath}`
    : `bundle-validation/${String(inputs.bundlePath)}`;
}

/** The inputs a program gives (check fails on any other field). */
export const INPUT_KEYS = ["bundlePath", "instanceUrl", "bundleTreePath", "bundles", "branch", "triggers"];

/** What the outputs repeat, and what check accepts: the inputs, and the content hash check computes (and replaces). */
export const ECHOED_KEYS = [...INPUT_KEYS, "contentHash"];

/** `bundles` compared as a set. */
export function bundleSet(value: unknown): string[] | undefined {
  return Array.isArray(value) ? uniqueSorted(value.map(String)) : undefined;
}
