import * as core from "../../provider/functions/operations-center";
import type { FunctionOptions, QuietOptions } from "../../provider/functions/calls";
import type { EffectiveBundleValidationLogOptions, RawBundleValidationLogOptions } from "../../provider/functions/operations-center";
import type { BundleSummary, BundleValidationResult, EffectiveBundleValidationLogResult, RawBundleValidationLogResult } from "../../provider/functions/results";
import { programHost } from "./host";

// The operations center's bundle reads and validations: the TypeScript face of provider/functions/operations-
// center.ts, with the program's settings (host.ts).

/**
 * Every bundle of the operations center (GET `casc-bundle/list`), with `regex`, `availableFor` and `usedBy`. A bundle
 * this version cannot read is skipped, with a warning that names it and why; the others are returned.
 * Under `setMocks`: token `cloudbees:index:getBundles`.
 */
export async function getBundles(options?: FunctionOptions): Promise<BundleSummary[]> {
  return core.getBundles(programHost, options);
}

/**
 * One bundle by name (its folder path in the bundle location, e.g. `team-a`), from GET `casc-bundle/list` (the API
 * has no single-bundle read). An unknown name is a NotFoundError that lists the bundles there are; a bundle listed in
 * a form this version cannot read is an UnexpectedResponseError that names why.
 * Under `setMocks`: token `cloudbees:index:getBundle`.
 */
export async function getBundle(name: string, options?: FunctionOptions): Promise<BundleSummary> {
  return core.getBundle(programHost, name, options);
}

/**
 * The raw bundle validation log (GET `casc-bundle/raw-bundle-validation-log`, parameters `bundle`, `controller`):
 * `{ validationLog: [{ bundleId, records, controllers? }] }`. A bundle's entry this version cannot read is skipped,
 * with a warning that names it and why; the others are returned.
 * Under `setMocks`: token `cloudbees:index:getRawBundleValidationLog`.
 */
export async function getRawBundleValidationLog(options?: RawBundleValidationLogOptions): Promise<RawBundleValidationLogResult> {
  return core.getRawBundleValidationLog(programHost, options);
}

/**
 * The effective bundle validation log per controller (GET `casc-bundle/effective-bundle-validation-log`):
 * `{ validationLog: [{ controller, records }] }`. A controller's entry this version cannot read is skipped, with a
 * warning that names it and why; the others are returned.
 * Under `setMocks`: token `cloudbees:index:getEffectiveBundleValidationLog`.
 */
export async function getEffectiveBundleValidationLog(options?: EffectiveBundleValidationLogOptions): Promise<EffectiveBundleValidationLogResult> {
  return core.getEffectiveBundleValidationLog(programHost, options);
}

/**
 * Validates a bundle the operations center already has (POST `casc-bundle/validate-uploaded-bundle?bundleId=`):
 * `valid`, `structureValidations`, `controllerValidations`. A verdict, not an error: check `valid`.
 * Under `setMocks`: token `cloudbees:index:validateUploadedBundle`.
 */
export async function validateUploadedBundle(bundleId: string, options?: FunctionOptions & QuietOptions): Promise<BundleValidationResult> {
  return core.validateUploadedBundle(programHost, bundleId, options);
}
