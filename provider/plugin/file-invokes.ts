import * as core from "../functions";
import { type FunctionOptions, type InstanceOptions, type QuietOptions } from "../functions/calls";
import type { BundlePreValidation, InstanceValidationResult } from "../functions/results";
import type { FunctionHost } from "../functions/host";
import { InvalidInputError } from "../http/errors";
import { pluginHost } from "./function-host";

/**
 * The functions that take or give zips, in the form an invoke carries them: a zip as its bytes in base64 text, in
 * and out (an invoke's values are JSON-like; every language encodes base64 in its standard library). Paths are not
 * taken: the plugin runs where the engine starts it, not where the program reads its files, so a program zips a
 * folder itself (the layout each function wants is in its description). The logic is the core's
 * (provider/functions), as for the TypeScript face's functions of the same names, which take folders, paths and
 * Buffers. scripts/schema reads these signatures and their docs for the schema's functions.
 */

/** A zip in base64 text (RFC 4648, `+/`, padded or not, line breaks allowed) as bytes; anything else names the input. */
function bytesOf(text: unknown, input: string, fn: string): Buffer {
  const operation = `${fn}()`;
  if (typeof text !== "string") throw new InvalidInputError(input, "expected the zip's bytes as base64 text", operation);
  const compact = text.replace(/\s+/g, "");
  if (compact === "" || !/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1) {
    throw new InvalidInputError(input, `expected the zip's bytes as base64 text (${compact === "" ? "it is empty" : "it holds other characters"})`, operation);
  }
  const bytes = Buffer.from(compact, "base64");
  if (!ZIP_MAGIC.some((magic) => bytes.subarray(0, 4).equals(magic))) {
    throw new InvalidInputError(input, `expected a zip as base64 text; its ${bytes.length} bytes do not start as a zip does`, operation);
  }
  return bytes;
}

const ZIP_MAGIC = [Buffer.from("PK\x03\x04", "latin1"), Buffer.from("PK\x05\x06", "latin1")];

/** The plugin's host, with the schema's names of the inputs the TypeScript face's functions call otherwise. */
const named = (inputNames: Record<string, string>): FunctionHost => ({ ...pluginHost, inputNames });
const BUNDLE_ZIP = named({ bundle: "bundleZip" });
const TREE_ZIP = named({ tree: "treeZip" });

const base64 = (zip: Buffer | undefined) => (zip === undefined ? {} : { zip: zip.toString("base64") });

/** Files of a zip a server sent, as an invoke gives them. */
export interface ZipFiles {
  /** Path -> UTF-8 text, paths sorted. */
  files: Record<string, string>;
  /** SHA-256 (hex) of the paths and contents: equal exactly when the files are. */
  hash: string;
  /** The zip as received, base64, when asked for (`includeZip: true`). */
  zip?: string;
}

/** An effective bundle as an invoke gives it. */
export interface EffectiveBundleFiles extends ZipFiles {
  /** The bundle asked for. */
  bundle: string;
}

/** A zip as an invoke gives it. */
export interface ConfigurationZip {
  /** The zip, base64. */
  zip: string;
}

/**
 * Validates one bundle against an instance (POST `casc-bundle-mgnt/casc-bundle-validate`): the operations center, or
 * the controller at `instanceUrl` (or the connection's `instance`). `bundleZip` is the bundle's zip, base64, its
 * files at the top of the zip (`bundle.yaml`, `jenkins.yaml`, ...). Returns the verdict `{valid, validationMessages}`:
 * an invalid bundle is not an error.
 */
export async function validateBundle(bundleZip: string, options?: InstanceOptions & QuietOptions): Promise<InstanceValidationResult> {
  return core.validateBundle(BUNDLE_ZIP, bytesOf(bundleZip, "bundleZip", "validateBundle"), options);
}

/**
 * Pre-validates raw bundles on the operations center before they are checked out (POST
 * `casc-bundle/pre-validate-bundle`). `treeZip` is the bundles' zip, base64, in the branch-folder layout (a top
 * folder named after the branch, `/` written `___`, and the bundles below it: `main/team-a/bundle.yaml`). Returns
 * `{validations: [{bundle, result}]}`; an inconsistent bundle (a reference to a missing file) is the server's error.
 */
export async function preValidateBundles(treeZip: string, options?: FunctionOptions & QuietOptions): Promise<BundlePreValidation> {
  return core.preValidateBundles(TREE_ZIP, bytesOf(treeZip, "treeZip", "preValidateBundles"), options);
}

/** Options of getEffectiveBundle as an invoke. */
export interface EffectiveBundleZipOptions extends FunctionOptions {
  /** Also return the zip as the server sent it (`zip`, base64). */
  includeZip?: boolean;
}

/**
 * The effective bundle of `bundle` (inheritance applied), computed by the operations center (POST
 * `casc-bundle/get-effective-bundle?bundle=`) from raw bundles: `treeZip` is their zip, base64, in the branch-folder
 * layout (`main/team-a/bundle.yaml`), holding the bundle and its parents (other parents are the operations
 * center's); `bundle` is its path below the branch folder (`team-a`). Returns its files (path -> text; each level
 * under a folder named after its bundle) and their hash. An inconsistent bundle fails with the server's message.
 */
export async function getEffectiveBundle(treeZip: string, bundle: string, options?: EffectiveBundleZipOptions): Promise<EffectiveBundleFiles> {
  const { zip, ...rest } = await core.getEffectiveBundle(TREE_ZIP, bytesOf(treeZip, "treeZip", "getEffectiveBundle"), bundle, options);
  return { ...rest, ...base64(zip) };
}

/** Options of exportEffectiveBundle as an invoke. */
export interface ExportEffectiveBundleZipOptions extends InstanceOptions {
  /** Also return the zip as the server sent it (`zip`, base64). */
  includeZip?: boolean;
}

/**
 * The bundle in force on the instance (POST `core-casc-effective-bundle-export`), as files and their hash (and the
 * zip, base64, with `includeZip`). An instance that has applied no bundle yet answers 404 (not found).
 */
export async function exportEffectiveBundle(options?: ExportEffectiveBundleZipOptions): Promise<ZipFiles> {
  const { zip, ...rest } = await core.exportEffectiveBundle(pluginHost, options);
  return { ...rest, ...base64(zip) };
}

/** The instance's configuration files as a zip, base64 (GET `core-casc-export/zipExport`). */
export async function exportConfigurationZip(options?: InstanceOptions): Promise<ConfigurationZip> {
  return { zip: (await core.exportConfigurationZip(pluginHost, options)).toString("base64") };
}
