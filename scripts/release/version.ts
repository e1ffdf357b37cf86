/**
 * npm's `version` hook (`npm version <v>`, docs/releasing.md): after npm sets package.json's version and before it
 * commits and tags, every other place that says the version follows it: the policy pack's package.json (which
 * PolicyPack reports), then the schema and the SDKs (`npm run sdks`), all staged for npm's commit.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

const ROOT = path.join(__dirname, "..", "..");
const version = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;
const pack = path.join(ROOT, "policy", "package.json");
fs.writeFileSync(pack, `${JSON.stringify({ ...(JSON.parse(fs.readFileSync(pack, "utf8")) as object), version }, null, 2)}\n`);
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
execFileSync(npm, ["run", "sdks", "--silent"], { cwd: ROOT, stdio: "inherit" });
execFileSync("git", ["add", "policy/package.json", "generated"], { cwd: ROOT, stdio: "inherit" });
