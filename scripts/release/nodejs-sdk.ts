/**
 * The Node.js SDK (@pulumi-cloudbees/cloudbees) as its package holds it: generated/sdk/nodejs compiled with tsc, its
 * package.json, README.md and LICENSE beside the compiled files. The release packs this folder; the real-engine
 * tier installs the same folder into its Node.js projects, so one tier run compiles it once.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

const ROOT = path.join(__dirname, "..", "..");

/**
 * Compiles the SDK in `work` (a new or empty folder) against the packages of `nodeModules` (the SDK's @pulumi/pulumi
 * and typescript) and returns the package's folder (`<work>/bin`).
 */
export function compileNodejsSdk(work: string, nodeModules = path.join(ROOT, "node_modules")): string {
  fs.cpSync(path.join(ROOT, "generated", "sdk", "nodejs"), work, { recursive: true });
  fs.symlinkSync(nodeModules, path.join(work, "node_modules"));
  execFileSync(process.execPath, [path.join(nodeModules, "typescript", "bin", "tsc"), "-p", work], { cwd: work, stdio: ["ignore", "pipe", "pipe"] });
  const bin = path.join(work, "bin");
  fs.copyFileSync(path.join(work, "package.json"), path.join(bin, "package.json"));
  for (const f of ["README.md", "LICENSE"]) if (fs.existsSync(path.join(ROOT, f))) fs.copyFileSync(path.join(ROOT, f), path.join(bin, f));
  return bin;
}
