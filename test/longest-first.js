/**
 * A jest test sequencer that runs the longest test files first, so that a run does not end waiting on one of them.
 * jest's own order does this only from the timings of a previous run, which a fresh clone, and so CI, does not have:
 * it then goes by file size, which says little where a file's time goes to child processes (provider hosts, the
 * Pulumi CLI, installs). `longestFirst(estimates)` makes one for a table of seconds per file (paths relative to
 * test/): test/sequencer.js for `npm test`, test/sequencer-pulumi.js for the real-engine tier.
 *
 * Per file: a failure in the last run first, as jest does; then the longest first, by the last run's time when
 * there is one, else by the table, else by file size (about 10 KB of test per second).
 */
"use strict";
const path = require("node:path");
const Sequencer = require("@jest/test-sequencer").default;

/** @param {Record<string, number>} estimates seconds per test file, its path relative to test/ with `/` */
function longestFirst(estimates) {
  return class LongestFirst extends Sequencer {
    sort(tests) {
      const seconds = (test) => {
        const measured = this.time(test);
        if (measured != null) return measured / 1000;
        const key = path.relative(path.join(test.context.config.rootDir, "test"), test.path).split(path.sep).join("/");
        return estimates[key] ?? (test.context.hasteFS.getSize(test.path) ?? 0) / 10_000;
      };
      const keyed = tests.map((test) => ({ test, failed: this.hasFailed(test), seconds: seconds(test) }));
      keyed.sort((a, b) => (a.failed !== b.failed ? (a.failed ? -1 : 1) : b.seconds - a.seconds));
      return keyed.map((k) => k.test);
    }
  };
}

module.exports = { longestFirst };
