/**
 * rox-node is an optional peer of pulumi-cloudbees/testing, never a dependency: the built package loads it only
 * when startRoxClient runs. Checked in a child Node process where `require("rox-node")` fails as in a project that
 * does not install it.
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "..", "..");
const pkg = require(path.join(ROOT, "package.json")) as Record<string, Record<string, unknown>>;

const script = `
const Module = require("module");
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === "rox-node") { const e = new Error("Cannot find module 'rox-node'"); e.code = "MODULE_NOT_FOUND"; throw e; }
  return resolve.call(this, request, ...rest);
};
const testing = require("pulumi-cloudbees/testing");
const loaded = Object.keys(require.cache).some((f) => f.includes("rox-node"));
testing.startRoxClient({ roxyUrl: "http://127.0.0.1:1/roxy/0123456789abcdef01234567" }).then(
  () => console.log(JSON.stringify({ loaded, error: null })),
  (e) => console.log(JSON.stringify({ loaded, error: e.message })),
);
`;

describe("rox-node, an optional peer", () => {
  it("is a devDependency and an optional peer, never a dependency", () => {
    expect(pkg["dependencies"]).not.toHaveProperty("rox-node");
    expect(pkg["devDependencies"]).toHaveProperty("rox-node");
    expect(pkg["peerDependencies"]).toHaveProperty("rox-node");
    expect(pkg["peerDependenciesMeta"]).toEqual({ "rox-node": { optional: true } });
  });

  it("pulumi-cloudbees/testing loads without it; startRoxClient then says how to install it", () => {
    const run = spawnSync(process.execPath, ["-e", script], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout.trim())).toEqual({
      loaded: false,
      error: "startRoxClient needs rox-node, an optional peer of pulumi-cloudbees/testing: npm install --save-dev rox-node@^6.0.16",
    });
  });
});
