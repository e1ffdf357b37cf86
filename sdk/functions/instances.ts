import * as core from "../../provider/functions/instances";
import type { SchemaFile } from "../../provider/clients/inputs";
import type { InstanceOptions, QuietOptions } from "../../provider/functions/calls";
import type { ExportEffectiveBundleOptions, ExportItemOptions } from "../../provider/functions/instances";
import type { BundleUpdateCheckResult, UpdateLogResult } from "../../provider/functions/results";
import type { BundleFiles } from "../../provider/functions/zips";
import { programHost } from "./host";

// The endpoints every instance (operations center or controller) has: the TypeScript face of
// provider/functions/instances.ts, with the program's settings (host.ts).

/**
 * The bundle update log of the instance (GET `casc-bundle-mgnt/casc-bundle-update-log`). A version this version of
 * the package cannot read is skipped, with a warning that names it and why; the others are returned.
 * Under `setMocks`: token `cloudbees:index:getUpdateLog`.
 */
export async function getUpdateLog(options?: InstanceOptions): Promise<UpdateLogResult> {
  return core.getUpdateLog(programHost, options);
}

/**
 * Whether a newer bundle is available to the instance (GET `casc-bundle-mgnt/check-bundle-update`): reads only;
 * the BundleReload resource applies it.
 * Under `setMocks`: token `cloudbees:index:checkBundleUpdate`.
 */
export async function checkBundleUpdate(options?: InstanceOptions & QuietOptions): Promise<BundleUpdateCheckResult> {
  return core.checkBundleUpdate(programHost, options);
}

/**
 * The instance's whole configuration as one YAML text, every file concatenated (GET `core-casc-export`).
 * Under `setMocks`: token `cloudbees:index:exportConfiguration`.
 */
export async function exportConfiguration(options?: InstanceOptions): Promise<string> {
  return core.exportConfiguration(programHost, options);
}

/**
 * The instance's configuration files as a zip (GET `core-casc-export/zipExport`); `unzipBundle` reads it.
 * Under `setMocks`: token `cloudbees:index:exportConfigurationZip`.
 */
export async function exportConfigurationZip(options?: InstanceOptions): Promise<Buffer> {
  return core.exportConfigurationZip(programHost, options);
}

/**
 * The bundle in force on the instance (POST `core-casc-effective-bundle-export`), as files and their hash. An
 * instance that has applied no bundle yet answers 404 (NotFoundError).
 * Under `setMocks`: token `cloudbees:index:exportEffectiveBundle`.
 */
export async function exportEffectiveBundle(
  options: ExportEffectiveBundleOptions & { includeZip: true },
): Promise<BundleFiles & { zip: Buffer }>;
export async function exportEffectiveBundle(options?: ExportEffectiveBundleOptions): Promise<BundleFiles>;
export async function exportEffectiveBundle(options?: ExportEffectiveBundleOptions): Promise<BundleFiles> {
  return core.exportEffectiveBundle(programHost, options);
}

/**
 * One file of the bundle in force, as text (POST `core-casc-effective-bundle-export/downloadFile/<fileName>`):
 * a path inside the effective bundle, as exportEffectiveBundle lists them.
 * Under `setMocks`: token `cloudbees:index:downloadEffectiveBundleFile`.
 */
export async function downloadEffectiveBundleFile(fileName: string, options?: InstanceOptions): Promise<string> {
  return core.downloadEffectiveBundleFile(programHost, fileName, options);
}

/**
 * An item or job exported as CasC YAML (POST `<itemUri>/export/download[/<section>]`); `itemUri` like `job/team-a/job/build`.
 * Under `setMocks`: token `cloudbees:index:exportItem`.
 */
export async function exportItem(itemUri: string, options?: ExportItemOptions): Promise<string> {
  return core.exportItem(programHost, itemUri, options);
}

/**
 * A JSON schema the instance validates bundles with (GET `core-casc-schema-download/download/<name>`): one of
 * bundle-descriptor.json, plugin-catalog.json, plugins.json, items.json, rbac.json, variables.json. Needs product
 * 2.426.3.1 or later.
 * Under `setMocks`: token `cloudbees:index:downloadSchema`.
 */
export async function downloadSchema(name: SchemaFile, options?: InstanceOptions): Promise<Record<string, unknown>> {
  return core.downloadSchema(programHost, name, options);
}
