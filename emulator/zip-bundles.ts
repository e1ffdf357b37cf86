import type { BundleSource, ParentResolver } from "./effective-bundle";
import type { FileMap } from "./zip";

/** A bundle found in an uploaded zip of branch folders (get-effective-bundle, pre-validate-bundle). */
export interface ZipBundle extends BundleSource {
  /** Branch name with `___` turned back into `/`; null for a bundle folder at the top of the zip. */
  branch: string | null;
  /** Path below the branch folder (nested folders included), e.g. "teams/team-a". */
  pathInBranch: string;
}

export class ZipLayoutError extends Error {
  override name = "ZipLayoutError";
}

const basename = (p: string): string => p.slice(p.lastIndexOf("/") + 1);

/**
 * Finds every bundle folder (a folder holding bundle.yaml) of the zip. Its name is `<branch>/<path in branch>`,
 * the shape of bundle ids from SCM bundle locations (e.g. "main/team-a").
 */
export function bundlesInZip(files: FileMap, options: { acceptBranchless: boolean }): ZipBundle[] {
  if (files.has("bundle.yaml")) {
    throw new ZipLayoutError("The zip must hold branch folders containing bundle folders, not a bundle at its top level");
  }
  const folders = [...files.keys()]
    .filter((f) => f.endsWith("/bundle.yaml"))
    .map((f) => f.slice(0, -"/bundle.yaml".length))
    .sort();
  if (folders.length === 0) throw new ZipLayoutError("The zip holds no bundle (no folder with a bundle.yaml)");
  return folders.map((folder) => {
    const own: FileMap = new Map();
    for (const [name, content] of files) {
      if (!name.startsWith(`${folder}/`)) continue;
      const rel = name.slice(folder.length + 1);
      // Files of a nested bundle folder belong to that bundle.
      const nested = folders.some((other) => other !== folder && other.startsWith(`${folder}/`) && name.startsWith(`${other}/`));
      if (!nested) own.set(rel, content);
    }
    const segments = folder.split("/");
    if (segments.length === 1) {
      if (!options.acceptBranchless) throw new ZipLayoutError(`Bundle folder '${folder}' is not inside a branch folder`);
      return { name: folder, files: own, branch: null, pathInBranch: folder };
    }
    const branch = segments[0]!.replace(/___/g, "/");
    const pathInBranch = segments.slice(1).join("/");
    return { name: `${branch}/${pathInBranch}`, files: own, branch, pathInBranch };
  });
}

/** Bundles of `candidates` that `name` designates: full name, then path in branch, then folder name. */
export function findZipBundles(candidates: ZipBundle[], name: string): ZipBundle[] {
  for (const match of [
    (b: ZipBundle) => b.name === name,
    (b: ZipBundle) => b.pathInBranch === name,
    (b: ZipBundle) => basename(b.pathInBranch) === name,
  ]) {
    const found = candidates.filter(match);
    if (found.length > 0) return found;
  }
  return [];
}

/** Parents resolve among the zip's bundles (same branch first), then among the operations center's bundles. */
export function zipParentResolver(zipBundles: ZipBundle[], fromOc: (name: string) => BundleSource | undefined): ParentResolver {
  return (parent, child) => {
    const inZip = zipBundles.find((b) => b === child);
    if (inZip) {
      const sameBranch = findZipBundles(zipBundles.filter((b) => b.branch === inZip.branch), parent);
      if (sameBranch.length === 1) return sameBranch[0];
      const anywhere = zipBundles.filter((b) => b.name === parent);
      if (anywhere.length === 1) return anywhere[0];
    }
    return fromOc(parent);
  };
}
