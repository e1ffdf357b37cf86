/* istanbul ignore file */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";

/**
 * Which way imports may run: the core (provider/) is below both faces, the TypeScript one (sdk/) and the plugin
 * (provider/plugin/). A core file imports neither face; the plugin does not import the other face.
 */

export const ROOT = path.resolve(__dirname, "..", "..");

export interface Violation {
  /** The importing file, relative to the repository. */
  file: string;
  /** The specifier as written. */
  specifier: string;
  /** The face it reaches. */
  face: string;
}

/** Where a file stands: the plugin face, the core, or outside both (sdk/, tests, scripts...). */
function layerOf(file: string): "plugin" | "core" | undefined {
  if (file.startsWith("provider/plugin/")) return "plugin";
  if (file.startsWith("provider/")) return "core";
  return undefined;
}

/**
 * The face a specifier of `file` reaches, or undefined: a relative path resolved against the file, or the package's
 * own name (`pulumi-cloudbees` is dist/sdk; `pulumi-cloudbees/provider` the core).
 */
function faceOf(file: string, specifier: string): string | undefined {
  let target: string;
  if (specifier.startsWith(".")) target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
  else if (specifier === "pulumi-cloudbees" || (specifier.startsWith("pulumi-cloudbees/") && !specifier.startsWith("pulumi-cloudbees/provider"))) target = "sdk";
  else return undefined;
  if (target === "sdk" || target.startsWith("sdk/")) return "sdk/ (the TypeScript face)";
  if (target === "provider/plugin" || target.startsWith("provider/plugin/")) return "provider/plugin/ (the plugin face)";
  return undefined;
}

/** Every import, export-from, require() and import() specifier of a TypeScript text (comments and strings ignored). */
export function specifiersOf(text: string): string[] {
  const info = ts.preProcessFile(text, true, true);
  return info.importedFiles.map((f) => f.fileName);
}

/** The imports of `files` (path relative to the repository -> text) that run from the core up into a face. */
export function violations(files: Map<string, string>): Violation[] {
  const out: Violation[] = [];
  for (const [file, text] of files) {
    const layer = layerOf(file);
    if (!layer) continue;
    for (const specifier of specifiersOf(text)) {
      const face = faceOf(file, specifier);
      if (!face) continue;
      // The plugin is a face itself: only the other face is out of its reach.
      if (layer === "plugin" && face.startsWith("provider/plugin/")) continue;
      out.push({ file, specifier, face });
    }
  }
  return out;
}

/** Every .ts file under provider/, by its path relative to the repository. */
export function providerSources(): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith(".ts")) out.set(rel, fs.readFileSync(path.join(ROOT, rel), "utf8"));
    }
  };
  walk("provider");
  return out;
}
