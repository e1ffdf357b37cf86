import * as core from "../../provider/functions/bundle-checks";
import type { EffectiveBundle, EffectiveBundleOptions, PreValidateBundlesOptions } from "../../provider/functions/bundle-checks";
import type { BundleSource } from "../../provider/functions/bundle-sources";
import type { InstanceOptions, QuietOptions } from "../../provider/functions/calls";
import type { BundlePreValidation, InstanceValidationResult } from "../../provider/functions/results";
import { programHost } from "./host";

// Bundle checks on a server, of a bundle given as a folder, a zip file or a zip: the TypeScript face of
// provider/functions/bundle-checks.ts, with the program's settings (host.ts).

/**
 * Validates one bundle against an instance (POST `casc-bundle-mgnt/casc-bundle-validate`): the operations center,
 * or the controller at `instanceUrl`. `bundle` is the bundle's folder (zipped with its files at the top, as the
 * endpoint wants), a zip file's path, or the zip. Returns the verdict `{valid, validationMessages}`: an invalid
 * bundle is not an error.
 * Under `setMocks`: token `cloudbees:index:validateBundle`.
 */
export async function validateBundle(bundle: BundleSource, options?: InstanceOptions & QuietOptions): Promise<InstanceValidationResult> {
  return core.validateBundle(programHost, bundle, options);
}

/**
 * Pre-validates raw bundles on the operations center before they are checked out (POST
 * `casc-bundle/pre-validate-bundle`). `tree` is a bundle location folder (every folder below it holding a
 * bundle.yaml is a bundle, zipped in the branch-folder layout), a zip file's path, or the zip. Returns
 * `{validations: [{bundle, result}]}`; an inconsistent bundle (a reference to a missing file) is the server's error.
 * A verdict this version cannot read is skipped, with a warning that names its bundle and why: that bundle is not
 * known valid (check the warnings, or use BundleValidation, which fails on it).
 * Under `setMocks`: token `cloudbees:index:preValidateBundles`.
 */
export async function preValidateBundles(tree: BundleSource, options?: PreValidateBundlesOptions): Promise<BundlePreValidation> {
  return core.preValidateBundles(programHost, tree, options);
}

/**
 * The effective bundle of `bundle` (inheritance applied), computed by the operations center (POST
 * `casc-bundle/get-effective-bundle?bundle=`) from raw bundles: `tree` is a bundle location folder, a zip file's
 * path, or the zip (branch-folder layout). With a folder, `bundle` is its path below the folder (`team-a`) and the
 * zip holds it and its parents found there (other parents are the operations center's). An inconsistent bundle
 * (a reference to a missing file) fails with the server's message, and no effective bundle.
 * Under `setMocks`: token `cloudbees:index:getEffectiveBundle`.
 */
export async function getEffectiveBundle(
  tree: BundleSource,
  bundle: string,
  options: EffectiveBundleOptions & { includeZip: true },
): Promise<EffectiveBundle & { zip: Buffer }>;
export async function getEffectiveBundle(tree: BundleSource, bundle: string, options?: EffectiveBundleOptions): Promise<EffectiveBundle>;
export async function getEffectiveBundle(tree: BundleSource, bundle: string, options?: EffectiveBundleOptions): Promise<EffectiveBundle> {
  return core.getEffectiveBundle(programHost, tree, bundle, options);
}
