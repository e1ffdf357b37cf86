import type { HttpClient, RequestSpec } from "../http/http-client";
import { bundleUpdateCheckSchema, createItemsResultSchema, instanceValidationSchema, jsonDocumentSchema, reloadResultSchema, updateLogSchema } from "./casc-schemas";
import { type BundleUpdateCheck, type CreateItemsResult, type InstanceValidation, type ReadableUpdateLog, type ReloadResult, type UpdateLog } from "./casc-types";
import { readableUpdateLogSchema } from "./casc-readable-schemas";
import { configHistorySchema } from "./config-history-schemas";
import {
  CONFIG_HISTORY_DEADLINE_MS,
  CONFIG_HISTORY_MAX_BYTES,
  CONFIG_HISTORY_MAX_ENTRIES,
  type ConfigHistoryOptions,
  type ConfigHistoryRead,
} from "./config-history-types";
import { cascHttpClient, type CascClientOptions } from "./casc-connection";
import { MAX_TEXT_BYTES } from "./limits";
import {
  encodeRelativePath,
  requireFullPath,
  requireOneOf,
  requireText,
  requireZip,
  SCHEMA_FILES,
  SECTION_FILES,
  type SchemaFile,
  type SectionFile,
} from "./inputs";

const UPDATE_LOG: RequestSpec = { operation: "reading the bundle update log", method: "GET", path: "casc-bundle-mgnt/casc-bundle-update-log", idempotency: "safe" };

export interface QuietOption {
  /** true: only WARNING and ERROR messages; false: INFO too. Omitted: the server's default (verbose). */
  quiet?: boolean;
}

/**
 * The CasC endpoints every instance has, an operations center or a controller (prefix `{instance_url}` in the
 * spec).
 */
export class InstanceClient {
  protected readonly http: HttpClient;

  constructor(options: CascClientOptions) {
    this.http = cascHttpClient(options);
  }

  get baseUrl(): string {
    return this.http.baseUrl.href;
  }

  async getUpdateLog(): Promise<UpdateLog> {
    return this.http.json(UPDATE_LOG, updateLogSchema);
  }

  /** The update log with its versions read one by one: those that can be read, and those that cannot, apart. */
  async readUpdateLog(): Promise<ReadableUpdateLog> {
    return this.http.json(UPDATE_LOG, readableUpdateLogSchema);
  }

  async checkBundleUpdate(options: QuietOption = {}): Promise<BundleUpdateCheck> {
    return this.http.json(
      {
        operation: "checking for a bundle update",
        method: "GET",
        path: "casc-bundle-mgnt/check-bundle-update",
        query: { quiet: options.quiet },
        idempotency: "safe",
      },
      bundleUpdateCheckSchema,
    );
  }

  /**
   * Who saved which configuration file and when: the system entries of the Job Configuration History plugin
   * (`jobConfigHistory/api/json?filter=system`, jenkinsci/job-config-history-plugin), the newest `maxEntries` (Jenkins'
   * `tree` asks for one more, to tell a cut list). One request, never retried, with its own deadline and a bound on
   * the answer's size: the history is an extra a caller gives up rather than wait for. An entry it cannot read is set
   * apart; a date in another form is kept as written, without `localTime`. Without the plugin: NotFoundError. A
   * caller without the permission system entries need gets an empty list (the plugin answers 200, never 403).
   */
  async readConfigHistory(options: ConfigHistoryOptions = {}): Promise<ConfigHistoryRead> {
    const maxEntries = options.maxEntries ?? CONFIG_HISTORY_MAX_ENTRIES;
    const { configs } = await this.http.json(
      {
        operation: "reading the configuration history",
        method: "GET",
        path: "jobConfigHistory/api/json",
        query: { filter: "system", tree: `configs[job,date,userID,user,operation]{0,${maxEntries + 1}}` },
        idempotency: "safe",
        maxTimeoutMs: options.deadlineMs ?? CONFIG_HISTORY_DEADLINE_MS,
        maxRetries: 0,
        maxResponseBytes: CONFIG_HISTORY_MAX_BYTES,
        notFoundHint: "The controller does not run the Job Configuration History plugin (jobConfigHistory).",
      },
      configHistorySchema,
    );
    const entries = configs.items.slice(0, maxEntries);
    const unreadable = configs.unreadable.filter((u) => u.index < maxEntries);
    return { entries, unreadable, cut: configs.items.length + configs.unreadable.length > maxEntries };
  }

  /** The whole configuration as YAML text, all files concatenated. */
  async exportConfiguration(): Promise<string> {
    return this.http.text({ operation: "exporting the configuration", method: "GET", path: "core-casc-export", idempotency: "safe" });
  }

  /** The configuration's YAML files as a zip. */
  async exportConfigurationZip(): Promise<Buffer> {
    return this.http.binary({
      operation: "exporting the configuration as a zip",
      method: "GET",
      path: "core-casc-export/zipExport",
      idempotency: "safe",
    });
  }

  /** One of the six JSON schemas used in validation (product 2.426.3.1 or later). */
  async downloadSchema(name: SchemaFile): Promise<Record<string, unknown>> {
    const operation = `downloading schema "${name}"`;
    const file = requireOneOf(name, SCHEMA_FILES, "name", operation);
    return this.http.json(
      {
        operation,
        method: "GET",
        path: `core-casc-schema-download/download/${file}`,
        idempotency: "safe",
        notFoundHint: "Schema download needs product version 2.426.3.1 or later.",
      },
      jsonDocumentSchema,
    );
  }

  /** Applies an available update without restart when possible. Never retried: a reload is not repeatable. */
  async reloadBundle(): Promise<ReloadResult> {
    return this.http.json(
      { operation: "reloading the bundle", method: "POST", path: "casc-bundle-mgnt/reload-bundle", idempotency: "unsafe" },
      reloadResultSchema,
    );
  }

  /**
   * Creates the items of an items.yaml text, in the folder `path` (which must exist) or at the root. Never retried:
   * it could create items twice.
   */
  async createItems(yaml: string, options: { path?: string } = {}): Promise<CreateItemsResult> {
    const operation = options.path ? `creating items in folder "${options.path}"` : "creating items";
    const body = requireText(yaml, "yaml", operation, MAX_TEXT_BYTES);
    const path = options.path === undefined ? undefined : requireFullPath(options.path, "path", operation);
    return this.http.json(
      {
        operation,
        method: "POST",
        path: "casc-items/create-items",
        query: { path },
        body: { contentType: "text/yaml", data: body },
        idempotency: "unsafe",
        notFoundHint: "The folder given by path must already exist.",
      },
      createItemsResultSchema,
    );
  }

  /** The bundle in force, as a zip. */
  async exportEffectiveBundle(): Promise<Buffer> {
    return this.http.binary({
      operation: "exporting the effective bundle",
      method: "POST",
      path: "core-casc-effective-bundle-export",
      idempotency: "safe",
    });
  }

  /** One YAML file of the bundle in force (a path inside the effective bundle), as text. */
  async downloadEffectiveBundleFile(fileName: string): Promise<string> {
    const operation = `downloading effective bundle file "${fileName}"`;
    const file = encodeRelativePath(fileName, "fileName", operation);
    return this.http.text({
      operation,
      method: "POST",
      path: `core-casc-effective-bundle-export/downloadFile/${file}`,
      idempotency: "safe",
      notFoundHint: "The effective bundle has no file of this name.",
    });
  }

  /** An item (`job/folder1/job/pipeline`) exported as CasC YAML, whole or one section. */
  async exportItem(itemUri: string, options: { section?: SectionFile } = {}): Promise<string> {
    const operation = `exporting item "${itemUri}"`;
    const uri = encodeRelativePath(itemUri, "itemUri", operation);
    const section = options.section === undefined ? undefined : requireOneOf(options.section, SECTION_FILES, "section", operation);
    return this.http.text({
      operation,
      method: "POST",
      path: `${uri}/export/download${section ? `/${section}` : ""}`,
      idempotency: "safe",
      notFoundHint: "Check the item's URI path (job/<folder>/job/<name>).",
    });
  }

  /** Validates a single bundle (files at the zip's top level) against this instance. */
  async validateBundle(zip: Uint8Array, options: QuietOption = {}): Promise<InstanceValidation> {
    const operation = "validating a bundle";
    const data = requireZip(zip, "zip", operation);
    return this.http.json(
      {
        operation,
        method: "POST",
        path: "casc-bundle-mgnt/casc-bundle-validate",
        query: { quiet: options.quiet },
        body: { contentType: "application/zip", data },
        idempotency: "safe",
        // The server answers a zip it cannot read with 500 {"error": "Invalid ..."}: a verdict, not a hiccup.
        isPermanentFailure: (status, body) => status === 500 && /"error"\s*:\s*"Invalid /.test(body),
      },
      instanceValidationSchema,
    );
  }

  async close(): Promise<void> {
    return this.http.close();
  }
}
