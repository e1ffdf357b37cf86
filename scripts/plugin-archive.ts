/**
 * `npm run plugin:archive`: the provider plugin as an archive that `pulumi plugin install resource cloudbees
 * <version> --file <archive>` installs, for programs that are not in Node.js (Python, Go, YAML): the launcher
 * `pulumi-resource-cloudbees` (a shell script running Node.js, 20.18.1 or later, on the plugin), the package as
 * `npm pack` ships it, and the packages it runs with (its dependencies and @pulumi/pulumi, at the versions of
 * package-lock.json, copied from node_modules: no registry is asked). Prints the archive's path last.
 *
 * Usage: npm run plugin:archive [-- --out <folder>]   (default: dist/plugin)
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const ROOT = path.join(__dirname, "..");

interface LockEntry {
  link?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/** Where Node finds `name` from the package at `from` (lock paths: `node_modules/a/node_modules/b`). */
function resolveIn(packages: Record<string, LockEntry>, from: string, name: string): string | undefined {
  for (let dir = from; ; dir = dir.slice(0, dir.lastIndexOf("node_modules/")).replace(/\/$/, "")) {
    const candidate = `${dir ? `${dir}/` : ""}node_modules/${name}`;
    if (packages[candidate] && !packages[candidate]!.link) return candidate;
    if (!dir) return undefined;
  }
}

/** The lock paths of `names` and everything they need to run (optional peers left out), from the repository root. */
export function runtimeClosure(names: string[]): string[] {
  const { packages } = JSON.parse(fs.readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> };
  const seen = new Set<string>();
  const queue = names.map((n) => resolveIn(packages, "", n) ?? fail(`package-lock.json holds no ${n}`));
  while (queue.length) {
    const at = queue.shift()!;
    if (seen.has(at)) continue;
    seen.add(at);
    const entry = packages[at]!;
    const optionalPeers = Object.entries(entry.peerDependenciesMeta ?? {}).filter(([, m]) => m.optional).map(([n]) => n);
    const needed = [...Object.keys(entry.dependencies ?? {}), ...Object.keys(entry.peerDependencies ?? {}).filter((n) => !optionalPeers.includes(n))];
    for (const name of [...needed, ...Object.keys(entry.optionalDependencies ?? {})]) {
      const found = resolveIn(packages, at, name);
      if (found) queue.push(found);
      else if (needed.includes(name)) fail(`${at} needs ${name}, which package-lock.json does not hold`);
    }
  }
  return [...seen].sort();
}

function fail(message: string): never {
  throw new Error(`plugin:archive: ${message}`);
}

const LAUNCHER = `#!/bin/sh
# pulumi-resource-cloudbees: the cloudbees provider plugin, run by Node.js (20.18.1 or later) from PATH.
exec node "$(dirname "$0")/node_modules/pulumi-cloudbees/dist/provider/plugin/main.js" "$@"
`;

export function buildArchive(outDir: string): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string; dependencies: Record<string, string> };
  if (!fs.existsSync(path.join(ROOT, "dist", "provider", "plugin", "main.js"))) fail("dist/ has no plugin: run npm run build first");
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "plugin-archive-"));
  try {
    const staging = path.join(work, "plugin");
    const own = path.join(staging, "node_modules", "pulumi-cloudbees");
    fs.mkdirSync(own, { recursive: true });
    const packed = execFileSync("npm", ["pack", "--silent", "--pack-destination", work], { cwd: ROOT, encoding: "utf8" }).trim().split("\n").pop()!;
    execFileSync("tar", ["xzf", path.join(work, packed), "-C", own, "--strip-components=1"]);
    for (const dir of runtimeClosure([...Object.keys(pkg.dependencies), "@pulumi/pulumi"])) {
      fs.cpSync(path.join(ROOT, dir), path.join(staging, dir), { recursive: true, dereference: true });
    }
    fs.writeFileSync(path.join(staging, "pulumi-resource-cloudbees"), LAUNCHER, { mode: 0o755 });
    fs.mkdirSync(outDir, { recursive: true });
    const archive = path.join(outDir, `pulumi-resource-cloudbees-v${pkg.version}.tar.gz`);
    fs.rmSync(archive, { force: true });
    execFileSync("tar", ["czf", archive, "-C", staging, "."]);
    return archive;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const at = process.argv.indexOf("--out");
  console.log(buildArchive(path.resolve(at > 0 ? process.argv[at + 1]! : path.join(ROOT, "dist", "plugin"))));
}
