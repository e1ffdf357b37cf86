import { printable, quoted } from "../text/printable";

// What stops the expected side from being built, one class per kind, each naming the bundle or file and the way out.
// Bundle and file names come from the caller's tree: quoted and escaped.

/** The expected configuration cannot be built from the local bundle tree. */
export class ConfigurationError extends Error {
  override name = "ConfigurationError";
  constructor(
    message: string,
    /** The bundle at fault. */
    readonly bundle: string,
  ) {
    super(printable(message));
  }
}

export class BundleNotFoundError extends ConfigurationError {
  override name = "BundleNotFoundError";
  constructor(treeRoot: string, bundle: string, known: readonly string[]) {
    const some = known.slice(0, 10).map(quoted).join(", ");
    super(
      `No bundle ${quoted(bundle)} in the bundle tree ${quoted(treeRoot)} (a bundle is a folder holding bundle.yaml, named by its path below the tree). ` +
        (known.length === 0 ? "The tree holds no bundle: check bundleTreePath." : `Bundles there: ${some}${known.length > 10 ? ", ..." : ""}; check bundleId.`),
      bundle,
    );
  }
}

export class MissingParentError extends ConfigurationError {
  override name = "MissingParentError";
  constructor(bundle: string, parent: string) {
    super(`Bundle ${quoted(bundle)} names the parent ${quoted(parent)}, which is not in the bundle tree: add it, or fix 'parent' in its bundle.yaml.`, bundle);
  }
}

export class ParentCycleError extends ConfigurationError {
  override name = "ParentCycleError";
  constructor(bundle: string, through: string) {
    super(`Bundle ${quoted(bundle)} has a parent cycle through ${quoted(through)}: a bundle cannot inherit from itself; fix 'parent' in the bundle.yaml files of the cycle.`, bundle);
  }
}

/**
 * bundle.yaml unreadable, or a section naming a file that is not there. `detail` is the toolkit's sentence about the
 * bundle (provider/bundle/inheritance.ts), which starts with "Bundle '<name>'": the bundle is named once, quoted.
 */
export class BundleDescriptorError extends ConfigurationError {
  override name = "BundleDescriptorError";
  constructor(bundle: string, detail: string) {
    const prefix = `Bundle '${bundle}'`;
    const rest = detail.startsWith(prefix) ? detail.slice(prefix.length) : `: ${detail}`;
    const sentence = /[.!?]$/.test(rest) ? rest : `${rest}.`;
    super(`Bundle ${quoted(bundle)}${sentence} Fix the bundle (lintBundle of pulumi-cloudbees/provider lists every problem).`, bundle);
  }
}

export class UnreadableYamlError extends ConfigurationError {
  override name = "UnreadableYamlError";
  constructor(
    bundle: string,
    readonly file: string,
    detail: string,
    line?: number,
  ) {
    super(`The file ${quoted(file)} of bundle ${quoted(bundle)} is not valid YAML${line === undefined ? "" : ` (line ${line})`}: ${detail}. Fix the file.`, bundle);
  }
}

/** A jcasc file holding something other than a mapping (a list, a scalar): JCasC refuses it. */
export class JcascDocumentError extends ConfigurationError {
  override name = "JcascDocumentError";
  constructor(
    bundle: string,
    readonly file: string,
  ) {
    super(`The jcasc file ${quoted(file)} of bundle ${quoted(bundle)} does not hold a mapping, which JCasC requires: fix the file.`, bundle);
  }
}

/** JCasC refuses to merge the bundle's jcasc files (the operations center refuses the bundle as well). */
export class JcascMergeError extends ConfigurationError {
  override name = "JcascMergeError";
  constructor(bundle: string, detail: string) {
    super(`The jcasc files of bundle ${quoted(bundle)} and its parents cannot be merged: ${detail}`, bundle);
  }
}
