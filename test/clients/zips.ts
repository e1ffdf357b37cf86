import JSZip from "jszip";
import { readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";

export const SAMPLE_BUNDLES = path.join(__dirname, "..", "..", "examples", "bundles");

/** Adds every file below `dir` to `zip` under `prefix`. */
function addFolder(zip: JSZip, dir: string, prefix: string): void {
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) addFolder(zip, full, `${prefix}${name}/`);
    else zip.file(`${prefix}${name}`, readFileSync(full), { date: new Date(0) });
  }
}

/** A zip of sample bundles in the branch-folder layout of get-effective-bundle and pre-validate-bundle. */
export function branchZip(branch: string, bundles: string[], extra: Record<string, string> = {}): Promise<Buffer> {
  const zip = new JSZip();
  for (const bundle of bundles) addFolder(zip, path.join(SAMPLE_BUNDLES, bundle), `${branch}/${bundle}/`);
  for (const [file, content] of Object.entries(extra)) zip.file(file, content);
  return zip.generateAsync({ type: "nodebuffer" });
}

/** A zip with one bundle's files at its top level (casc-bundle-validate). */
export function bundleZip(files: Record<string, string>): Promise<Buffer> {
  const zip = new JSZip();
  for (const [file, content] of Object.entries(files)) zip.file(file, content);
  return zip.generateAsync({ type: "nodebuffer" });
}

export async function unzipNames(data: Buffer): Promise<string[]> {
  const zip = await JSZip.loadAsync(data);
  return Object.values(zip.files)
    .filter((f) => !f.dir)
    .map((f) => f.name)
    .sort();
}

export async function unzipText(data: Buffer, name: string): Promise<string> {
  const zip = await JSZip.loadAsync(data);
  const file = zip.file(name);
  if (!file) throw new Error(`${name} is not in the zip`);
  return file.async("string");
}
