import * as fs from "node:fs";
import * as path from "node:path";
import { requireText, requireZip } from "../clients/inputs";
import { CloudBeesError, InvalidInputError } from "../http/errors";

/** A bundle as a folder (its files), the path of a zip file, or the zip's bytes. */
export type BundleSource = string | Uint8Array;

/** A bundle source's shape (a zip's bytes, or a path as text), checked without reading the path: see zipOf. */
export function requireBundleSource(value: unknown, input: string, operation: string): asserts value is string | Uint8Array {
  if (value instanceof Uint8Array) {
    requireZip(value, input, operation);
    return;
  }
  if (typeof value !== "string") {
    throw new InvalidInputError(input, "expected the path of a folder or zip file, or the zip as a Buffer", operation);
  }
  requireText(value, input, operation);
}

const ZIP_MAGIC = [Buffer.from("PK\x03\x04", "latin1"), Buffer.from("PK\x05\x06", "latin1")];

/**
 * A bundle (or bundle tree) given as a folder, a zip file's path, or the zip's bytes, as zip bytes. Paths resolve
 * from the working directory (a program's folder under `pulumi up`). Everything is checked before any request.
 */
export async function zipOf(
  value: string | Uint8Array,
  input: string,
  operation: string,
  zipFolder: (dir: string) => Promise<Buffer>,
): Promise<{ zip: Buffer; folder?: string }> {
  // Its shape is checked (requireBundleSource) in the function's check, before this runs.
  if (value instanceof Uint8Array) {
    return { zip: Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength) };
  }
  const abs = path.resolve(value);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(abs);
  } catch {
    throw new InvalidInputError(input, `no folder or zip file at "${abs}"`, operation);
  }
  if (stat.isDirectory()) {
    try {
      return { zip: await zipFolder(abs), folder: abs };
    } catch (e) {
      if (e instanceof CloudBeesError) throw e;
      throw new InvalidInputError(input, e instanceof Error ? e.message : String(e), operation);
    }
  }
  const bytes = fs.readFileSync(abs);
  if (!ZIP_MAGIC.some((magic) => bytes.subarray(0, 4).equals(magic))) {
    throw new InvalidInputError(input, `"${abs}" is neither a folder nor a zip file`, operation);
  }
  return { zip: bytes };
}
