import * as path from "node:path";
import { parseDescriptor } from "./descriptor";
import { type BundleFolder, type FileMap, readBundleFolder, readBundleTree } from "./files";
import { zipFiles } from "./zip";

/** Branch folder used by zipBundleTree when no branch is given. */
export const DEFAULT_BRANCH = "main";

export interface BundleTreeZipOptions {
  /**
   * Bundles (names: posix paths below the root, e.g. `team-a`) to put in the zip: those that changed. Their parents
   * are added, transitively, when they are below the root too (a parent found nowhere in the zip is looked up among
   * the operations center's bundles). Default: every bundle below the root.
   */
  bundles?: string[];
  /** Branch the bundles come from, e.g. `feature/new-agents`; written as the top folder with `/` as `___`. Default `main`. */
  branch?: string;
}

/** A bundle folder's files at the top level of a zip: the input of casc-bundle-validate. Deterministic (see zipFiles). */
export async function zipBundle(dir: string): Promise<Buffer> {
  return zipFiles(readBundleFolder(path.resolve(dir)).files);
}

/** The zip folder name of a branch: the spec writes `/` in a branch name (Gitflow style) as `___`. */
export function branchFolderName(branch: string): string {
  const segments = branch.split("/");
  if (branch.trim() !== branch || segments.some((s) => s === "" || s === "." || s === "..") || branch.includes("\\")) {
    throw new Error(`Invalid branch name "${branch}": it needs non-empty segments separated by single '/'`);
  }
  return segments.join("___");
}

/** The requested bundles plus, transitively, their parents found below the root. */
function withParents(tree: Map<string, BundleFolder>, requested: string[], root: string): string[] {
  const selected = new Set<string>();
  for (const name of requested) {
    if (!tree.has(name)) {
      throw new Error(`Bundle '${name}' not found below ${root} (bundles there: ${[...tree.keys()].join(", ")})`);
    }
    let current: string | undefined = name;
    // A parent cycle stops at the first bundle seen again; the server reports the cycle.
    while (current !== undefined && tree.has(current) && !selected.has(current)) {
      selected.add(current);
      const parsed = parseDescriptor(tree.get(current)!.files);
      const parent = parsed.ok ? parsed.value["parent"] : undefined;
      current = typeof parent === "string" ? parent : undefined;
    }
  }
  return [...selected].sort();
}

/**
 * Bundles of a bundle location (`root`: every folder below it holding a bundle.yaml) in the layout of
 * get-effective-bundle and pre-validate-bundle: `<branch folder>/<bundle path>/<files>`, nested folders kept
 * (`main/teams/team-c/bundle.yaml`). Deterministic (see zipFiles).
 */
export async function zipBundleTree(root: string, options: BundleTreeZipOptions = {}): Promise<Buffer> {
  const abs = path.resolve(root);
  const branch = branchFolderName(options.branch ?? DEFAULT_BRANCH);
  const tree = readBundleTree(abs);
  if (tree.size === 0) {
    throw new Error(`No bundle below ${abs}: zipBundleTree wants the folder that holds bundle folders (zipBundle zips one bundle)`);
  }
  if (options.bundles !== undefined && options.bundles.length === 0) throw new Error("No bundle to zip: 'bundles' is empty");
  const names = options.bundles === undefined ? [...tree.keys()] : withParents(tree, options.bundles, abs);
  const files: FileMap = new Map();
  for (const name of names) {
    for (const [file, content] of tree.get(name)!.files) files.set(`${branch}/${name}/${file}`, content);
  }
  return zipFiles(files);
}
