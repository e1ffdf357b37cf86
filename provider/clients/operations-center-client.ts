import { bundleDownloadLinkSchema, bundleInfoSchema, bundleListSchema, checkOutResultSchema, controllersSchema, controllersViewSchema, effectiveBundleValidationLogSchema, preValidationResultSchema, rawBundleValidationLogSchema, validationResultSchema, visibilitySchema } from "./casc-schemas";
import { type BundleDownloadLink, type BundleInfo, type CheckOutResult, type ControllerValidationLogEntry, type EffectiveBundleValidationLog, type ListedBundle, type PreValidationEntry, type PreValidationResult, type RawBundleValidationLog, type RawValidationLogEntry, type ValidationResult } from "./casc-types";
import { readableBundleListSchema, readableControllersViewSchema, readableEffectiveValidationLogSchema, readablePreValidationSchema, readableRawValidationLogSchema } from "./casc-readable-schemas";
import type { ReadableList } from "./readable-list-types";
import type { RequestSpec } from "../http/http-client";
import { InstanceClient, type QuietOption } from "./instance-client";
import { MAX_ITEM_URL_LENGTH, MAX_QUERY_LENGTH } from "./limits";
import { requireBoolean, requireFullPath, requirePositiveInteger, requireQueryFits, requireText, requireZip } from "./inputs";

/** The operations center's default check-out timeout (configurable in its global configuration). */
const DEFAULT_CHECK_OUT_TIMEOUT_SECONDS = 600;
const UNKNOWN_BUNDLE = "No bundle has this id: list them with listBundles(), or check out the bundle location first.";
const UNKNOWN_CONTROLLER = "No controller has this full path (it looks like folder1/controller1).";
const BUNDLE_LIST: RequestSpec = { operation: "listing bundles", method: "GET", path: "casc-bundle/list", idempotency: "safe" };
const CONTROLLERS_VIEW: RequestSpec = { operation: "listing the controllers", method: "GET", path: "view/Controllers/api/json", idempotency: "safe" };

/**
 * An operations center: its own endpoints (prefix `{oc_url}` in the spec) plus those of every instance.
 * "Set" calls change nothing when repeated, so they are retried like reads; regenerate-token is not.
 */
export class OperationsCenterClient extends InstanceClient {
  /** Every bundle with its availability and assignments. */
  async listBundles(): Promise<ListedBundle[]> {
    return (await this.http.json(BUNDLE_LIST, bundleListSchema)).bundles;
  }

  /** The bundles one by one: those that can be read, and those that cannot (named, with why), apart. */
  async readBundleList(): Promise<ReadableList<ListedBundle>> {
    return (await this.http.json(BUNDLE_LIST, readableBundleListSchema)).bundles;
  }

  async getRawBundleValidationLog(options: { bundle?: string; controller?: boolean } = {}): Promise<RawBundleValidationLog> {
    return this.http.json(rawLogRequest(options), rawBundleValidationLogSchema);
  }

  /** The raw validation log bundle by bundle: the entries that can be read, and those that cannot, apart. */
  async readRawBundleValidationLog(options: { bundle?: string; controller?: boolean } = {}): Promise<ReadableList<RawValidationLogEntry>> {
    return (await this.http.json(rawLogRequest(options), readableRawValidationLogSchema))["validation-log"];
  }

  /** `controller` is a regular expression on controller names that filters the log. */
  async getEffectiveBundleValidationLog(options: { controller?: string } = {}): Promise<EffectiveBundleValidationLog> {
    return this.http.json(effectiveLogRequest(options), effectiveBundleValidationLogSchema);
  }

  /** The effective validation log controller by controller: the entries that can be read, and those that cannot, apart. */
  async readEffectiveBundleValidationLog(options: { controller?: string } = {}): Promise<ReadableList<ControllerValidationLogEntry>> {
    return (await this.http.json(effectiveLogRequest(options), readableEffectiveValidationLogSchema))["validation-log"];
  }

  /** The link file content (`url`, `token`) a controller uses to fetch its bundle. */
  async getBundleDownloadLink(controllerPath: string): Promise<BundleDownloadLink> {
    const operation = `reading the bundle link of controller "${controllerPath}"`;
    const id = requireFullPath(controllerPath, "controllerPath", operation);
    return this.http.json(
      {
        operation,
        method: "GET",
        path: "config-bundle-download-link",
        query: { id },
        idempotency: "safe",
        secretBody: true,
        notFoundHint: UNKNOWN_CONTROLLER,
      },
      bundleDownloadLinkSchema,
    );
  }

  /** Re-reads the bundle locations. */
  async checkOut(options: { timeoutSeconds?: number } = {}): Promise<CheckOutResult> {
    const operation = "checking out bundles";
    const timeout =
      options.timeoutSeconds === undefined ? undefined : requirePositiveInteger(options.timeoutSeconds, "timeoutSeconds", operation);
    return this.http.json(
      {
        operation,
        method: "POST",
        path: "casc-bundle/check-out",
        query: { timeout },
        idempotency: "safe",
        // The server answers when the check-out is done: allow its own timeout (default 600 s) and a margin.
        minTimeoutMs: ((timeout ?? DEFAULT_CHECK_OUT_TIMEOUT_SECONDS) + 30) * 1000,
      },
      checkOutResultSchema,
    );
  }

  /**
   * The effective bundle (inheritance applied) of `bundle`, computed from a zip of branch folders holding the
   * changed bundles and their parents. Returns the effective bundle as a zip.
   */
  async getEffectiveBundle(zip: Uint8Array, options: { bundle: string }): Promise<Buffer> {
    const operation = `computing the effective bundle of "${options?.bundle}"`;
    const data = requireZip(zip, "zip", operation);
    const bundle = requireText(options?.bundle, "bundle", operation);
    return this.http.binary({
      operation,
      method: "POST",
      path: "casc-bundle/get-effective-bundle",
      query: { bundle },
      body: { contentType: "application/zip", data },
      idempotency: "safe",
    });
  }

  /**
   * Issues a new bundle token for the controller (the old one stops working). Retried like a safe call: repeating it
   * only issues yet another token, and a fresh token is what the caller asked for; read the link afterwards
   * (getBundleDownloadLink) for the token in force.
   */
  async regenerateToken(controllerPath: string): Promise<BundleInfo> {
    const operation = `regenerating the bundle token of controller "${controllerPath}"`;
    const path = requireFullPath(controllerPath, "controllerPath", operation);
    return this.http.json(
      {
        operation,
        method: "POST",
        path: "casc-bundle/regenerate-token",
        query: { controllerPath: path },
        idempotency: "safe",
        secretBody: true,
        notFoundHint: UNKNOWN_CONTROLLER,
      },
      bundleInfoSchema,
    );
  }

  /** Which controllers may use the bundle: a regular expression over full controller paths. */
  async setAvailabilityPattern(bundleId: string, regex: string): Promise<string[]> {
    const operation = `setting the availability pattern of bundle "${bundleId}"`;
    const id = requireText(bundleId, "bundleId", operation);
    if (typeof regex !== "string") throw new TypeError(`${operation}: regex must be a string`);
    requireQueryFits({ bundleId: id, regex }, "regex", operation);
    const result = await this.http.json(
      {
        operation,
        method: "POST",
        path: "casc-bundle/set-availability-pattern",
        query: { bundleId: id, regex },
        idempotency: "safe",
        notFoundHint: UNKNOWN_BUNDLE,
      },
      controllersSchema,
    );
    return result.controllers;
  }

  /** When true, a bundle without a pattern is available to every controller (more flexible, less secure). */
  async setGlobalAvailabilityPatternBehavior(visibility: boolean): Promise<boolean> {
    const operation = `setting the global availability behaviour to ${visibility}`;
    const value = requireBoolean(visibility, "visibility", operation);
    const result = await this.http.json(
      {
        operation,
        method: "POST",
        path: "casc-bundle/set-global-availability-pattern-behavior",
        query: { visibility: value },
        idempotency: "safe",
      },
      visibilitySchema,
    );
    return result.visibility;
  }

  /** Drops the pattern set through the API; the one in bundle.yaml (if any) applies again. */
  async clearAvailabilityPattern(bundleId: string): Promise<string[]> {
    const operation = `clearing the availability pattern of bundle "${bundleId}"`;
    const id = requireText(bundleId, "bundleId", operation);
    const result = await this.http.json(
      {
        operation,
        method: "POST",
        path: "casc-bundle/clear-availability-pattern",
        query: { bundleId: id },
        idempotency: "safe",
        notFoundHint: UNKNOWN_BUNDLE,
      },
      controllersSchema,
    );
    return result.controllers;
  }

  /** Assigns the bundle to the controller; the bundle must be available to it first. */
  async setControllerToBundle(bundleId: string, controllerPath: string): Promise<BundleInfo> {
    const operation = `assigning bundle "${bundleId}" to controller "${controllerPath}"`;
    const id = requireText(bundleId, "bundleId", operation);
    const path = requireFullPath(controllerPath, "controllerPath", operation);
    return this.http.json(
      {
        operation,
        method: "POST",
        path: "casc-bundle/set-controller-to-bundle",
        query: { bundleId: id, controllerPath: path },
        idempotency: "safe",
        secretBody: true,
        notFoundHint: `${UNKNOWN_BUNDLE} Or: ${UNKNOWN_CONTROLLER}`,
      },
      bundleInfoSchema,
    );
  }

  /** Pre-selects the bundle for new controllers that match its pattern; assigns nothing. */
  async setDefaultBundle(bundleId: string): Promise<BundleInfo> {
    const operation = `setting the default bundle to "${bundleId}"`;
    const id = requireText(bundleId, "bundleId", operation);
    return this.http.json(
      {
        operation,
        method: "POST",
        path: "casc-bundle/set-default-bundle",
        query: { bundleId: id },
        idempotency: "safe",
        secretBody: true,
        notFoundHint: UNKNOWN_BUNDLE,
      },
      bundleInfoSchema,
    );
  }

  async validateUploadedBundle(bundleId: string, options: QuietOption = {}): Promise<ValidationResult> {
    const operation = `validating bundle "${bundleId}"`;
    const id = requireText(bundleId, "bundleId", operation);
    return this.http.json(
      {
        operation,
        method: "POST",
        path: "casc-bundle/validate-uploaded-bundle",
        query: { bundleId: id, quiet: options.quiet },
        idempotency: "safe",
        notFoundHint: UNKNOWN_BUNDLE,
      },
      validationResultSchema,
    );
  }

  /** Validates raw bundles (branch-folder layout, as getEffectiveBundle) before they are checked out. */
  async preValidateBundles(zip: Uint8Array, options: QuietOption = {}): Promise<PreValidationResult> {
    return this.http.json(preValidationRequest(zip, options), preValidationResultSchema);
  }

  /** preValidateBundles verdict by verdict: those that can be read, and those that cannot (named, with why), apart. */
  async readPreValidation(zip: Uint8Array, options: QuietOption = {}): Promise<ReadableList<PreValidationEntry>> {
    return (await this.http.json(preValidationRequest(zip, options), readablePreValidationSchema)).validations;
  }

  /**
   * The controllers the operations center holds as items (its Controllers view, `GET view/Controllers/api/json`),
   * each with its full path and URL, folders included. The full path is the item's `fullName`, else what its URL
   * names (fullPathOfItemUrl), else its name.
   */
  async listControllerItems(): Promise<{ name: string; fullPath: string; url: string }[]> {
    return (await this.http.json(CONTROLLERS_VIEW, controllersViewSchema)).jobs.map(controllerItemOf);
  }

  /** listControllerItems item by item: those that can be read, and those that cannot (named, with why), apart. */
  async readControllerItemList(): Promise<ReadableList<{ name: string; fullPath: string; url: string }>> {
    const { items, unreadable } = (await this.http.json(CONTROLLERS_VIEW, readableControllersViewSchema)).jobs;
    return { items: items.map(controllerItemOf), unreadable };
  }

  /** Stops a controller (`POST job/.../stopAction`, as the samples do before deleting one). */
  async stopController(controllerPath: string): Promise<void> {
    const operation = `stopping controller "${controllerPath}"`;
    const path = `${jobPath(requireFullPath(controllerPath, "controllerPath", operation))}/stopAction`;
    await this.http.discard({ operation, method: "POST", path, idempotency: "safe", redirectIsSuccess: true, notFoundHint: UNKNOWN_CONTROLLER });
  }

  /**
   * Deletes an item of the operations center, a controller or a folder with what it holds (`POST job/.../doDelete`).
   * Not retried: a lost answer is for the caller to reconcile (a 404 afterwards means it is gone).
   */
  async deleteItem(fullPath: string): Promise<void> {
    const operation = `deleting item "${fullPath}"`;
    const path = `${jobPath(requireFullPath(fullPath, "fullPath", operation))}/doDelete`;
    await this.http.discard({ operation, method: "POST", path, idempotency: "unsafe", redirectIsSuccess: true, notFoundHint: "No item has this full path." });
  }
}

function rawLogRequest(options: { bundle?: string; controller?: boolean }): RequestSpec {
  const operation = options.bundle ? `reading the validation log of bundle "${options.bundle}"` : "reading the raw bundle validation log";
  const bundle = options.bundle === undefined ? undefined : requireText(options.bundle, "bundle", operation);
  const controller = options.controller === undefined ? undefined : requireBoolean(options.controller, "controller", operation);
  const query = { bundle, controller };
  return { operation, method: "GET", path: "casc-bundle/raw-bundle-validation-log", query, idempotency: "safe", notFoundHint: UNKNOWN_BUNDLE };
}

function effectiveLogRequest(options: { controller?: string }): RequestSpec {
  const operation = "reading the effective bundle validation log";
  const controller = options.controller === undefined ? undefined : requireText(options.controller, "controller", operation, MAX_QUERY_LENGTH);
  return { operation, method: "GET", path: "casc-bundle/effective-bundle-validation-log", query: { controller }, idempotency: "safe" };
}

function preValidationRequest(zip: Uint8Array, options: QuietOption): RequestSpec {
  const operation = "pre-validating bundles";
  const data = requireZip(zip, "zip", operation);
  const body = { contentType: "application/zip", data };
  return { operation, method: "POST", path: "casc-bundle/pre-validate-bundle", query: { quiet: options.quiet }, body, idempotency: "safe" };
}

/** An item of the Controllers view, with its full path: its `fullName`, else what its URL names, else its name. */
function controllerItemOf(j: { name: string; url: string; fullName?: string }): { name: string; fullPath: string; url: string } {
  return { name: j.name, url: j.url, fullPath: j.fullName ?? fullPathOfItemUrl(j.url) ?? j.name };
}

/** `job/a/job/b`: an item's URI path, each segment encoded. */
function jobPath(fullPath: string): string {
  return fullPath.split("/").map((s) => `job/${encodeURIComponent(s)}`).join("/");
}

/**
 * The full path an item URL names (`.../job/a/job/b/` -> a/b): the `job/<name>` segments that end it, read pairwise
 * from the end, in one pass (the pattern it replaces, `((?:\/job\/[^/]+)+)\/?$`, was tried from every `/job/`: one
 * URL of 192 KB of `/job/a` held the event loop for seconds). Undefined for a URL not of that form, or longer than
 * MAX_ITEM_URL_LENGTH (no request could reach it).
 */
function fullPathOfItemUrl(url: string): string | undefined {
  if (url.length > MAX_ITEM_URL_LENGTH) return undefined;
  const segments = url.split("/");
  if (segments.at(-1) === "") segments.pop();
  const names: string[] = [];
  // segments[i - 1] is "job" after a "/" (i - 1 >= 1): `job/a` at the very start names nothing, as before.
  for (let i = segments.length - 1; i >= 2 && segments[i - 1] === "job" && segments[i] !== ""; i -= 2) names.push(segments[i]!);
  if (names.length === 0) return undefined;
  try {
    return names.reverse().map(decodeURIComponent).join("/");
  } catch {
    return undefined;
  }
}
