import { readBundleTree } from "../provider/bundle/files";
import { hashFiles } from "../provider/bundle/hash";
import type { BundleSource } from "./effective-bundle";
import { isIgnoredLocationEntry } from "./undocumented-behaviour";

export interface StoredBundle extends BundleSource {
  /** Newest modification time among the bundle's files (check-out's `localText`). */
  lastModified: Date;
  /** Digest of the files, to notice changes between check-outs. */
  contentHash: string;
}

/**
 * Reads a bundle location: every folder holding a bundle.yaml, at any depth, is a bundle named by its relative
 * posix path. A bundle.yaml at the root itself is ignored: it has no folder name.
 */
export function readBundleLocation(dir: string): Map<string, StoredBundle> {
  const bundles = [...readBundleTree(dir, { ignore: isIgnoredLocationEntry }).values()];
  return new Map(
    bundles.sort((a, b) => a.name.localeCompare(b.name)).map((b) => [b.name, { ...b, contentHash: hashFiles(b.files) }]),
  );
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
