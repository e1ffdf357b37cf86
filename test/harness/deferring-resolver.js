/**
 * The jest resolver of both suites (jest.config.js, jest.pulumi.config.js): where the repository's own @pulumi/pulumi
 * asks for a module that testing/processes/deferred-modules.ts defers (typescript, @npmcli/arborist, the Automation
 * API, ...), the file gets a stand-in (test/harness/deferred/) that loads the real module at its first use. jest gives
 * every test file a registry of its own, so each file that touches the SDK loaded @pulumi/pulumi whole: 1.1 s of CPU
 * in a jest worker, 0.18 s with the stand-ins, in over a hundred files. Everything else resolves as jest's default
 * resolver does. Plain JavaScript, as jest loads it untransformed: test/harness/deferring-resolver.test.ts keeps
 * REQUESTS equal to deferred-modules.ts's table.
 */
"use strict";
const path = require("node:path");

const PULUMI = path.join(__dirname, "..", "..", "node_modules", "@pulumi", "pulumi");

/** request -> the folders (under @pulumi/pulumi) whose files ask for it, as in deferred-modules.ts DEFERRED. */
const REQUESTS = {
  typescript: [""],
  "@npmcli/arborist": ["runtime/closure"],
  "./automation": [""],
  "normalize-package-data": ["runtime/closure"],
  fdir: ["runtime/closure"],
  semver: ["runtime", "runtime/closure"],
  "@opentelemetry/api": ["runtime"],
};

/** The stand-in's file for a request: its name without the scope's @ and with / as -. */
function standInFile(request) {
  return path.join(__dirname, "deferred", `${request.replace(/^\.\//, "").replace(/^@/, "").replace(/\//g, "-")}.js`);
}

module.exports = function resolve(request, options) {
  const folders = Object.prototype.hasOwnProperty.call(REQUESTS, request) ? REQUESTS[request] : undefined;
  if (folders && folders.some((f) => path.join(PULUMI, f) === options.basedir)) return standInFile(request);
  return options.defaultResolver(request, options);
};
module.exports.REQUESTS = REQUESTS;
module.exports.standInFile = standInFile;
