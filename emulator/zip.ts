// Zips come from the provider's bundle toolkit: deterministic archives, one unzip with one set of entry rules.
import { createHash } from "node:crypto";
import type { FileMap } from "../provider/bundle/files";
import { zipFiles } from "../provider/bundle/zip";

export { type FileMap } from "../provider/bundle/files";
export { NotAZipError, unzipFiles as unzip, zipFiles } from "../provider/bundle/zip";

/**
 * zipFiles, remembering the last archive: a controller's export is asked for again and again while its configuration
 * stays the same (every refresh reads it), and making the zip was most of the emulator's work for that read. The
 * archive is deterministic, so the same files give the same bytes either way.
 */
export class LastZip {
  private last?: { key: string; zip: Promise<Buffer> };

  zip(files: FileMap): Promise<Buffer> {
    const hash = createHash("sha256");
    for (const name of [...files.keys()].sort()) hash.update(`${name.length}:${name}`).update(`${files.get(name)!.length}:`).update(files.get(name)!);
    const key = hash.digest("hex");
    if (this.last?.key === key) return this.last.zip;
    const zip = zipFiles(files);
    this.last = { key, zip };
    zip.catch(() => {
      if (this.last?.zip === zip) this.last = undefined;
    });
    return zip;
  }
}
