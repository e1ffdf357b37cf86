import { createHash, type Hash } from "node:crypto";
import * as path from "node:path";
import { type FileMap, readBundleFolder } from "./files";

/**
 * Feeds every file into `hash`, sorted by path, each framed by its path and length so that no two different sets
 * of files feed the same bytes.
 */
export function updateHashWithFiles(hash: Hash, files: FileMap): Hash {
  for (const name of [...files.keys()].sort()) {
    const content = files.get(name)!;
    hash.update(`\0${name}\0${content.length}\0`);
    hash.update(content);
  }
  return hash;
}

/** SHA-256 (hex) of files' paths and contents: equal exactly when the files are. */
export function hashFiles(files: FileMap): string {
  return updateHashWithFiles(createHash("sha256"), files).digest("hex");
}

/** SHA-256 (hex) of a bundle folder's files (the files zipBundle would zip), to tell whether a bundle changed. */
export function bundleHash(dir: string): string {
  return hashFiles(readBundleFolder(path.resolve(dir)).files);
}
