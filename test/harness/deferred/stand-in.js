/**
 * Runs inside a test file's module registry: the stand-in for one of deferred-modules.ts's requests, loading the real
 * module (resolved as @pulumi/pulumi's own file would) at its first use. test/harness/deferring-resolver.js.
 */
"use strict";
const path = require("node:path");
const { DEFERRED, standIn } = require("../../../testing/processes/deferred-modules");

const NODE_MODULES = path.join(__dirname, "..", "..", "..", "node_modules");

module.exports = function deferredStandIn(request) {
  const deferred = DEFERRED.find((d) => d.request === request);
  if (!deferred) throw new Error(`test/harness/deferred: '${request}' is not in testing/processes/deferred-modules.ts`);
  // Resolved from the asking file's folder as node would, but named through its node_modules: the resolver defers
  // only requests from the folder itself (jest's require.resolve and createRequire go through it too).
  const from = path.dirname(path.join(NODE_MODULES, deferred.from));
  const real = request.startsWith(".") ? path.resolve(from, request) : require.resolve(request, { paths: [path.join(from, "node_modules")] });
  return standIn(() => require(real), deferred);
};
