#!/usr/bin/env node
/**
 * Runs npm scripts at the same time and fails when any fails: `npm test` builds dist/ and typechecks everything at
 * once (two tsc runs, one per core), instead of one after the other. The typecheck does not need dist/: tsconfig.json
 * maps the package's own name to its sources.
 *
 *   node scripts/parallel.js build typecheck
 */
"use strict";
const { spawn } = require("node:child_process");

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const runs = process.argv.slice(2).map(
  (script) =>
    new Promise((resolve) => {
      const child = spawn(npm, ["run", "--silent", script], { stdio: "inherit" });
      child.on("exit", (code, signal) => resolve({ script, code: code ?? (signal ? 1 : 0) }));
      child.on("error", (e) => resolve({ script, code: 1, error: e }));
    }),
);
Promise.all(runs).then((results) => {
  const failed = results.filter((r) => r.code !== 0);
  for (const f of failed) console.error(`npm run ${f.script} failed (exit ${f.code})${f.error ? `: ${f.error.message}` : ""}`);
  process.exit(failed.length ? 1 : 0);
});
