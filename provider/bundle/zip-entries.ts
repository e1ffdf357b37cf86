import { constants } from "node:buffer";
import { inflateRawSync } from "node:zlib";

// A zip's entries read with node:zlib: the central directory, then each entry's bytes, stored or deflated. Node's
// inflate is native; jszip's (pako) runs in JavaScript, cold in every fresh provider process (one per deployment),
// about 3 ms a controller's export. Only the common form: anything else (zip64, encryption, other compression
// methods, Unicode path fields, a local name unlike the central one, data zlib refuses) gives undefined, and zip.ts reads
// the zip with jszip as before, so the result never differs, only the time.

export interface ZipEntry {
  /** As stored (UTF-8, as jszip decodes it). */
  name: string;
  dir: boolean;
  /** The entry's bytes; throws RangeError past `maxBytes`. */
  read(maxBytes: number): Buffer;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const ZIP64_LOCATOR = 0x07064b50;

/** The end of central directory record: the last signature within the 64 KiB comment's reach. */
function endRecord(data: Buffer): number {
  for (let at = data.length - 22; at >= Math.max(0, data.length - 22 - 0xffff); at--) if (data.readUInt32LE(at) === EOCD) return at;
  return -1;
}

/** Whether an extra field holds a record of `id` (zip64 sizes 0x0001, Info-ZIP Unicode path 0x7075). */
function hasExtra(extra: Buffer, ids: readonly number[]): boolean {
  for (let at = 0; at + 4 <= extra.length; at += 4 + extra.readUInt16LE(at + 2)) if (ids.includes(extra.readUInt16LE(at))) return true;
  return false;
}

/** The central directory's entries, or undefined when the zip is not of the form read here. */
export function zipEntries(data: Buffer): ZipEntry[] | undefined {
  const end = endRecord(data);
  if (end < 0 || (end >= 20 && data.readUInt32LE(end - 20) === ZIP64_LOCATOR)) return undefined;
  const disk = data.readUInt16LE(end + 4);
  const count = data.readUInt16LE(end + 10);
  const size = data.readUInt32LE(end + 12);
  let at = data.readUInt32LE(end + 16);
  if (disk !== 0 || count === 0xffff || at + size > end) return undefined;
  const entries: ZipEntry[] = [];
  for (let k = 0; k < count; k++) {
    if (at + 46 > end || data.readUInt32LE(at) !== CENTRAL) return undefined;
    const flags = data.readUInt16LE(at + 8);
    const method = data.readUInt16LE(at + 10);
    const compressed = data.readUInt32LE(at + 20);
    const inflated = data.readUInt32LE(at + 24);
    const nameLength = data.readUInt16LE(at + 28);
    const extraLength = data.readUInt16LE(at + 30);
    const commentLength = data.readUInt16LE(at + 32);
    const attributes = data.readUInt32LE(at + 38);
    const local = data.readUInt32LE(at + 42);
    const name = data.toString("utf8", at + 46, at + 46 + nameLength);
    const extra = data.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength);
    at += 46 + nameLength + extraLength + commentLength;
    // jszip takes a Unicode path field over the name unless the name is flagged UTF-8 (as its own zips are).
    const unicodePath = (flags & 0x800) === 0 && hasExtra(extra, [0x7075]);
    if ((flags & 1) !== 0 || (method !== 0 && method !== 8) || hasExtra(extra, [0x0001]) || unicodePath) return undefined;
    if (local + 30 > data.length || data.readUInt32LE(local) !== LOCAL) return undefined;
    // jszip names an entry by its local header; one whose two names differ is left to it.
    const localName = local + 30 + data.readUInt16LE(local + 26);
    if (localName > data.length || data.toString("utf8", local + 30, localName) !== name) return undefined;
    const start = localName + data.readUInt16LE(local + 28);
    if (start + compressed > data.length || (method === 0 && compressed !== inflated)) return undefined;
    const bytes = data.subarray(start, start + compressed);
    entries.push({
      name,
      // As jszip tells a folder: the DOS attribute (which other systems set too), or a name ending in /.
      dir: (attributes & 0x10) !== 0 || name.endsWith("/"),
      read: (maxBytes) => {
        if (method === 0) {
          if (bytes.length > maxBytes) throw new RangeError("past the bound");
          return Buffer.from(bytes);
        }
        return inflateRawSync(bytes, { maxOutputLength: Math.max(1, Math.min(maxBytes, constants.MAX_LENGTH)) });
      },
    });
  }
  return entries;
}
