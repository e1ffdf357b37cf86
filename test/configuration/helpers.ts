import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import YAML from "yaml";
import { readBundleFolder } from "../../provider/bundle/files";

/** The real exports and bundles copied from public repositories (test/fixtures/real-exports/SOURCE.md cites them). */
export const REAL = path.resolve(__dirname, "..", "fixtures", "real-exports");

/** A folder's files as a zipExport gives them (path to content). */
export function filesOf(dir: string): Map<string, Buffer> {
  return readBundleFolder(dir).files;
}

const temps: string[] = [];

/** A fresh folder, removed by cleanTemps. */
export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `config-core-${prefix}`));
  temps.push(dir);
  return dir;
}

export function cleanTemps(): void {
  for (const dir of temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** A bundle tree written from `bundles`: bundle name -> file -> YAML value (or text). */
export function writeTree(bundles: Record<string, Record<string, unknown>>): string {
  const root = tempDir("tree-");
  for (const [name, files] of Object.entries(bundles)) {
    const dir = path.join(root, name);
    fs.mkdirSync(dir, { recursive: true });
    for (const [file, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), typeof content === "string" ? content : YAML.stringify(content));
    }
  }
  return root;
}

/** Files of an export written from values (file -> YAML value or text). */
export function exportFiles(files: Record<string, unknown>): Map<string, Buffer> {
  return new Map(Object.entries(files).map(([name, v]) => [name, Buffer.from(typeof v === "string" ? v : YAML.stringify(v))]));
}
