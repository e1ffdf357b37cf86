/**
 * The real-engine tier's order of test files (jest.pulumi.config.js): the longest first (test/longest-first.js), by
 * the table below where jest has no timings of a previous run (a fresh clone, CI), so that its two workers end
 * together instead of one waiting on a long file that came last (jest's fallback, file size, put the README's and
 * the languages' installs, small files, behind the engine tests, large ones).
 *
 * Seconds per file, relative: measured one to three files at a time (jest --json) on a 2-core machine shared with
 * other work (load 10-12), so several times what each takes alone; only their order and proportions matter here.
 * Files marked ~ were not measured: estimated from what they run (installs, life cycles, CLI commands).
 */
"use strict";
const { longestFirst } = require("./longest-first");

const ESTIMATES = {
  "real-engine/languages.test.ts": 871,
  "testing/engine-steps.test.ts": 509,
  "real-engine/side-by-side.test.ts": 447,
  "real-engine/docs-examples.test.ts": 429, // its Go test at the 240 s timeout under that load: at least this
  "testing/engine-diffs.test.ts": 412,
  "testing/engine-options.test.ts": 322,
  "real-engine/readme.test.ts": 285, // at its 240 s test timeout under that load: at least this
  "real-engine/main-job.test.ts": 262,
  "real-engine/language-hosts.test.ts": 200, // ~
  "real-engine/upgrade.test.ts": 180,
  "readings/life-cycles.test.ts": 150, // ~ npm test measured 34 s on a fresh clone, on the stand-in
  "real-engine/plugin-providers.test.ts": 150, // ~
  "package/consumer.test.ts": 128,
  "real-engine/controller-drift.test.ts": 150, // ~ 110 s alone: a dozen CLI commands, a plugin install
  "real-engine/import.test.ts": 102,
  "real-engine/language-hosts-sdk.test.ts": 89,
  "real-engine/example-controllers.test.ts": 60, // ~ one life cycle each
  "real-engine/example-flags.test.ts": 60,
  "real-engine/example-pipeline.test.ts": 60,
  "real-engine/example-program.test.ts": 60,
  "real-engine/example-promotion.test.ts": 60,
  "real-engine/loopback-only.test.ts": 20, // ~
  // ~ measured alone on the 2-core machine (87 s, 44 s, under 1 s), times about 2.5 for the load of a tier run
  "real-engine/installation-doc.test.ts": 220,
  "real-engine/importing-doc.test.ts": 110,
  "real-engine/drift-workflow.test.ts": 3,
  // ~ alone: 150 s (the release made in beforeAll, then four installs), 50 s, 45 s, under 1 s; times 2.5
  "real-engine/release-install.test.ts": 375,
  "real-engine/policy.test.ts": 125,
  "real-engine/policy-plugin.test.ts": 110,
  "real-engine/release-workflow.test.ts": 3,
};

module.exports = longestFirst(ESTIMATES);
