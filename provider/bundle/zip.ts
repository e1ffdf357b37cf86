import type JSZipType from "jszip";
import { jszip } from "../libraries";
import type { FileMap } from "./files";

export class NotAZipError extends Error {
  override name = "NotAZipError";
}

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

/** The files of a zip. Throws NotAZipError when the data is not a zip. */
export async function unzipFiles(data: Uint8Array): Promise<FileMap> {
  let zip: JSZipType;
  try {
    zip = await jszip().loadAsync(data);
  } catch (e) {
    throw new NotAZipError(e instanceof Error ? e.message : String(e));
  }
  const files: FileMap = new Map();
  for (const entry of Object.values(zip.files)) {
    if (entry.dir) continue;
    const name = normaliseEntryName(entry.name);
    if (name === undefined) continue;
    files.set(name, await entry.async("nodebuffer"));
  }
  return files;
}

/**
 * The files of an effective bundle or a configuration export (get-effective-bundle, core-casc-effective-bundle-export,
 * core-casc-export/zipExport) as path -> UTF-8 text, paths sorted: plain JSON, usable as a program output.
 */
export async function unzipBundle(data: Uint8Array): Promise<Record<string, string>> {
  const files = await unzipFiles(data);
  return Object.fromEntries([...files.keys()].sort().map((name) => [name, files.get(name)!.toString("utf8")]));
}
