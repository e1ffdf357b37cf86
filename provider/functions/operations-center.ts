import { lazyZod } from "../http/lazy-zod";
import { requireBoolean, requireFullPath, requireText } from "../clients/inputs";
import { NotFoundError } from "../http/errors";
import { operationsCenterOf, run, type FunctionOptions, type QuietOptions } from "./calls";
import { defineFunction, type FunctionHost } from "./host";
import {
  bundleSummarySchema,
  bundleValidationResultSchema,
  effectiveValidationLogResultSchema,
  rawValidationLogResultSchema,
} from "./result-schemas";
import {
  bundleSummaryOf,
  effectiveValidationLogOf,
  rawValidationLogOf,
  validationResultOf,
  type BundleSummary,
  type BundleValidationResult,
  type EffectiveBundleValidationLogResult,
  type RawBundleValidationLogResult,
} from "./results";
import { quoted } from "../text/printable";
import { readableItems, unreadableItemError } from "../clients/readable-items";

// Loaded when the first schema is built, not with this module (lazy-zod.ts).
const z = lazyZod();

// Under `setMocks`, each answers from the mocks' call with token `cloudbees:index:<function name>` (mocks.ts).
const GET_BUNDLES = defineFunction("getBundles", () => z.array(bundleSummarySchema()));
const GET_BUNDLE = defineFunction("getBundle", bundleSummarySchema);
const GET_RAW_BUNDLE_VALIDATION_LOG = defineFunction("getRawBundleValidationLog", rawValidationLogResultSchema);
const GET_EFFECTIVE_BUNDLE_VALIDATION_LOG = defineFunction("getEffectiveBundleValidationLog", effectiveValidationLogResultSchema);
/** The mock answers `{ controllerPath, url, token }`; the function makes the token secret (or reveals it). */
const GET_CONTROLLER_BUNDLE_LINK = defineFunction("getControllerBundleLink", () =>
  z.object({ controllerPath: z.string(), url: z.string(), token: z.string() }),
);
const VALIDATE_UPLOADED_BUNDLE = defineFunction("validateUploadedBundle", bundleValidationResultSchema);

/** getBundles: documented on its TypeScript face (sdk/functions/operations-center.ts), which the schema's description is made from. */
export async function getBundles(host: FunctionHost, options?: FunctionOptions): Promise<BundleSummary[]> {
  return run(host, GET_BUNDLES, {}, async (operation) => readableItems(host, await operationsCenterOf(host, options, operation).client.readBundleList(), "bundle", operation).map(bundleSummaryOf), options);
}

/** getBundle: documented on its TypeScript face (sdk/functions/operations-center.ts), which the schema's description is made from. */
export async function getBundle(host: FunctionHost, name: string, options?: FunctionOptions): Promise<BundleSummary> {
  return run(host, GET_BUNDLE, { name }, async (operation) => {
    const { client } = operationsCenterOf(host, options, operation);
    const { items: bundles, unreadable } = await client.readBundleList();
    const found = bundles.find((b) => b.name === name);
    // The others' form does not matter here; this one's does: it is there, not missing.
    const unread = found ? undefined : unreadable.find((u) => u.name === name);
    if (unread) throw unreadableItemError("listing bundles", "bundle", unread);
    if (!found) {
      const known = bundles.map((b) => b.name).sort();
      throw new NotFoundError(`no bundle is named ${quoted(name)} (bundles: ${known.length ? known.map(quoted).join(", ") : "none"})`, {
        operation: "listing bundles",
        method: "GET",
        path: new URL("casc-bundle/list", client.baseUrl).pathname,
        hint: "Check the name (the bundle's folder path in the bundle location), or check out the bundle location first.",
      });
    }
    return bundleSummaryOf(found);
  }, options, (operation) => requireText(name, "name", operation));
}

export interface RawBundleValidationLogOptions extends FunctionOptions {
  /** Only this bundle's log (its folder name). */
  bundle?: string;
  /** Add, per bundle, the effective logs of its controllers (`controllers`). */
  controller?: boolean;
}

/** getRawBundleValidationLog: documented on its TypeScript face (sdk/functions/operations-center.ts), which the schema's description is made from. */
export async function getRawBundleValidationLog(host: FunctionHost, options?: RawBundleValidationLogOptions): Promise<RawBundleValidationLogResult> {
  const { bundle, controller } = options ?? {};
  return run(
    host,
    GET_RAW_BUNDLE_VALIDATION_LOG,
    { bundle, controller },
    async (operation) => rawValidationLogOf(readableItems(host, await operationsCenterOf(host, options, operation).client.readRawBundleValidationLog({ bundle, controller }), "bundle", operation)),
    options,
    (operation) => {
      if (bundle !== undefined) requireText(bundle, "bundle", operation);
      if (controller !== undefined) requireBoolean(controller, "controller", operation);
    },
  );
}

export interface EffectiveBundleValidationLogOptions extends FunctionOptions {
  /** A regular expression on controller names that filters the log. */
  controller?: string;
}

/** getEffectiveBundleValidationLog: documented on its TypeScript face (sdk/functions/operations-center.ts), which the schema's description is made from. */
export async function getEffectiveBundleValidationLog(host: FunctionHost, options?: EffectiveBundleValidationLogOptions): Promise<EffectiveBundleValidationLogResult> {
  const { controller } = options ?? {};
  return run(
    host,
    GET_EFFECTIVE_BUNDLE_VALIDATION_LOG,
    { controller },
    async (operation) => effectiveValidationLogOf(readableItems(host, await operationsCenterOf(host, options, operation).client.readEffectiveBundleValidationLog({ controller }), "controller", operation)),
    options,
    (operation) => {
      if (controller !== undefined) requireText(controller, "controller", operation);
    },
  );
}

export interface ControllerBundleLinkOptions extends FunctionOptions {
  /** true: `token` and `linkFileContent` as plain strings (scripts only; see RevealedControllerBundleLink). */
  reveal?: boolean;
}

/**
 * A controller's bundle link with its token in clear (GET `config-bundle-download-link?id=<controllerPath>`): the
 * face makes the token secret (sdk/functions/controller-bundle-link.ts) or reveals it when asked.
 */
export async function readControllerBundleLink(
  host: FunctionHost,
  controllerPath: string,
  options?: ControllerBundleLinkOptions,
): Promise<{ controllerPath: string; url: string; token: string }> {
  const check = (operation: string) => {
    requireFullPath(controllerPath, "controllerPath", operation);
    if (options?.reveal !== undefined) requireBoolean(options.reveal, "reveal", operation);
  };
  return run(host, GET_CONTROLLER_BUNDLE_LINK, { controllerPath }, async (operation) => {
    const { url, token } = await operationsCenterOf(host, options, operation).client.getBundleDownloadLink(controllerPath);
    return { controllerPath, url, token };
  }, options, check);
}

/** validateUploadedBundle: documented on its TypeScript face (sdk/functions/operations-center.ts), which the schema's description is made from. */
export async function validateUploadedBundle(host: FunctionHost, bundleId: string, options?: FunctionOptions & QuietOptions): Promise<BundleValidationResult> {
  const quiet = options?.quiet;
  return run(
    host,
    VALIDATE_UPLOADED_BUNDLE,
    { bundleId, quiet },
    async (operation) => validationResultOf(await operationsCenterOf(host, options, operation).client.validateUploadedBundle(bundleId, { quiet })),
    options,
    (operation) => {
      requireText(bundleId, "bundleId", operation);
      if (quiet !== undefined) requireBoolean(quiet, "quiet", operation);
    },
  );
}
