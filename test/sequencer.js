/**
 * `npm test`'s order of test files: the longest first (test/longest-first.js), by the table below where jest has no
 * timings of a previous run (a fresh clone, CI).
 */
"use strict";
const { longestFirst } = require("./longest-first");

/**
 * Files that take much longer than their size says (child processes, provider hosts, rate-limited requests):
 * seconds each took in one `npm test` on a fresh clone on the 2-core machine (2026-11-28, with other work running:
 * their proportions are what matter), those of 8 s and more.
 */
const ESTIMATES = {
  "testing/engine-options.test.ts": 54,
  "testing/engine-diffs.test.ts": 50,
  "testing/engine-steps.test.ts": 47,
  "docs/code-blocks.test.ts": 45,
  "resources/real-experiments-program.test.ts": 34,
  "program-runner.test.ts": 32,
  "cli/import.test.ts": 32,
  "failures/soak.test.ts": 30,
  "resources/feature-flag-lists.test.ts": 30,
  "testing/drift-job.test.ts": 29,
  "testing/host-preload.test.ts": 25,
  "resources/sdk.test.ts": 24,
  "example-program.test.ts": 23,
  "resources/bundle-availability.test.ts": 20,
  "example-pipeline.test.ts": 19,
  "plugin/schema.test.ts": 18,
  "cli/import-controllers.test.ts": 17,
  "controllers/controller-configuration.test.ts": 16,
  "resources/bundle-list-sharing.test.ts": 16,
  "resources/controller-bundle-assignment.test.ts": 15,
  "resources/drift-attribution.test.ts": 15,
  "cli/escape.test.ts": 15,
  "testing/rox-program.test.ts": 14,
  "resources/team-member.test.ts": 14,
  "resources/flag-configuration.test.ts": 13,
  "resources/environment-and-target-group.test.ts": 13,
  "plugin/protocol.test.ts": 13,
  "resources/feature-flag-sdk.test.ts": 13,
  "resources/default-bundle-and-global-pattern.test.ts": 12,
  "example-promotion.test.ts": 11,
  "cli/import-hostile.test.ts": 10,
  "failures/reconcile.test.ts": 10,
  "functions/functions.test.ts": 10,
  "resources/flag.test.ts": 10,
  "resources/feature-flag-transport.test.ts": 10,
  "actions/sdk.test.ts": 10,
  "resources/drift-hostile.test.ts": 9,
  "functions/script.test.ts": 9,
  "cli/out-file.test.ts": 8,
  "harness.test.ts": 8,
  "emulator/cli.test.ts": 8,
};

module.exports = longestFirst(ESTIMATES);
