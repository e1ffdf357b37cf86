/**
 * The order of the test files: the longest first, so the run does not end waiting on one of them (jest's own order
 * does this only from the timings of a previous run, which a fresh clone, and so CI, does not have: it then goes by
 * file size, and the package test, short but the longest to run, came last).
 *
 * Per file: a failure in the last run first, as jest does; then the longest first, by the last run's time when
 * there is one, else by ESTIMATES (seconds measured with `npm test` on a fresh clone on a 2-core machine), else by file size.
 */
"use strict";
const path = require("node:path");
const Sequencer = require("@jest/test-sequencer").default;

/** Files that take much longer than their size says: child processes, provider hosts, rate-limited requests. */
const ESTIMATES = {
  "package/consumer.test.ts": 49,
  "docs/code-blocks.test.ts": 6,
  "cli/import.test.ts": 32,
  "cli/import-hostile.test.ts": 12,
  "readings/life-cycles.test.ts": 34,
  "failures/soak.test.ts": 29,
  "program-runner.test.ts": 27,
  "resources/feature-flag-lists.test.ts": 25,
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

class LongestFirst extends Sequencer {
  sort(tests) {
    const seconds = (test) => {
      const measured = this.time(test);
      if (measured != null) return measured / 1000;
      const estimate = ESTIMATES[path.relative(path.join(test.context.config.rootDir, "test"), test.path).split(path.sep).join("/")];
      // About 10 KB of test per second where nothing better is known.
      return estimate ?? (test.context.hasteFS.getSize(test.path) ?? 0) / 10_000;
    };
    const keyed = tests.map((test) => ({ test, failed: this.hasFailed(test), seconds: seconds(test) }));
    keyed.sort((a, b) => (a.failed !== b.failed ? (a.failed ? -1 : 1) : b.seconds - a.seconds));
    return keyed.map((k) => k.test);
  }
}

module.exports = LongestFirst;
