import type JSZipType from "jszip";
import { jszip } from "../libraries";
import type { FileMap } from "./files";
import { zipEntries } from "./zip-entries";

export class NotAZipError extends Error {
  override name = "NotAZipError";
}

/** A zip with more entries, or more bytes once inflated, than the limits allow (a "zip bomb"). */
export class ZipTooLargeError extends NotAZipError {
  override name = "ZipTooLargeError";
}

/** What unzipping reads at most: generous for bundles (a few hundred small YAML files), fatal to a zip bomb. */
export interface UnzipLimits {
  maxEntries: number;
  maxInflatedBytes: number;
}

export const DEFAULT_UNZIP_LIMITS: UnzipLimits = { maxEntries: 10_000, maxInflatedBytes: 256 * 1024 * 1024 };

/**
 * Deterministic zips: the same files give the same bytes, whatever the order they were read or created in, the
 * machine, its time zone or the clock. Entries are sorted by path (code-unit order); every entry has the same date
 * (1980-01-01 00:00 UTC, the zip format's earliest), Unix permissions 0644, DEFLATE at level 6; no folder entries
 * (their dates would be the clock's) and no comment. Callers can therefore hash a zip to tell whether it changed.
 */
export async function zipFiles(files: FileMap): Promise<Buffer> {
  const zip = new (jszip())();
  const date = new Date(Date.UTC(1980, 0, 1, 0, 0, 0));
  for (const name of [...files.keys()].sort()) {
    zip.file(name, files.get(name)!, { date, createFolders: false, unixPermissions: 0o100644, binary: true });
  }
  return zip.generateAsync({ type: "nodebuffer", compression: "DEFLATE", compressionOptions: { level: 6 }, platform: "UNIX" });
}

/** Normalises an entry name; undefined for entries to skip (folders, OS litter, paths leaving the zip). */
function normaliseEntryName(name: string): string | undefined {
  const parts = name.replace(/\\/g, "/").split("/").filter((p) => p !== "" && p !== ".");
  if (parts.length === 0 || parts.includes("..")) return undefined;
  if (parts[0] === "__MACOSX" || parts[parts.length - 1] === ".DS_Store") return undefined;
  return parts.join("/");
}

/**
 * The files of a zip. Throws NotAZipError when the data is not a zip, ZipTooLargeError past `limits` (counted as
 * the bytes inflate, not as the zip declares them).
 */
export async function unzipFiles(data: Uint8Array, limits: UnzipLimits = DEFAULT_UNZIP_LIMITS): Promise<FileMap> {
  return unzipNatively(data, limits) ?? unzipWithJszip(data, limits);
}

/** The zip read with node:zlib (zip-entries.ts); undefined for a zip of another form, or one zlib cannot inflate. */
function unzipNatively(data: Uint8Array, limits: UnzipLimits): FileMap | undefined {
  const buffer = Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  let entries: ReturnType<typeof zipEntries>;
  try {
    entries = zipEntries(buffer);
  } catch {
    return undefined; // a record cut short: jszip says what is wrong
  }
  if (entries === undefined) return undefined;
  if (entries.length > limits.maxEntries) throw tooManyEntries(entries.length, limits);
  const files: FileMap = new Map();
  let left = limits.maxInflatedBytes;
  for (const entry of entries) {
    if (entry.dir) continue;
    const name = normaliseEntryName(entry.name);
    if (name === undefined) continue;
    let content: Buffer;
    try {
      content = entry.read(left);
    } catch (e) {
      if (e instanceof RangeError) throw tooLarge(limits.maxInflatedBytes, entry.name);
      return undefined;
    }
    left -= content.length;
    if (left < 0) throw tooLarge(limits.maxInflatedBytes, entry.name);
    files.set(name, content);
  }
  return files;
}

const tooManyEntries = (count: number, limits: UnzipLimits) => new ZipTooLargeError(`the zip has ${count} entries; at most ${limits.maxEntries} are read`);
const tooLarge = (limit: number, entry: string) => new ZipTooLargeError(`the zip inflates to more than ${limit} bytes (at entry "${entry.slice(0, 200)}")`);

async function unzipWithJszip(data: Uint8Array, limits: UnzipLimits): Promise<FileMap> {
  let zip: JSZipType;
  try {
    zip = await jszip().loadAsync(data);
  } catch (e) {
    throw new NotAZipError(e instanceof Error ? e.message : String(e));
  }
  const entries = Object.values(zip.files);
  if (entries.length > limits.maxEntries) throw tooManyEntries(entries.length, limits);
  const files: FileMap = new Map();
  const budget = { left: limits.maxInflatedBytes, limit: limits.maxInflatedBytes };
  for (const entry of entries) {
    if (entry.dir) continue;
    const name = normaliseEntryName(entry.name);
    if (name === undefined) continue;
    files.set(name, await inflate(entry, budget));
  }
  return files;
}

/** JSZip's own (untyped) stream of an entry, which inflates chunk by chunk and can stop part-way. */
interface InternalStream {
  on(event: string, listener: (arg: never) => void): InternalStream;
  pause(): InternalStream;
  resume(): InternalStream;
}
interface InternalStreamSource {
  internalStream(type: "uint8array"): InternalStream;
}

/** One entry's bytes, stopping as soon as the zip's whole inflated size passes the budget. */
function inflate(entry: JSZipType.JSZipObject, budget: { left: number; limit: number }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const stream = (entry as unknown as InternalStreamSource).internalStream("uint8array");
    stream
      .on("data", (chunk: Uint8Array) => {
        budget.left -= chunk.length;
        if (budget.left < 0) {
          stream.pause();
          reject(tooLarge(budget.limit, entry.name));
          return;
        }
        chunks.push(Buffer.from(chunk));
      })
      .on("error", (e: Error) => reject(new NotAZipError(e.message)))
      .on("end", () => resolve(Buffer.concat(chunks)))
      .resume();
  });
}

/**
 * The files of an effective bundle or a configuration export (get-effective-bundle, core-casc-effective-bundle-export,
 * core-casc-export/zipExport) as path -> UTF-8 text, paths sorted: plain JSON, usable as a program output.
 */
export async function unzipBundle(data: Uint8Array, limits?: UnzipLimits): Promise<Record<string, string>> {
  const files = await unzipFiles(data, limits);
  return Object.fromEntries([...files.keys()].sort().map((name) => [name, files.get(name)!.toString("utf8")]));
}
