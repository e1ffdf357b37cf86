import { spawn } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";

/**
 * A fresh consumer project, outside this repository, with the packed package installed from its tarball and the
 * rest from the npm cache (offline). Its package-lock.json is cut out of ours: the packages the consumer needs,
 * reached from its dependencies the way Node resolves them in our layout, so `npm ci --offline` needs no registry
 * metadata, only the tarballs `npm ci` put in the cache here.
 */

export const ROOT = path.resolve(__dirname, "..", "..");

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  name?: string;
  link?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [key: string]: unknown;
}

interface Lock {
  lockfileVersion: number;
  packages: Record<string, LockEntry>;
}

/** Where Node finds `name` from the package at `from` (a lock path like `node_modules/a/node_modules/b`). */
function resolveIn(packages: Lock["packages"], from: string, name: string): string | undefined {
  for (let dir = from; ; ) {
    const candidate = `${dir ? `${dir}/` : ""}node_modules/${name}`;
    if (packages[candidate] && !packages[candidate]!.link) return candidate;
    if (!dir) return undefined;
    const cut = dir.lastIndexOf("node_modules/");
    dir = dir.slice(0, cut).replace(/\/$/, "");
  }
}

/**
 * The consumer's lock: `dependencies` (name -> the path in our lock to take it from, e.g. `@pulumi/pulumi` ->
 * `node_modules/pulumi-sdk-lowest` for the alias of the lowest version), plus the tarball.
 */
export function consumerLock(ours: Lock, dependencies: Record<string, string>, tarball: { file: string; spec: string }): Lock {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
    name: string;
    version: string;
    dependencies: Record<string, string>;
    peerDependencies: Record<string, string>;
    peerDependenciesMeta?: Record<string, { optional?: boolean }>;
    bin: Record<string, string>;
    engines: Record<string, string>;
    license: string;
  };
  const rename = new Map<string, string>(); // our path prefix -> the consumer's
  const picked = new Map<string, string>(); // our path -> the consumer's path
  const queue: string[] = [];
  const take = (ourPath: string, theirPath: string) => {
    if (picked.has(ourPath)) return;
    picked.set(ourPath, theirPath);
    queue.push(ourPath);
  };
  const theirs = (ourPath: string): string => {
    for (const [from, to] of rename) if (ourPath === from || ourPath.startsWith(`${from}/`)) return to + ourPath.slice(from.length);
    return ourPath;
  };
  for (const [name, ourPath] of Object.entries(dependencies)) {
    if (!ours.packages[ourPath]) throw new Error(`package-lock.json has no ${ourPath}`);
    rename.set(ourPath, `node_modules/${name}`);
    take(ourPath, `node_modules/${name}`);
  }
  // The tarball's own dependencies resolve from the project root, as our root resolves them.
  for (const name of Object.keys(pkg.dependencies)) take(resolveIn(ours.packages, "", name)!, `node_modules/${name}`);
  while (queue.length) {
    const at = queue.shift()!;
    const entry = ours.packages[at]!;
    const optional = new Set([
      ...Object.keys(entry.optionalDependencies ?? {}),
      ...Object.entries(entry.peerDependenciesMeta ?? {}).filter(([, m]) => m.optional).map(([n]) => n),
    ]);
    const names = [...Object.keys(entry.dependencies ?? {}), ...Object.keys(entry.optionalDependencies ?? {}), ...Object.keys(entry.peerDependencies ?? {})];
    for (const name of names) {
      const found = resolveIn(ours.packages, at, name);
      // A dependency the consumer declares itself (a peer, say) resolves to the consumer's copy.
      if (found === `node_modules/${name}` && dependencies[name] !== undefined) continue;
      if (found) take(found, theirs(found));
      else if (!optional.has(name)) throw new Error(`${at} needs ${name}, which package-lock.json does not hold`);
    }
  }
  const packages: Lock["packages"] = {
    "": { name: "consumer", version: "1.0.0", dependencies: { ...dependencyVersions(ours, dependencies), [pkg.name]: tarball.spec } },
    [`node_modules/${pkg.name}`]: {
      version: pkg.version,
      resolved: tarball.spec,
      integrity: `sha512-${crypto.createHash("sha512").update(fs.readFileSync(tarball.file)).digest("base64")}`,
      license: pkg.license,
      dependencies: pkg.dependencies,
      peerDependencies: pkg.peerDependencies,
      // Optional peers (rox-node, for pulumi-cloudbees/testing's startRoxClient) are not installed.
      ...(pkg.peerDependenciesMeta ? { peerDependenciesMeta: pkg.peerDependenciesMeta } : {}),
      bin: pkg.bin,
      engines: pkg.engines,
    },
  };
  for (const [ourPath, theirPath] of [...picked].sort(([, a], [, b]) => a.localeCompare(b))) {
    if (packages[theirPath]) throw new Error(`${theirPath} would come from two places`);
    const { dev: _dev, devOptional: _devOptional, peer: _peer, ...entry } = ours.packages[ourPath]!;
    // An alias of ours (`pulumi-sdk-lowest` = @pulumi/pulumi) is installed under its real name: no alias left.
    if (entry.name !== undefined && theirPath.endsWith(`node_modules/${entry.name}`)) delete entry.name;
    // Our lock leaves out registry URLs; with one (and the integrity) npm takes the tarball from its cache and needs
    // no registry metadata offline.
    entry.resolved ??= registryTarball(entry.name ?? theirPath.slice(theirPath.lastIndexOf("node_modules/") + "node_modules/".length), entry.version!);
    packages[theirPath] = entry;
  }
  return { ...ours, packages, name: "consumer", version: "1.0.0" } as Lock;
}

function registryTarball(name: string, version: string): string {
  return `https://registry.npmjs.org/${name}/-/${name.split("/").at(-1)}-${version}.tgz`;
}

function dependencyVersions(ours: Lock, dependencies: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(dependencies).map(([name, p]) => [name, ours.packages[p]!.version!]));
}

export interface CommandResult {
  code: number | null;
  output: string;
}

/** The environment without npm's own variables (those `npm test` sets), so they do not leak into the project's npm. */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) || /^npm_config_cache$/i.test(k)));
}

/** Runs a command in `cwd` with npm's own variables cleared. */
export function run(command: string, args: string[], cwd: string, timeoutMs = 120_000): Promise<CommandResult> {
  const env = cleanEnv();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

export const NPM = process.platform === "win32" ? "npm.cmd" : "npm";
export const NPX = process.platform === "win32" ? "npx.cmd" : "npx";

/** Packs this repository (dist/ as `npm test` built it) into `dir`; returns the tarball's path. */
export async function pack(dir: string): Promise<string> {
  const res = await run(NPM, ["pack", "--json", "--pack-destination", dir], ROOT);
  if (res.code !== 0) throw new Error(`npm pack failed:\n${res.output}`);
  const json = res.output.slice(res.output.indexOf("["));
  const [info] = JSON.parse(json) as Array<{ filename: string }>;
  return path.join(dir, info!.filename);
}

/**
 * A project in `dir` with the tarball and the given dependencies (name -> path in our lock), the files of `fixture`
 * (default: the consumer fixture's; none when null), installed with `npm ci --offline`.
 */
export async function installConsumer(
  dir: string,
  tarball: string,
  dependencies: Record<string, string>,
  fixture: string | null = path.join(__dirname, "consumer"),
): Promise<CommandResult> {
  fs.mkdirSync(dir, { recursive: true });
  const ours = JSON.parse(fs.readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as Lock;
  const spec = `file:${path.relative(dir, tarball).split(path.sep).join("/")}`;
  const lock = consumerLock(ours, dependencies, { file: tarball, spec });
  const manifest = { name: "consumer", version: "1.0.0", private: true, dependencies: lock.packages[""]!.dependencies };
  fs.writeFileSync(path.join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  fs.writeFileSync(path.join(dir, "package-lock.json"), `${JSON.stringify(lock, null, 2)}\n`);
  if (fixture) fs.cpSync(fixture, dir, { recursive: true });
  return run(NPM, ["ci", "--offline", "--no-audit", "--no-fund"], dir);
}

/** Removes `dir` in a detached process: the test file does not wait for two installed projects' files to go. */
export function removeInBackground(dir: string): void {
  const script = "require('node:fs').rmSync(process.argv[1], { recursive: true, force: true })";
  spawn(process.execPath, ["-e", script, dir], { detached: true, stdio: "ignore" }).unref();
}

/**
 * Starts `npx <bin> ...args` in `dir` (in a process group of its own), waits until its output matches `ready`, then
 * stops the whole group and resolves with the output.
 */
export function startAndStop(dir: string, args: string[], ready: RegExp, timeoutMs = 30_000): Promise<string> {
  const env = cleanEnv();
  return new Promise((resolve, reject) => {
    const child = spawn(NPX, args, { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let output = "";
    const stop = () => {
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`npx ${args.join(" ")}: no match for ${ready} within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (d: Buffer) => {
      output += d;
      if (ready.test(output)) {
        clearTimeout(timer);
        stop();
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("error", reject);
    child.on("exit", () => {
      clearTimeout(timer);
      if (ready.test(output)) resolve(output);
      else reject(new Error(`npx ${args.join(" ")} exited before it was ready:\n${output}`));
    });
  });
}
