/* istanbul ignore file */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";

/**
 * Which way imports may run: the core (provider/) is below both faces, the TypeScript one (sdk/) and the plugin
 * (provider/plugin/). A core file imports neither face; the plugin does not import the other face. The commands
 * (cli/) stand above them all: neither the core nor a face imports them (a program that imports the package never
 * loads a command).
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

/** Where a file stands: the plugin face, the core, the TypeScript face, or outside them (cli/, tests, scripts...). */
function layerOf(file: string): "plugin" | "core" | "sdk" | undefined {
  if (file.startsWith("provider/plugin/")) return "plugin";
  if (file.startsWith("provider/")) return "core";
  if (file.startsWith("sdk/")) return "sdk";
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
  if (target === "cli" || target.startsWith("cli/")) return "cli/ (the commands)";
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
      // The plugin is a face itself: only the other face (and the commands) are out of its reach.
      if (layer === "plugin" && face.startsWith("provider/plugin/")) continue;
      // The TypeScript face may reach the core and itself: only the commands are out of its reach.
      if (layer === "sdk" && !face.startsWith("cli/")) continue;
      out.push({ file, specifier, face });
    }
  }
  return out;
}

/** Every .ts file under `folder` (provider/ by default), by its path relative to the repository. */
export function providerSources(folder = "provider"): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith(".ts")) out.set(rel, fs.readFileSync(path.join(ROOT, rel), "utf8"));
    }
  };
  walk(folder);
  return out;
}
