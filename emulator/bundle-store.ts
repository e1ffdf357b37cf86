import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type { BundleSource } from "./effective-bundle";
import { isIgnoredLocationEntry } from "./undocumented-behaviour";
import type { FileMap } from "./zip";

export interface StoredBundle extends BundleSource {
  /** Newest modification time among the bundle's files (check-out's `localText`). */
  lastModified: Date;
  /** Digest of the files, to notice changes between check-outs. */
  contentHash: string;
}

const MAX_DEPTH = 32;

function entriesOf(dir: string): fs.Dirent[] {
  return fs.readdirSync(dir, { withFileTypes: true }).filter((e) => !isIgnoredLocationEntry(e.name));
}

function isDirectory(dir: string, e: fs.Dirent): boolean {
  return e.isDirectory() || (e.isSymbolicLink() && fs.statSync(path.join(dir, e.name)).isDirectory());
}

function isFile(dir: string, e: fs.Dirent): boolean {
  return e.isFile() || (e.isSymbolicLink() && fs.statSync(path.join(dir, e.name)).isFile());
}

/** A bundle's files: everything below its folder except nested bundle folders (those are bundles of their own). */
function readBundleFiles(root: string): { files: FileMap; lastModified: Date } {
  const files: FileMap = new Map();
  let newest = 0;
  const walk = (dir: string, rel: string, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    for (const e of entriesOf(dir)) {
      const abs = path.join(dir, e.name);
      const relName = rel === "" ? e.name : `${rel}/${e.name}`;
      if (isDirectory(dir, e)) {
        if (!fs.existsSync(path.join(abs, "bundle.yaml"))) walk(abs, relName, depth + 1);
      } else if (isFile(dir, e)) {
        files.set(relName, fs.readFileSync(abs));
        newest = Math.max(newest, fs.statSync(abs).mtimeMs);
      }
    }
  };
  walk(root, "", 0);
  return { files, lastModified: new Date(newest) };
}

function hashFiles(files: FileMap): string {
  const hash = createHash("sha256");
  for (const name of [...files.keys()].sort()) {
    hash.update(`${name}\0`);
    hash.update(files.get(name)!);
  }
  return hash.digest("hex");
}

/**
 * Reads a bundle location: every folder holding a bundle.yaml, at any depth, is a bundle named by its relative
 * posix path. A bundle.yaml at the root itself is ignored: it has no folder name.
 */
export function readBundleLocation(dir: string): Map<string, StoredBundle> {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) {
    throw new Error(`Bundle location folder not found: ${dir}`);
  }
  const bundles = new Map<string, StoredBundle>();
  const walk = (abs: string, rel: string, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    if (rel !== "" && fs.existsSync(path.join(abs, "bundle.yaml"))) {
      const { files, lastModified } = readBundleFiles(abs);
      bundles.set(rel, { name: rel, files, lastModified, contentHash: hashFiles(files) });
    }
    for (const e of entriesOf(abs)) {
      if (isDirectory(abs, e)) walk(path.join(abs, e.name), rel === "" ? e.name : `${rel}/${e.name}`, depth + 1);
    }
  };
  walk(dir, "", 0);
  return new Map([...bundles.entries()].sort(([a], [b]) => a.localeCompare(b)));
}

/** The OC's copy of the bundle location; it changes only on check-out, like a real SCM bundle location. */
export class BundleStore {
  private bundles: Map<string, StoredBundle>;

  constructor(readonly dir: string) {
    this.bundles = readBundleLocation(dir);
  }

  checkOut(): StoredBundle[] {
    this.bundles = readBundleLocation(this.dir);
    return this.all();
  }

  get(name: string): StoredBundle | undefined {
    return this.bundles.get(name);
  }

  names(): string[] {
    return [...this.bundles.keys()];
  }

  all(): StoredBundle[] {
    return [...this.bundles.values()];
  }
}
