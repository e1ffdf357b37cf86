/**
 * The Go SDK as a Go module proxy serves it (https://go.dev/ref/mod#goproxy-protocol), for `GOPROXY=file://<dir>` or
 * any static server: `<escaped module>/@v/list`, `v<version>.info`, `.mod` and `.zip`, the zip holding the module's
 * files under `<module>@v<version>/` (https://go.dev/ref/mod#zip-files). A user on the network gets the same module
 * from the repository's tag `generated/sdk/go/v<version>` (the tag a module in a subfolder needs).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import JSZip from "jszip";

/** The module path as proxies write it: each upper-case letter as `!` and its lower case. */
export function escapedModulePath(module: string): string {
  return module.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);
}

function moduleOf(goMod: string): string {
  const m = /^module\s+(\S+)/m.exec(goMod);
  if (!m) throw new Error("generated/sdk/go/go.mod names no module");
  return m[1]!;
}

function filesBelow(dir: string, prefix = ""): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesBelow(path.join(dir, e.name), `${prefix}${e.name}/`) : e.isFile() ? [`${prefix}${e.name}`] : [],
  );
}

/** Writes the proxy layout of the module in `moduleDir` at `version` under `out`; the paths written, relative to it. */
export async function goModuleProxy(out: string, moduleDir: string, version: string): Promise<string[]> {
  const goMod = fs.readFileSync(path.join(moduleDir, "go.mod"), "utf8");
  const module = moduleOf(goMod);
  const v = `v${version}`;
  const at = path.join(out, ...escapedModulePath(module).split("/"), "@v");
  fs.mkdirSync(at, { recursive: true });
  const zip = new JSZip();
  // A fixed date: the same sources make the same zip (its sum is what go.sum records).
  const date = new Date("2020-01-01T00:00:00Z");
  for (const f of filesBelow(moduleDir).sort()) zip.file(`${module}@${v}/${f}`, fs.readFileSync(path.join(moduleDir, f)), { date, createFolders: false });
  fs.writeFileSync(path.join(at, `${v}.zip`), await zip.generateAsync({ type: "nodebuffer", compression: "DEFLATE" }));
  fs.writeFileSync(path.join(at, `${v}.mod`), goMod);
  fs.writeFileSync(path.join(at, `${v}.info`), JSON.stringify({ Version: v, Time: date.toISOString() }));
  fs.writeFileSync(path.join(at, "list"), `${v}\n`);
  const rel = path.relative(out, at);
  return ["list", `${v}.info`, `${v}.mod`, `${v}.zip`].map((f) => path.join(rel, f));
}
