import JSZip from "jszip";

/** Files of a zip or bundle keyed by posix path relative to its root. */
export type FileMap = Map<string, Buffer>;

export class NotAZipError extends Error {
  override name = "NotAZipError";
}

// Fixed timestamp so that zipping the same files twice yields the same bytes.
const fixedDate = (): Date => new Date(Date.UTC(2024, 0, 1, 0, 0, 0));

/** Normalises an entry name; returns undefined for entries that must be skipped (folders, OS litter, unsafe paths). */
function normaliseEntryName(name: string): string | undefined {
  const parts = name.replace(/\\/g, "/").split("/").filter((p) => p !== "" && p !== ".");
  if (parts.length === 0 || parts.includes("..")) return undefined;
  if (parts[0] === "__MACOSX" || parts[parts.length - 1] === ".DS_Store") return undefined;
  return parts.join("/");
}

export async function unzip(data: Buffer): Promise<FileMap> {
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(data);
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

export async function zipFiles(files: FileMap): Promise<Buffer> {
  const zip = new JSZip();
  for (const name of [...files.keys()].sort()) zip.file(name, files.get(name)!, { date: fixedDate() });
  return zip.generateAsync({ type: "nodebuffer", compression: "DEFLATE", platform: "UNIX" });
}
