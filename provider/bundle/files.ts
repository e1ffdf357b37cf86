import * as fs from "node:fs";
import * as path from "node:path";

/** Files of a bundle, a bundle tree or a zip, keyed by posix path relative to its root. */
export type FileMap = Map<string, Buffer>;

/** The descriptor file whose presence makes a folder a bundle. */
export const DESCRIPTOR_FILE = "bundle.yaml";

export interface ReadOptions {
  /** Entries (files or folders, by name) to skip. Default: dot-files and dot-folders (.git, .DS_Store...). */
  ignore?: (entryName: string) => boolean;
}

/** A bundle read from disk: its name (posix path below the tree's root) and files. */
export interface BundleFolder {
  name: string;
  files: FileMap;
  /** Newest modification time among the files (epoch when there are none). */
  lastModified: Date;
}

// Bounds the walk: a symbolic link to an ancestor folder would otherwise never end.
const MAX_DEPTH = 32;

const isDotName = (name: string): boolean => name.startsWith(".");

function entriesOf(dir: string, ignore: (name: string) => boolean): fs.Dirent[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => !ignore(e.name))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

// Symbolic links are followed, as a checkout of a bundle repository may use them.
function isDirectory(dir: string, e: fs.Dirent): boolean {
  return e.isDirectory() || (e.isSymbolicLink() && fs.statSync(path.join(dir, e.name)).isDirectory());
}

function isFile(dir: string, e: fs.Dirent): boolean {
  return e.isFile() || (e.isSymbolicLink() && fs.statSync(path.join(dir, e.name)).isFile());
}

function requireFolder(dir: string, what: string): void {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new Error(`${what} not found: ${dir}`);
}

/**
 * Every file below a bundle folder, except those of nested bundle folders (a folder holding its own bundle.yaml is a
 * bundle of its own). Throws when the folder does not exist.
 */
export function readBundleFolder(dir: string, options: ReadOptions = {}): { files: FileMap; lastModified: Date } {
  requireFolder(dir, "Bundle folder");
  const ignore = options.ignore ?? isDotName;
  const files: FileMap = new Map();
  let newest = 0;
  const walk = (abs: string, rel: string, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    for (const e of entriesOf(abs, ignore)) {
      const child = path.join(abs, e.name);
      const relName = rel === "" ? e.name : `${rel}/${e.name}`;
      if (isDirectory(abs, e)) {
        if (!fs.existsSync(path.join(child, DESCRIPTOR_FILE))) walk(child, relName, depth + 1);
      } else if (isFile(abs, e)) {
        files.set(relName, fs.readFileSync(child));
        newest = Math.max(newest, fs.statSync(child).mtimeMs);
      }
    }
  };
  walk(dir, "", 0);
  return { files, lastModified: new Date(newest) };
}

/**
 * The bundles of a bundle location (a repository's bundle folder): every folder holding a bundle.yaml, at any depth,
 * is a bundle named by its posix path below `root` (`team-a`, `teams/platform`). A bundle.yaml at the root itself
 * has no folder name and is not a bundle. Sorted by name (code-unit order, the same on every machine).
 */
export function readBundleTree(root: string, options: ReadOptions = {}): Map<string, BundleFolder> {
  requireFolder(root, "Bundle location folder");
  const ignore = options.ignore ?? isDotName;
  const bundles = new Map<string, BundleFolder>();
  const walk = (abs: string, rel: string, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    if (rel !== "" && fs.existsSync(path.join(abs, DESCRIPTOR_FILE))) {
      bundles.set(rel, { name: rel, ...readBundleFolder(abs, options) });
    }
    for (const e of entriesOf(abs, ignore)) {
      if (isDirectory(abs, e)) walk(path.join(abs, e.name), rel === "" ? e.name : `${rel}/${e.name}`, depth + 1);
    }
  };
  walk(root, "", 0);
  return new Map([...bundles.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
