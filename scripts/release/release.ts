/**
 * `npm run release`: dist/release/, every asset named as the engine and the package managers expect (issue 45).
 *   pulumi-resource-cloudbees-v<version>-<os>-<arch>.tar.gz   the plugin as one executable (no Node.js needed), README.md, LICENSE
 *   pulumi-cloudbees-<version>.tgz                            the dynamic-provider package (npm pack)
 *   pulumi-cloudbees-cloudbees-<version>.tgz                  the Node.js SDK (@pulumi-cloudbees/cloudbees, built)
 *   pulumi_cloudbees-<version>-py3-none-any.whl, .tar.gz      the Python SDK (wheel and sdist)
 *   go/<module>/@v/{list,v<version>.info,.mod,.zip}           the Go SDK as a module proxy serves it (GOPROXY=file://...)
 *   schema.json
 *   pulumi-cloudbees_<version>_checksums.txt                  sha256 of every asset above, as `<hex>  <name>`
 * The version is package.json's: the schema, the SDKs and the plugin say the same (one source).
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { buildPluginExecutable } from "./plugin-executable";
import { goModuleProxy } from "./go-module";
import { compileNodejsSdk } from "./nodejs-sdk";
import { smokeTestPlugin } from "./plugin-smoke";
import { pythonForBuild } from "./python-builders";

const ROOT = path.join(__dirname, "..", "..");
const SDK = path.join(ROOT, "generated", "sdk");

const GOOS: Record<string, string> = { linux: "linux", darwin: "darwin", win32: "windows" };
const GOARCH: Record<string, string> = { x64: "amd64", arm64: "arm64" };

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

async function pluginArchive(out: string, version: string): Promise<string> {
  const os_ = GOOS[process.platform];
  const arch = GOARCH[process.arch];
  if (!os_ || !arch) throw new Error(`no plugin archive for ${process.platform}/${process.arch}: the engine knows no such platform`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "plugin-archive-"));
  try {
    const built = await buildPluginExecutable(work, version);
    await smokeTestPlugin(built.file, version);
    fs.copyFileSync(path.join(ROOT, "README.md"), path.join(work, "README.md"));
    fs.copyFileSync(path.join(ROOT, "LICENSE"), path.join(work, "LICENSE"));
    const name = `pulumi-resource-cloudbees-v${version}-${os_}-${arch}.tar.gz`;
    run("tar", ["-czf", path.join(out, name), "-C", work, path.basename(built.file), "README.md", "LICENSE"], ROOT);
    return name;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The package's tarball (packed here unless `packed` is one already, which the real-engine tier makes once per run)
 * and the Node.js SDK's, packed from its compiled folder (compiled here unless `nodejsSdk` is one).
 */
function npmTarballs(out: string, packed?: string, nodejsSdk?: string): string[] {
  const names: string[] = [];
  if (packed) {
    names.push(path.basename(packed));
    fs.copyFileSync(packed, path.join(out, names[0]!));
  } else {
    names.push(run("npm", ["pack", "--silent", "--pack-destination", out], ROOT).trim().split("\n").pop()!);
  }
  const work = nodejsSdk ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), "nodejs-sdk-"));
  try {
    const folder = nodejsSdk ?? compileNodejsSdk(work!);
    names.push(run("npm", ["pack", "--silent", "--pack-destination", out], folder).trim().split("\n").pop()!);
  } finally {
    if (work) fs.rmSync(work, { recursive: true, force: true });
  }
  return names;
}

function pythonPackages(out: string, python: string): string[] {
  const before = new Set(fs.readdirSync(out));
  // `python -m build` makes the sdist and, from it, the wheel; --no-isolation: with the setuptools of `python` (build,
  // setuptools and wheel installed there), so that nothing is fetched: the tier makes a release offline.
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "python-sdk-"));
  try {
    fs.cpSync(path.join(SDK, "python"), work, { recursive: true });
    fs.copyFileSync(path.join(ROOT, "README.md"), path.join(work, "README.md")); // the project page on PyPI
    run(python, ["-m", "build", "--no-isolation", "--outdir", out, work], work);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return fs.readdirSync(out).filter((f) => !before.has(f));
}

/** The checksums file of every asset in `out` (the files at its top, the go/ folder left out: it is no asset). */
export function checksums(out: string, version: string, assets = fs.readdirSync(out).filter((f) => fs.statSync(path.join(out, f)).isFile())): string {
  const name = `pulumi-cloudbees_${version}_checksums.txt`;
  const lines = assets
    .filter((a) => a !== name)
    .sort()
    .map((a) => `${createHash("sha256").update(fs.readFileSync(path.join(out, a))).digest("hex")}  ${a}`);
  fs.writeFileSync(path.join(out, name), `${lines.join("\n")}\n`);
  return name;
}

/** CHANGELOG.md's section of `version` (the release's notes); a version without one is not released. */
export function releaseNotes(changelog: string, version: string): string {
  const sections = changelog.split(/^## /m).slice(1);
  const section = sections.find((s) => s.split(/\s/, 1)[0] === version);
  if (!section) throw new Error(`CHANGELOG.md has no section "## ${version}": write what this release changes before tagging it`);
  const heading = section.slice(0, section.indexOf("\n"));
  if (/unreleased/i.test(heading)) throw new Error(`CHANGELOG.md's "## ${heading}" is marked unreleased: date it before tagging v${version}`);
  return section.slice(section.indexOf("\n") + 1).trim();
}

export const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;

export interface ReleaseOptions {
  /** The archive of this platform alone (the release workflow's other runners). */
  pluginOnly?: boolean;
  /** The Python that builds the Python SDK, which must have build, setuptools and wheel: default python3 when it has
   * them, else an environment of the release's own in the user's cache (python-builders.ts). */
  python?: string;
  /** The package's tarball as `npm pack` made it from this tree, instead of packing again. */
  packed?: string;
  /** The Node.js SDK's compiled folder (nodejs-sdk.ts), instead of compiling it again. */
  nodejsSdk?: string;
}

export async function release(out = path.join(ROOT, "dist", "release"), options: ReleaseOptions = {}): Promise<string[]> {
  const pluginOnly = options.pluginOnly === true;
  const version = VERSION;
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  if (pluginOnly) return [await pluginArchive(out, version)];
  // Before anything is built: the one step that may need the network.
  const python = pythonForBuild({ python: options.python, say: (m) => process.stderr.write(`release: ${m}\n`) });
  const assets = [await pluginArchive(out, version), ...npmTarballs(out, options.packed, options.nodejsSdk), ...pythonPackages(out, python)];
  fs.copyFileSync(path.join(ROOT, "generated", "schema.json"), path.join(out, "schema.json"));
  assets.push("schema.json");
  const go = await goModuleProxy(path.join(out, "go"), path.join(SDK, "go"), version);
  return [...assets, checksums(out, version, assets), ...go.map((f) => path.join("go", f))];
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--checksums");
  const done = args.includes("--notes")
    ? Promise.resolve().then(() => [releaseNotes(fs.readFileSync(path.join(ROOT, "CHANGELOG.md"), "utf8"), VERSION)])
    : at >= 0
      ? Promise.resolve([checksums(path.resolve(args[at + 1] ?? path.join(ROOT, "dist", "release")), VERSION)])
      : release(path.join(ROOT, "dist", "release"), { pluginOnly: args.includes("--plugin-only"), python: args.includes("--python") ? args[args.indexOf("--python") + 1] : undefined });
  done.then(
    (assets) => {
      for (const a of assets) console.log(a);
    },
    (e: unknown) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(1);
    },
  );
}
