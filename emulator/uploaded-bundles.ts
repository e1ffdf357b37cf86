import { Finding, validateBundle, validationResult } from "./bundle-validation";
import { StoredBundle } from "./bundle-store";
import { parseDescriptor } from "./descriptor";
import { BundleInconsistencyError, buildEffectiveBundle, EffectiveBundle } from "./effective-bundle";
import { EmulatorRequest, json, Reply, zipReply } from "./http";
import { uploadedZip } from "./multipart";
import { reading } from "./readings";
import { ambiguousZipBundle, badBundleZip, bundleNotInZip, inconsistentBundle, queryFlag } from "./undocumented-behaviour";
import { NotAZipError, unzip, zipFiles } from "./zip";
import { bundlesInZip, findZipBundles, ZipBundle, ZipLayoutError, zipParentResolver } from "./zip-bundles";

/** What the zip endpoints read of the operations center. */
export interface UploadContext {
  /** A bundle of the location (a parent the zip does not hold is looked up there). */
  stored(name: string): StoredBundle | undefined;
  /** The controller validations of a location bundle whose effective bundle is the one given. */
  controllerEntries(bundle: string, effective: EffectiveBundle): { controller: string; status: string; findings: Finding[] }[];
}

/** POST casc-bundle/get-effective-bundle[?bundle=]: the effective bundle of one bundle of the uploaded zip, as a zip. */
export async function getEffectiveBundle(req: EmulatorRequest, ctx: UploadContext): Promise<Reply> {
  const bundles = await zipBundles(req);
  if (!Array.isArray(bundles)) return bundles;
  const resolve = zipParentResolver(bundles, (p) => ctx.stored(p));
  let selected: ZipBundle;
  const wanted = req.query["bundle"];
  if (wanted !== undefined && wanted !== "") {
    const found = findZipBundles(bundles, wanted);
    if (found.length === 0) return bundleNotInZip(wanted);
    if (found.length > 1) return ambiguousZipBundle();
    selected = found[0]!;
  } else {
    const parents = new Set(
      bundles.map((b) => {
        const desc = parseDescriptor(b.files);
        const p = desc.ok ? desc.value["parent"] : undefined;
        return typeof p === "string" ? resolve(p, b) : undefined;
      }),
    );
    const leaves = bundles.filter((b) => !parents.has(b));
    if (leaves.length !== 1) return ambiguousZipBundle();
    selected = leaves[0]!;
  }
  try {
    const effective = buildEffectiveBundle(selected, resolve);
    return zipReply(await zipFiles(effective.files), `${selected.name.replace(/\//g, "___")}.zip`);
  } catch (e) {
    if (e instanceof BundleInconsistencyError) return inconsistentBundle(e.message);
    throw e;
  }
}

/** POST casc-bundle/pre-validate-bundle[?quiet=]: every bundle of the uploaded zip validated with its parents. */
export async function preValidateBundles(req: EmulatorRequest, ctx: UploadContext): Promise<Reply> {
  const bundles = await zipBundles(req);
  if (!Array.isArray(bundles)) return bundles;
  const resolve = zipParentResolver(bundles, (p) => ctx.stored(p));
  const quiet = queryFlag(req.query, "quiet");
  const validations: { bundle: string; result: unknown }[] = [];
  for (const bundle of bundles) {
    let effective;
    try {
      effective = buildEffectiveBundle(bundle, resolve);
    } catch (e) {
      if (e instanceof BundleInconsistencyError) return inconsistentBundle(e.message);
      throw e;
    }
    const structure = [...validateBundle(bundle.files, { uploaded: false, folderProblems: bundle.problems }), ...effective.conflicts];
    // Controllers are those of the location bundle the zip bundle stands for, if any.
    const controllers = ctx.stored(bundle.pathInBranch) ? ctx.controllerEntries(bundle.pathInBranch, effective) : [];
    validations.push({ bundle: bundle.name, result: validationResult(structure, controllers, quiet) });
  }
  return json(200, { validations });
}

async function zipBundles(req: EmulatorRequest): Promise<ZipBundle[] | Reply> {
  try {
    return bundlesInZip(await unzip(uploadedZip(req.headers["content-type"], req.body)), { acceptBranchless: reading("branchlessBundles") === "accepted" });
  } catch (e) {
    if (e instanceof NotAZipError) return badBundleZip("Invalid zip file: Cannot be unzipped");
    if (e instanceof ZipLayoutError) return badBundleZip(e.message);
    throw e;
  }
}
