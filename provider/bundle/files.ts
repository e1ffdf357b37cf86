import * as fs from "node:fs";
import * as path from "node:path";
import type { BundleMessage } from "./messages";

// The one reader of bundle folders on disk: lint, loadBundle, bundleHash, zipBundle, zipBundleTree, the
// BundleValidation resource and the emulator's bundle location all read through it. Symbolic links are followed
// only while they stay inside the folder being read; a dangling link, a link loop or an entry that is neither a
// file nor a folder becomes an ERROR message (never an exception, never a stall: FIFOs are not opened, the walk is
// bounded in depth, files and bytes).

/** Files of a bundle, a bundle tree or a zip, keyed by posix path relative to its root. */
export type FileMap = Map<string, Buffer>;

/** The descriptor file whose presence makes a folder a bundle. */
export const DESCRIPTOR_FILE = "bundle.yaml";

export interface ReadOptions {
  /** Entries (files or folders, by name) to skip. Default: dot-files and dot-folders (.git, .DS_Store...). */
  ignore?: (entryName: string) => boolean;
}

/** A bundle folder read from disk. */
export interface FolderContent {
  files: FileMap;
  /** Newest modification time among the files (epoch when there are none). */
  lastModified: Date;
  /** What could not be read (links leaving the folder, dangling links, link loops, special files, limits). */
  problems: BundleMessage[];
}

/** A bundle read from disk: its name (posix path below the tree's root), files and reading problems. */
export interface BundleFolder extends FolderContent {
  name: string;
}

const MAX_DEPTH = 32;
/** Bounds of one bundle folder: far above real bundles, low enough that a wrong path cannot exhaust the host. */
const MAX_FILES = 5_000;
const MAX_BYTES = 64 * 1024 * 1024;
/** Bound of a bundle location walk (folders visited). */
const MAX_TREE_FOLDERS = 20_000;

const isDotName = (name: string): boolean => name.startsWith(".");

function requireFolder(dir: string, what: string): void {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new Error(`${what} not found: ${dir}`);
}

function entriesOf(dir: string, ignore: (name: string) => boolean): fs.Dirent[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => !ignore(e.name))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function isInside(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

const errorCode = (e: unknown): string => (e as NodeJS.ErrnoException)?.code ?? String(e);

type Entry = { kind: "dir" | "file"; real: string; stat: fs.Stats } | { kind: "problem"; message: string } | { kind: "other" };

/**
 * What an entry is once links are resolved, staying inside `rootReal`. `rel` names it in messages. Links to
 * folders already read (a loop, or a second path to one folder) are problems too.
 */
function resolveEntry(abs: string, rel: string, rootReal: string): Entry {
  let real = abs;
  try {
    const own = fs.lstatSync(abs);
    if (own.isSymbolicLink()) {
      try {
        real = fs.realpathSync(abs);
      } catch (e) {
        const code = errorCode(e);
        if (code === "ELOOP") return { kind: "problem", message: `The link '${rel}' is part of a link loop; it is not read.` };
        if (code === "ENOENT") return { kind: "problem", message: `The link '${rel}' points to nothing (dangling link); it is not read.` };
        return { kind: "problem", message: `The link '${rel}' cannot be followed (${code}); it is not read.` };
      }
      if (!isInside(rootReal, real)) {
        return { kind: "problem", message: `The link '${rel}' points outside the bundle folder; links are never followed outside it, so it is not read.` };
      }
    }
    const stat = fs.statSync(real);
    if (stat.isDirectory()) return { kind: "dir", real, stat };
    if (stat.isFile()) return { kind: "file", real, stat };
    return { kind: "problem", message: `The entry '${rel}' is neither a file nor a folder; it is not read.` };
  } catch (e) {
    return { kind: "problem", message: `The entry '${rel}' cannot be read (${errorCode(e)}).` };
  }
}

const problem = (message: string, file?: string): BundleMessage => ({
  level: "ERROR",
  code: "STRUCTURE",
  message,
  ...(file === undefined ? {} : { file }),
});

/**
 * Every file below a bundle folder, except those of nested bundle folders (a folder holding its own bundle.yaml is a
 * bundle of its own). Throws only when the folder does not exist; anything below it that cannot be read is a problem.
 */
export function readBundleFolder(dir: string, options: ReadOptions = {}): FolderContent {
  requireFolder(dir, "Bundle folder");
  const ignore = options.ignore ?? isDotName;
  const rootReal = fs.realpathSync(dir);
  const files: FileMap = new Map();
  const problems: BundleMessage[] = [];
  const readFolders = new Set<string>([rootReal]);
  let newest = 0;
  let bytes = 0;
  let full = false;
  const walk = (abs: string, rel: string, depth: number): void => {
    let entries: fs.Dirent[];
    try {
      entries = entriesOf(abs, ignore);
    } catch (e) {
      problems.push(problem(`The folder '${rel === "" ? "." : rel}' cannot be read (${errorCode(e)}).`, rel || undefined));
      return;
    }
    for (const e of entries) {
      if (full) return;
      const child = path.join(abs, e.name);
      const relName = rel === "" ? e.name : `${rel}/${e.name}`;
      const entry = resolveEntry(child, relName, rootReal);
      if (entry.kind === "problem") {
        problems.push(problem(entry.message, relName));
      } else if (entry.kind === "dir") {
        if (readFolders.has(entry.real)) {
          problems.push(problem(`The link '${relName}' leads to a folder already read (a link loop, or a second path to one folder); it is not read again.`, relName));
        } else if (fs.existsSync(path.join(entry.real, DESCRIPTOR_FILE))) {
          continue; // a nested bundle folder: a bundle of its own
        } else if (depth >= MAX_DEPTH) {
          problems.push(problem(`The folder '${relName}' is nested deeper than ${MAX_DEPTH} levels; it is not read.`, relName));
        } else {
          readFolders.add(entry.real);
          walk(child, relName, depth + 1);
        }
      } else if (entry.kind === "file") {
        bytes += entry.stat.size;
        if (files.size >= MAX_FILES || bytes > MAX_BYTES) {
          problems.push(problem(`The bundle folder holds more than ${MAX_FILES} files or ${MAX_BYTES / 1024 / 1024} MiB; the rest is not read.`));
          full = true;
          return;
        }
        files.set(relName, fs.readFileSync(entry.real));
        newest = Math.max(newest, entry.stat.mtimeMs);
      }
    }
  };
  walk(dir, "", 0);
  return { files, lastModified: new Date(newest), problems };
}

/**
 * The bundles of a bundle location (a repository's bundle folder): every folder holding a bundle.yaml, at any depth,
 * is a bundle named by its posix path below `root` (`team-a`, `teams/platform`). A bundle.yaml at the root itself
 * has no folder name and is not a bundle. Links are followed only inside `root`, each folder once. Sorted by name
 * (code-unit order, the same on every machine).
 */
export function readBundleTree(root: string, options: ReadOptions = {}): Map<string, BundleFolder> {
  requireFolder(root, "Bundle location folder");
  const ignore = options.ignore ?? isDotName;
  const rootReal = fs.realpathSync(root);
  const bundles = new Map<string, BundleFolder>();
  const seen = new Set<string>([rootReal]);
  const walk = (abs: string, rel: string, depth: number): void => {
    if (rel !== "" && fs.existsSync(path.join(abs, DESCRIPTOR_FILE))) {
      bundles.set(rel, { name: rel, ...readBundleFolder(abs, options) });
    }
    let entries: fs.Dirent[];
    try {
      entries = entriesOf(abs, ignore);
    } catch {
      return; // not a bundle's folder: nothing to report it against
    }
    for (const e of entries) {
      const relName = rel === "" ? e.name : `${rel}/${e.name}`;
      const entry = resolveEntry(path.join(abs, e.name), relName, rootReal);
      if (entry.kind !== "dir" || seen.has(entry.real) || depth >= MAX_DEPTH || seen.size >= MAX_TREE_FOLDERS) continue;
      seen.add(entry.real);
      walk(path.join(abs, e.name), relName, depth + 1);
    }
  };
  walk(root, "", 0);
  return new Map([...bundles.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
