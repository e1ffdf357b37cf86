/**
 * `npm test`'s order of test files: the longest first (test/longest-first.js), by the table below where jest has no
 * timings of a previous run (a fresh clone, CI).
 */
"use strict";
const { longestFirst } = require("./longest-first");

/**
 * Files that take much longer than their size says (child processes, provider hosts, rate-limited requests):
 * seconds each took in one `npm test` on the 2-core machine (2026-11-29, quiet, after the provider-level tests' new
 * deployments stopped starting a host each; their proportions are what matter), those of 8 s and more.
 */
const ESTIMATES = {
  "testing/engine-options.test.ts": 36,
  "program-runner.test.ts": 32,
  "cli/import.test.ts": 31,
  "testing/engine-diffs.test.ts": 30,
  "resources/feature-flag-lists.test.ts": 25,
  "testing/engine-steps.test.ts": 24,
  "testing/drift-job.test.ts": 19,
  "failures/soak.test.ts": 19,
  "testing/host-preload.test.ts": 16,
  "resources/real-experiments-program.test.ts": 15,
  "example-program.test.ts": 15,
  "example-pipeline.test.ts": 13,
  // 2026-12-05: 9.6 s in a run whose soak took 14.3 and feature-flag-lists 23.5.
  "example-unreadable-entries.test.ts": 12,
  "cli/import-controllers.test.ts": 11,
  "docs/code-blocks.test.ts": 8,
  "plugin/protocol.test.ts": 8,
  "testing/rox-program.test.ts": 8,
};

module.exports = longestFirst(ESTIMATES);
