import { lazyZod } from "../http/lazy-zod";
import { requireBoolean, requireText } from "../clients/inputs";
import { branchFolderName, DEFAULT_BRANCH, zipBundle, zipBundleTree } from "../bundle/bundle-zips";
import { readBundleFolder, readBundleTree } from "../bundle/files";
import { InvalidInputError } from "../http/errors";
import { instanceOf, operationsCenterOf, run, type FunctionOptions, type InstanceOptions, type QuietOptions } from "./calls";
import { requireBundleSource, zipOf, type BundleSource } from "./bundle-sources";

export type { BundleSource };
import { instanceValidationOf, preValidationResultOf, type BundlePreValidation, type InstanceValidationResult } from "./results";
import { bundleFilesOf, type BundleFiles } from "./zips";
import { defineFunction, type FunctionHost } from "./host";
import { readableItems } from "../clients/readable-items";
import { bundleFilesSchema, bundlePreValidationSchema, instanceValidationResultSchema } from "./result-schemas";

// Loaded when the first schema is built, not with this module (lazy-zod.ts).
const z = lazyZod();

// Under `setMocks` (mocks.ts): the inputs as the errors name them (a folder or zip path as given, a zip as its bytes).
// A bundle source given as text is a local path: never a credential, shown in full (getEffectiveBundle's `bundle` is a name).
const VALIDATE_BUNDLE = defineFunction("validateBundle", instanceValidationResultSchema, { bundle: "path" });
const PRE_VALIDATE_BUNDLES = defineFunction("preValidateBundles", bundlePreValidationSchema, { tree: "path" });
const GET_EFFECTIVE_BUNDLE = defineFunction("getEffectiveBundle", () => bundleFilesSchema().extend({ bundle: z.string() }), { tree: "path" });

/** Options of the functions that take a bundle tree folder: how it is zipped. Not allowed with a zip. */
export interface BundleTreeOptions {
  /**
   * Branch the bundles come from (e.g. `feature/new-agents`): the zip's top folder, `/` written `___`. Default
   * `main`.
   */
  branch?: string;
}

function checkTreeOptions(tree: BundleSource, options: Record<string, unknown>, operation: string): void {
  for (const [name, value] of Object.entries(options)) {
    if (value !== undefined && typeof tree !== "string") {
      throw new InvalidInputError(name, "applies only when the bundles are given as a folder (a zip is sent as it is)", operation);
    }
  }
  if (options["branch"] !== undefined) {
    requireText(options["branch"], "branch", operation);
    try {
      branchFolderName(options["branch"] as string);
    } catch (e) {
      throw new InvalidInputError("branch", (e as Error).message, operation);
    }
  }
}

/** validateBundle: documented on its TypeScript face (sdk/functions/bundle-checks.ts), which the schema's description is made from. */
export async function validateBundle(host: FunctionHost, bundle: BundleSource, options?: InstanceOptions & QuietOptions): Promise<InstanceValidationResult> {
  const { instanceUrl, quiet } = options ?? {};
  const check = (operation: string) => {
    requireBundleSource(bundle, "bundle", operation);
    if (quiet !== undefined) requireBoolean(quiet, "quiet", operation);
  };
  return run(host, VALIDATE_BUNDLE, { bundle, instanceUrl, quiet }, async (operation) => {
    const { zip } = await zipOf(bundle, "bundle", operation, async (dir) => {
      if (readBundleFolder(dir).files.size === 0) {
        throw new Error(`the folder "${dir}" holds no bundle file (for a folder of bundles, use preValidateBundles)`);
      }
      return zipBundle(dir);
    });
    return instanceValidationOf(await instanceOf(host, options, operation).validateBundle(zip, { quiet }));
  }, options, check);
}

export interface PreValidateBundlesOptions extends FunctionOptions, QuietOptions, BundleTreeOptions {
  /**
   * With a folder: only these bundles (names below the folder, e.g. `team-a`: those that changed), plus their
   * parents found there. Default: every bundle of the folder.
   */
  bundles?: string[];
}

/** preValidateBundles: documented on its TypeScript face (sdk/functions/bundle-checks.ts), which the schema's description is made from. */
export async function preValidateBundles(host: FunctionHost, tree: BundleSource, options?: PreValidateBundlesOptions): Promise<BundlePreValidation> {
  const { quiet, bundles, branch } = options ?? {};
  const check = (operation: string) => {
    requireBundleSource(tree, "tree", operation);
    if (quiet !== undefined) requireBoolean(quiet, "quiet", operation);
    checkTreeOptions(tree, { bundles, branch }, operation);
    if (bundles !== undefined) {
      if (!Array.isArray(bundles) || bundles.length === 0) throw new InvalidInputError("bundles", "expected a non-empty list of bundle names", operation);
      bundles.forEach((b, i) => requireText(b, `bundles[${i}]`, operation));
    }
  };
  return run(host, PRE_VALIDATE_BUNDLES, { tree, bundles, branch, quiet }, async (operation) => {
    const { zip } = await zipOf(tree, "tree", operation, async (dir) => {
      const known = [...readBundleTree(dir).keys()];
      const unknown = (bundles ?? []).filter((b) => !known.includes(b));
      if (unknown.length) {
        throw new InvalidInputError("bundles", `no bundle ${unknown.map((b) => `"${b}"`).join(", ")} below "${dir}" (bundles there: ${known.join(", ") || "none"})`, operation);
      }
      return zipBundleTree(dir, { bundles, branch });
    });
    return preValidationResultOf(readableItems(host, await operationsCenterOf(host, options, operation).client.readPreValidation(zip, { quiet }), "bundle", operation));
  }, options, check);
}

export interface EffectiveBundleOptions extends FunctionOptions, BundleTreeOptions {
  /** Also return the zip as the server sent it (`zip`). */
  includeZip?: boolean;
}

/** An effective bundle: its files (path -> text; each level under a folder named after its bundle) and their hash. */
export interface EffectiveBundle extends BundleFiles {
  /** The bundle asked for. */
  bundle: string;
}

/** getEffectiveBundle: documented on its TypeScript face (sdk/functions/bundle-checks.ts), which the schema's description is made from. */
export async function getEffectiveBundle(host: FunctionHost, tree: BundleSource, bundle: string, options?: EffectiveBundleOptions): Promise<EffectiveBundle> {
  const { branch, includeZip } = options ?? {};
  const check = (operation: string) => {
    requireBundleSource(tree, "tree", operation);
    requireText(bundle, "bundle", operation);
    if (includeZip !== undefined) requireBoolean(includeZip, "includeZip", operation);
    checkTreeOptions(tree, { branch }, operation);
  };
  return run(host, GET_EFFECTIVE_BUNDLE, { tree, bundle, branch, includeZip }, async (operation) => {
    let name = bundle;
    const { zip } = await zipOf(tree, "tree", operation, async (dir) => {
      // A name given with its branch folder (`main/team-a`) means the same bundle.
      const prefix = `${branchFolderName(branch ?? DEFAULT_BRANCH)}/`;
      const known = [...readBundleTree(dir).keys()];
      if (!known.includes(name) && name.startsWith(prefix) && known.includes(name.slice(prefix.length))) name = name.slice(prefix.length);
      if (!known.includes(name)) {
        throw new InvalidInputError("bundle", `no bundle "${name}" below "${dir}" (bundles there: ${known.join(", ") || "none"})`, operation);
      }
      return zipBundleTree(dir, { bundles: [name], branch });
    });
    const result = await operationsCenterOf(host, options, operation).client.getEffectiveBundle(zip, { bundle: name });
    return { bundle: name, ...(await bundleFilesOf(result, includeZip === true, operation)) };
  }, options, check);
}
