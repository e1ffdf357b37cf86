import { hashFiles } from "../bundle/hash";
import { NotAZipError, unzipFiles } from "../bundle/zip";
import { UnexpectedResponseError } from "../http/errors";

/** Files of a zip the server sent (an effective bundle, an export), ready for a program. */
export interface BundleFiles {
  /** Path -> UTF-8 text, paths sorted: plain JSON, usable as a stack output. */
  files: Record<string, string>;
  /** SHA-256 (hex) of the paths and contents: equal exactly when the files are (e.g. for an action's triggers). */
  hash: string;
  /** The zip as received, when asked for (`includeZip: true`). */
  zip?: Buffer;
}

export async function bundleFilesOf(zip: Buffer, includeZip: boolean, operation: string): Promise<BundleFiles> {
  let map: Map<string, Buffer>;
  try {
    map = await unzipFiles(zip);
  } catch (e) {
    if (!(e instanceof NotAZipError)) throw e;
    throw new UnexpectedResponseError(`the answer is not a zip (${e.message})`, { operation, field: "" });
  }
  const names = [...map.keys()].sort();
  const files = Object.fromEntries(names.map((n) => [n, map.get(n)!.toString("utf8")]));
  return includeZip ? { files, hash: hashFiles(map), zip } : { files, hash: hashFiles(map) };
}
