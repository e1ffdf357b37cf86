import { inspect } from "node:util";
import * as pulumi from "@pulumi/pulumi";
import { lazyZod } from "../../provider/http/lazy-zod";
import { requireBoolean, requireFullPath, requireText } from "../../provider/clients/inputs";
import { NotFoundError } from "../../provider/http/errors";
import { operationsCenterOf, run, type FunctionOptions, type QuietOptions } from "./context";
import { defineFunction } from "./mocks";
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
import { quoted } from "../../provider/text/printable";

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

/**
 * Every bundle of the operations center (GET `casc-bundle/list`), with `regex`, `availableFor` and `usedBy`.
 * Under `setMocks`: token `cloudbees:index:getBundles`.
 */
export async function getBundles(options?: FunctionOptions): Promise<BundleSummary[]> {
  return run(GET_BUNDLES, {}, async (operation) => (await operationsCenterOf(options, operation).client.listBundles()).map(bundleSummaryOf), options);
}

/**
 * One bundle by name (its folder path in the bundle location, e.g. `team-a`), from GET `casc-bundle/list` (the API
 * has no single-bundle read). An unknown name is a NotFoundError that lists the bundles there are.
 * Under `setMocks`: token `cloudbees:index:getBundle`.
 */
export async function getBundle(name: string, options?: FunctionOptions): Promise<BundleSummary> {
  return run(GET_BUNDLE, { name }, async (operation) => {
    const { client } = operationsCenterOf(options, operation);
    const bundles = await client.listBundles();
    const found = bundles.find((b) => b.name === name);
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

/**
 * The raw bundle validation log (GET `casc-bundle/raw-bundle-validation-log`, parameters `bundle`, `controller`):
 * `{ validationLog: [{ bundleId, records, controllers? }] }`.
 * Under `setMocks`: token `cloudbees:index:getRawBundleValidationLog`.
 */
export async function getRawBundleValidationLog(options?: RawBundleValidationLogOptions): Promise<RawBundleValidationLogResult> {
  const { bundle, controller } = options ?? {};
  return run(
    GET_RAW_BUNDLE_VALIDATION_LOG,
    { bundle, controller },
    async (operation) => rawValidationLogOf(await operationsCenterOf(options, operation).client.getRawBundleValidationLog({ bundle, controller })),
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

/**
 * The effective bundle validation log per controller (GET `casc-bundle/effective-bundle-validation-log`):
 * `{ validationLog: [{ controller, records }] }`.
 * Under `setMocks`: token `cloudbees:index:getEffectiveBundleValidationLog`.
 */
export async function getEffectiveBundleValidationLog(options?: EffectiveBundleValidationLogOptions): Promise<EffectiveBundleValidationLogResult> {
  const { controller } = options ?? {};
  return run(
    GET_EFFECTIVE_BUNDLE_VALIDATION_LOG,
    { controller },
    async (operation) => effectiveValidationLogOf(await operationsCenterOf(options, operation).client.getEffectiveBundleValidationLog({ controller })),
    options,
    (operation) => {
      if (controller !== undefined) requireText(controller, "controller", operation);
    },
  );
}

/**
 * A controller's bundle link (GET `config-bundle-download-link?id=<controllerPath>`), with the token as a secret:
 * `token` and `linkFileContent` (`<url>\n<token>`, the link file a controller reads) are `pulumi.secret` Outputs,
 * in a program and in a script alike, so the same code works in both and a stack output keeps them encrypted.
 */
export interface ControllerBundleLink {
  /** Full path of the controller, as asked for. */
  controllerPath: string;
  /** Where the operations center serves the controller's bundle. */
  url: string;
  /** The controller's bundle token (secret). */
  token: pulumi.Output<string>;
  /** The link file a controller reads, `<url>\n<token>` (secret). */
  linkFileContent: pulumi.Output<string>;
}

/**
 * The same link with the token in clear, for scripts that must write the link file (`reveal: true`). Printing it
 * (`console.log`, `util.inspect`, `JSON.stringify`) shows `[secret]` instead of the token; the properties hold
 * the real values. Do not use it in a program: a plain string in a stack output is stored in clear.
 */
export class RevealedControllerBundleLink {
  constructor(
    /** Full path of the controller, as asked for. */
    readonly controllerPath: string,
    /** Where the operations center serves the controller's bundle. */
    readonly url: string,
    /** The controller's bundle token, in clear. */
    readonly token: string,
    /** The link file a controller reads, `<url>\n<token>`, in clear. */
    readonly linkFileContent: string,
  ) {}

  toJSON(): Record<string, string> {
    return { controllerPath: this.controllerPath, url: this.url, token: "[secret]", linkFileContent: "[secret]" };
  }

  [inspect.custom](): string {
    return `RevealedControllerBundleLink ${inspect(this.toJSON())}`;
  }
}

export interface ControllerBundleLinkOptions extends FunctionOptions {
  /** true: `token` and `linkFileContent` as plain strings (scripts only; see RevealedControllerBundleLink). */
  reveal?: boolean;
}

/**
 * The bundle link of a controller (full path, e.g. `team-a/controller-a`): GET `config-bundle-download-link`. A
 * controller without an assigned bundle has no link (NotFoundError). Reads only; the token does not change (the
 * ControllerBundleToken resource regenerates it). Under `setMocks`: token `cloudbees:index:getControllerBundleLink`,
 * inputs `{ controllerPath }`; the mock answers `{ controllerPath, url, token }`.
 */
export async function getControllerBundleLink(
  controllerPath: string,
  options: ControllerBundleLinkOptions & { reveal: true },
): Promise<RevealedControllerBundleLink>;
export async function getControllerBundleLink(
  controllerPath: string,
  options?: ControllerBundleLinkOptions & { reveal?: false },
): Promise<ControllerBundleLink>;
export async function getControllerBundleLink(
  controllerPath: string,
  options?: ControllerBundleLinkOptions,
): Promise<ControllerBundleLink | RevealedControllerBundleLink>;
export async function getControllerBundleLink(
  controllerPath: string,
  options?: ControllerBundleLinkOptions,
): Promise<ControllerBundleLink | RevealedControllerBundleLink> {
  const check = (operation: string) => {
    requireFullPath(controllerPath, "controllerPath", operation);
    if (options?.reveal !== undefined) requireBoolean(options.reveal, "reveal", operation);
  };
  const link = await run(GET_CONTROLLER_BUNDLE_LINK, { controllerPath }, async (operation) => {
    const { url, token } = await operationsCenterOf(options, operation).client.getBundleDownloadLink(controllerPath);
    return { controllerPath, url, token };
  }, options, check);
  const linkFileContent = `${link.url}\n${link.token}`;
  if (options?.reveal === true) return new RevealedControllerBundleLink(link.controllerPath, link.url, link.token, linkFileContent);
  return { controllerPath: link.controllerPath, url: link.url, token: pulumi.secret(link.token), linkFileContent: pulumi.secret(linkFileContent) };
}

/**
 * Validates a bundle the operations center already has (POST `casc-bundle/validate-uploaded-bundle?bundleId=`):
 * `valid`, `structureValidations`, `controllerValidations`. A verdict, not an error: check `valid`.
 * Under `setMocks`: token `cloudbees:index:validateUploadedBundle`.
 */
export async function validateUploadedBundle(bundleId: string, options?: FunctionOptions & QuietOptions): Promise<BundleValidationResult> {
  const quiet = options?.quiet;
  return run(
    VALIDATE_UPLOADED_BUNDLE,
    { bundleId, quiet },
    async (operation) => validationResultOf(await operationsCenterOf(options, operation).client.validateUploadedBundle(bundleId, { quiet })),
    options,
    (operation) => {
      requireText(bundleId, "bundleId", operation);
      if (quiet !== undefined) requireBoolean(quiet, "quiet", operation);
    },
  );
}
