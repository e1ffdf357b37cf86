import JSZip from "jszip";
import { zipFiles, unzipFiles, NotAZipError } from "../../provider/bundle/zip";
import { zipEntries } from "../../provider/bundle/zip-entries";

// unzipFiles reads a zip with node:zlib (zip-entries.ts) and leaves any other form to jszip: the files are the same
// either way.

/** What jszip alone makes of a zip, as unzipFiles reported it before node:zlib read it. */
async function byJszip(zip: Buffer): Promise<Map<string, string>> {
  const loaded = await JSZip.loadAsync(zip);
  const files = new Map<string, string>();
  for (const entry of Object.values(loaded.files)) if (!entry.dir) files.set(entry.name, await entry.async("string"));
  return files;
}

async function read(zip: Buffer): Promise<Map<string, string>> {
  return new Map([...(await unzipFiles(zip))].map(([name, content]) => [name, content.toString("utf8")]));
}

const FILES = { "bundle.yaml": "id: a\n", "jenkins.yaml": `jenkins:\n  systemMessage: "${"x".repeat(5000)}"\n`, "items/ü ✓.yaml": "items: []\n", "empty.yaml": "" };

async function jszipOf(options: JSZip.JSZipGeneratorOptions<"nodebuffer">, folders = false): Promise<Buffer> {
  const zip = new JSZip();
  for (const [name, content] of Object.entries(FILES)) zip.file(name, content, { createFolders: folders });
  return zip.generateAsync({ ...options, type: "nodebuffer" });
}

describe("zipEntries reads the common form, as jszip reads it", () => {
  const forms: Array<[string, () => Promise<Buffer>]> = [
    ["zipFiles' own zips (DEFLATE, Unix attributes)", () => zipFiles(new Map(Object.entries(FILES).map(([n, c]) => [n, Buffer.from(c)])))],
    ["stored entries", () => jszipOf({ compression: "STORE" })],
    ["data descriptors (streamed entries) and folder entries", () => jszipOf({ compression: "DEFLATE", streamFiles: true }, true)],
    ["DOS attributes and a comment", () => jszipOf({ compression: "DEFLATE", platform: "DOS", comment: "exported" }, true)],
  ];

  it.each(forms)("%s", async (_name, make) => {
    const zip = await make();
    expect(zipEntries(zip)).toBeDefined();
    expect(await read(zip)).toEqual(await byJszip(zip));
  });

  it("leaves a zip with bytes before it, or a local name unlike the central one, to jszip, which reads it", async () => {
    const zip = await jszipOf({ compression: "DEFLATE" });
    const prefixed = Buffer.concat([Buffer.from("#!/bin/sh\n"), zip]);
    expect(zipEntries(prefixed)).toBeUndefined();
    expect(await read(prefixed)).toEqual(await byJszip(prefixed));

    const renamed = Buffer.from(zip);
    const local = renamed.indexOf("bundle.yaml");
    renamed.write("B", local);
    expect(zipEntries(renamed)).toBeUndefined();
    expect(await read(renamed)).toEqual(await byJszip(renamed));
  });

  it("a zip cut short or corrupt is still NotAZipError (jszip's words)", async () => {
    const zip = await jszipOf({ compression: "DEFLATE" });
    await expect(unzipFiles(zip.subarray(0, zip.length - 30))).rejects.toBeInstanceOf(NotAZipError);
    const corrupt = Buffer.from(zip);
    corrupt.fill(0xff, 40, 80);
    await expect(unzipFiles(corrupt)).rejects.toBeInstanceOf(NotAZipError);
  });
});
