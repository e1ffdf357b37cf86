import * as fs from "node:fs";
import * as path from "node:path";

/**
 * The user's own `@pulumi/pulumi` (a peer dependency): the plugin speaks the provider protocol with its gRPC copy and
 * its generated protobuf stubs, as Pulumi's own Node plugins do, so that its messages are those its server accepts.
 * Only its public, generated parts are used (proto/*, google-protobuf's well-known types, @grpc/grpc-js): these
 * keep their shape across the versions of the peer range, unlike `@pulumi/pulumi/provider`'s internals.
 */

/** The package's own package.json: its version and the peer range of `@pulumi/pulumi` it declares. */
export interface OwnManifest {
  root: string;
  version: string;
  pulumiRange: string;
}

/** The package's root: the folder of its package.json, above dist/provider/plugin (or provider/plugin). */
export function ownManifest(from = __dirname): OwnManifest {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (fs.existsSync(file)) {
      const json = JSON.parse(fs.readFileSync(file, "utf8")) as { name?: string; version: string; peerDependencies?: Record<string, string> };
      if (json.name === "pulumi-cloudbees") return { root: dir, version: json.version, pulumiRange: json.peerDependencies?.["@pulumi/pulumi"] ?? "*" };
    }
    if (path.dirname(dir) === dir) throw new Error(`no package.json of pulumi-cloudbees above ${from}`);
  }
}

/**
 * Refuses a `@pulumi/pulumi` outside the declared peer range, before anything of it loads: in one sentence, the
 * version found (or none), the range, and the way out.
 */
export function checkPulumiVersion(manifest: OwnManifest): string {
  const wayOut = `install one in the range next to pulumi-cloudbees (npm install @pulumi/pulumi@"${manifest.pulumiRange}")`;
  let pulumiRoot: string;
  try {
    pulumiRoot = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
  } catch {
    throw new Error(`no @pulumi/pulumi is installed, and this plugin needs one in the range ${manifest.pulumiRange}; ${wayOut}`);
  }
  const found = (JSON.parse(fs.readFileSync(path.join(pulumiRoot, "package.json"), "utf8")) as { version?: string }).version ?? "(no version)";
  if (!satisfies(found, manifest.pulumiRange, pulumiRoot)) {
    throw new Error(`@pulumi/pulumi ${found} (at ${pulumiRoot}) is outside the range this plugin supports, ${manifest.pulumiRange}; ${wayOut}`);
  }
  return pulumiRoot;
}

/**
 * Whether `version` is in `range`: a caret range (`^3.216.0`, the form package.json declares) read here, so that even
 * a broken install is named rightly; any other form with the semver copy `@pulumi/pulumi` depends on (the package
 * has no semver of its own).
 */
export function satisfies(version: string, range: string, pulumiRoot: string): boolean {
  const caret = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(range.trim());
  const found = /^(\d+)\.(\d+)\.(\d+)$/.exec(version.trim());
  if (caret && caret[1] !== "0") {
    if (!found) return false; // A prerelease or a build is never in a caret range of releases.
    const [, major, minor, patch] = found.map(Number) as [number, number, number, number];
    const [, lMajor, lMinor, lPatch] = caret.map(Number) as [number, number, number, number];
    return major === lMajor && (minor > lMinor || (minor === lMinor && patch >= lPatch));
  }
  try {
    const semver = require(require.resolve("semver", { paths: [pulumiRoot] })) as { satisfies(v: string, r: string): boolean };
    return semver.satisfies(version, range);
  } catch {
    return false;
  }
}
