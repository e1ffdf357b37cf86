/**
 * `npm test`'s order of test files: the longest first (test/longest-first.js), by the table below where jest has no
 * timings of a previous run (a fresh clone, CI).
 */
"use strict";
const { longestFirst } = require("./longest-first");

/**
 * Files that take much longer than their size says (child processes, provider hosts, rate-limited requests):
 * seconds each took in one `npm test` on the 2-core machine (2026-11-29, quiet; their proportions are what matter),
 * those of 8 s and more.
 */
const ESTIMATES = {
  // The engine files since their program is JavaScript: 75 CPU-s together before, 61 after (scaled).
  "testing/engine-options.test.ts": 38,
  "testing/engine-diffs.test.ts": 37,
  "testing/engine-steps.test.ts": 33,
  "program-runner.test.ts": 33,
  "cli/import.test.ts": 32,
  "resources/real-experiments-program.test.ts": 30,
  "resources/feature-flag-lists.test.ts": 28,
  "failures/soak.test.ts": 23,
  "testing/drift-job.test.ts": 22,
  "resources/bundle-availability.test.ts": 19,
  "controllers/controller-configuration.test.ts": 19,
  "example-program.test.ts": 18,
  "resources/flag-configuration.test.ts": 17,
  "testing/host-preload.test.ts": 17,
  "example-pipeline.test.ts": 16,
  "resources/sdk.test.ts": 16,
  "resources/bundle-list-sharing.test.ts": 16,
  "resources/team-member.test.ts": 15,
  "cli/import-controllers.test.ts": 14,
  "testing/rox-program.test.ts": 12,
  "plugin/schema.test.ts": 12,
  "resources/drift-attribution.test.ts": 12,
  "plugin/protocol.test.ts": 12,
  "docs/code-blocks.test.ts": 11,
  "resources/controller-bundle-assignment.test.ts": 10,
  "resources/casc-lenient-lists.test.ts": 10,
  "resources/feature-flag-transport.test.ts": 9,
  "emulator/cli.test.ts": 9,
  "resources/environment-and-target-group.test.ts": 9,
  "cli/import-hostile.test.ts": 9,
  "resources/drift-hostile.test.ts": 9,
  "resources/default-bundle-and-global-pattern.test.ts": 8,
  "example-promotion.test.ts": 8,
  "resources/declared-inputs.test.ts": 8,
  "controllers/export-shapes.test.ts": 8,
};

module.exports = longestFirst(ESTIMATES);
