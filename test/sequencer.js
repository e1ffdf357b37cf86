/**
 * `npm test`'s order of test files: the longest first (test/longest-first.js), by the table below where jest has no
 * timings of a previous run (a fresh clone, CI).
 */
"use strict";
const { longestFirst } = require("./longest-first");

/**
 * Files that take much longer than their size says (child processes, provider hosts, rate-limited requests):
 * seconds measured with `npm test` on a fresh clone on a 2-core machine.
 */
const ESTIMATES = {
  "package/consumer.test.ts": 49,
  "docs/code-blocks.test.ts": 6,
  "cli/import.test.ts": 32,
  "cli/import-hostile.test.ts": 12,
  "readings/life-cycles.test.ts": 34,
  "failures/soak.test.ts": 29,
  "program-runner.test.ts": 27,
  "resources/feature-flag-lists.test.ts": 25,
  "controllers/controller-configuration.test.ts": 22,
  "testing/host-preload.test.ts": 15,
  "resources/bundle-list-sharing.test.ts": 12,
  "example-pipeline.test.ts": 12,
  "resources/bundle-availability.test.ts": 10,
  "example-program.test.ts": 10,
  "testing/drift-job.test.ts": 10,
  "testing/engine-options.test.ts": 14,
  "testing/engine-diffs.test.ts": 11,
  "testing/engine-steps.test.ts": 10,
  "testing/rox-program.test.ts": 9,
  "resources/controller-bundle-assignment.test.ts": 8,
  "example-promotion.test.ts": 8,
  "resources/default-bundle-and-global-pattern.test.ts": 8,
  "resources/real-experiments-program.test.ts": 10,
  "resources/flag-configuration.test.ts": 7,
  "failures/reconcile.test.ts": 7,
  "functions/functions.test.ts": 7,
  "resources/application.test.ts": 6,
  "resources/flag.test.ts": 6,
  "resources/environment-and-target-group.test.ts": 6,
  "resources/drift-attribution.test.ts": 6,
  "resources/team-member.test.ts": 6,
  "resources/drift-hostile.test.ts": 5,
  "cli/out-file.test.ts": 5,
};

module.exports = longestFirst(ESTIMATES);
