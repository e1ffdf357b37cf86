import { lazyZod } from "../http/lazy-zod";
import { requireBoolean, requireOneOf, requireText, SCHEMA_FILES, SECTION_FILES, type SchemaFile, type SectionFile } from "../clients/inputs";
import { jsonDocumentSchema } from "../clients/casc-schemas";
import { instanceOf, run, type InstanceOptions, type QuietOptions } from "./calls";
import { bundleUpdateCheckOf, updateLogOf, type BundleUpdateCheckResult, type UpdateLogResult } from "./results";
import { bundleFilesOf, type BundleFiles } from "./zips";
import { defineFunction, type FunctionHost } from "./host";
import { readableItems } from "../clients/readable-items";
import { bufferSchema, bundleFilesSchema, bundleUpdateCheckResultSchema, updateLogResultSchema } from "./result-schemas";

// Loaded when the first schema is built, not with this module (lazy-zod.ts).
const z = lazyZod();

// Under `setMocks`, each answers from the mocks' call with token `cloudbees:index:<function name>` and the inputs its
// errors name (`instanceUrl`, `quiet`, `fileName`, ...), plus `connection` and `instance` (mocks.ts).
const GET_UPDATE_LOG = defineFunction("getUpdateLog", updateLogResultSchema);
const CHECK_BUNDLE_UPDATE = defineFunction("checkBundleUpdate", bundleUpdateCheckResultSchema);
const EXPORT_CONFIGURATION = defineFunction("exportConfiguration", () => z.string());
const EXPORT_CONFIGURATION_ZIP = defineFunction("exportConfigurationZip", bufferSchema);
const EXPORT_EFFECTIVE_BUNDLE = defineFunction("exportEffectiveBundle", bundleFilesSchema);
const DOWNLOAD_EFFECTIVE_BUNDLE_FILE = defineFunction("downloadEffectiveBundleFile", () => z.string());
const EXPORT_ITEM = defineFunction("exportItem", () => z.string());
const DOWNLOAD_SCHEMA = defineFunction("downloadSchema", jsonDocumentSchema);

// The endpoints every instance has. Each function asks the operations center, or the controller at
// `options.instanceUrl`, as the configured operations-center user.

/** getUpdateLog: documented on its TypeScript face (sdk/functions/instances.ts), which the schema's description is made from. */
export async function getUpdateLog(host: FunctionHost, options?: InstanceOptions): Promise<UpdateLogResult> {
  const { instanceUrl } = options ?? {};
  return run(host, GET_UPDATE_LOG, { instanceUrl }, async (operation) => {
    const log = await instanceOf(host, options, operation).readUpdateLog();
    return updateLogOf({ ...log, versions: readableItems(host, log.versions, "version", operation) });
  }, options);
}

/** checkBundleUpdate: documented on its TypeScript face (sdk/functions/instances.ts), which the schema's description is made from. */
export async function checkBundleUpdate(host: FunctionHost, options?: InstanceOptions & QuietOptions): Promise<BundleUpdateCheckResult> {
  const { instanceUrl, quiet } = options ?? {};
  return run(
    host,
    CHECK_BUNDLE_UPDATE,
    { instanceUrl, quiet },
    async (operation) => bundleUpdateCheckOf(await instanceOf(host, options, operation).checkBundleUpdate({ quiet })),
    options,
    (operation) => {
      if (quiet !== undefined) requireBoolean(quiet, "quiet", operation);
    },
  );
}

/** exportConfiguration: documented on its TypeScript face (sdk/functions/instances.ts), which the schema's description is made from. */
export async function exportConfiguration(host: FunctionHost, options?: InstanceOptions): Promise<string> {
  const { instanceUrl } = options ?? {};
  return run(host, EXPORT_CONFIGURATION, { instanceUrl }, async (operation) => instanceOf(host, options, operation).exportConfiguration(), options);
}

/** exportConfigurationZip: documented on its TypeScript face (sdk/functions/instances.ts), which the schema's description is made from. */
export async function exportConfigurationZip(host: FunctionHost, options?: InstanceOptions): Promise<Buffer> {
  const { instanceUrl } = options ?? {};
  return run(host, EXPORT_CONFIGURATION_ZIP, { instanceUrl }, async (operation) => instanceOf(host, options, operation).exportConfigurationZip(), options);
}

export interface ExportEffectiveBundleOptions extends InstanceOptions {
  /** Also return the zip as the server sent it (`zip`). */
  includeZip?: boolean;
}

/** exportEffectiveBundle: documented on its TypeScript face (sdk/functions/instances.ts), which the schema's description is made from. */
export async function exportEffectiveBundle(host: FunctionHost, options?: ExportEffectiveBundleOptions): Promise<BundleFiles> {
  const { instanceUrl, includeZip } = options ?? {};
  return run(
    host,
    EXPORT_EFFECTIVE_BUNDLE,
    { instanceUrl, includeZip },
    async (operation) => bundleFilesOf(await instanceOf(host, options, operation).exportEffectiveBundle(), includeZip === true, operation),
    options,
    (operation) => {
      if (includeZip !== undefined) requireBoolean(includeZip, "includeZip", operation);
    },
  );
}

/** downloadEffectiveBundleFile: documented on its TypeScript face (sdk/functions/instances.ts), which the schema's description is made from. */
export async function downloadEffectiveBundleFile(host: FunctionHost, fileName: string, options?: InstanceOptions): Promise<string> {
  const { instanceUrl } = options ?? {};
  return run(
    host,
    DOWNLOAD_EFFECTIVE_BUNDLE_FILE,
    { fileName, instanceUrl },
    async (operation) => instanceOf(host, options, operation).downloadEffectiveBundleFile(fileName),
    options,
    (operation) => requireText(fileName, "fileName", operation),
  );
}

export interface ExportItemOptions extends InstanceOptions {
  /** Only this section: bundle.yaml, core.yaml, plugins.yaml, plugin-catalog.yaml, rbac.yaml or items.yaml. */
  section?: SectionFile;
}

/** exportItem: documented on its TypeScript face (sdk/functions/instances.ts), which the schema's description is made from. */
export async function exportItem(host: FunctionHost, itemUri: string, options?: ExportItemOptions): Promise<string> {
  const { instanceUrl, section } = options ?? {};
  return run(
    host,
    EXPORT_ITEM,
    { itemUri, section, instanceUrl },
    async (operation) => instanceOf(host, options, operation).exportItem(itemUri, { section }),
    options,
    (operation) => {
      requireText(itemUri, "itemUri", operation);
      if (section !== undefined) requireOneOf(section, SECTION_FILES, "section", operation);
    },
  );
}

/** downloadSchema: documented on its TypeScript face (sdk/functions/instances.ts), which the schema's description is made from. */
export async function downloadSchema(host: FunctionHost, name: SchemaFile, options?: InstanceOptions): Promise<Record<string, unknown>> {
  const { instanceUrl } = options ?? {};
  return run(
    host,
    DOWNLOAD_SCHEMA,
    { name, instanceUrl },
    async (operation) => instanceOf(host, options, operation).downloadSchema(name),
    options,
    (operation) => requireOneOf(name, SCHEMA_FILES, "name", operation),
  );
}
