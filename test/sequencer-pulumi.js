/**
 * The real-engine tier's order of test files (jest.pulumi.config.js): the longest first (test/longest-first.js), by
 * the table below where jest has no timings of a previous run (a fresh clone, CI), so that its two workers end
 * together instead of one waiting on a long file that came last (jest's fallback, file size, says little where a
 * file's time goes to the CLI, installs and builds).
 *
 * Seconds of CPU per file: the file's own process and every process it started and waited for (the CLI, language
 * hosts, programs, provider hosts, pip, go, npm), read from /proc at its start and end, in one whole tier run on the
 * 2-core machine (2026-11-28). The tier keeps both cores busy (vmstat: 2-6 % idle), so CPU is what the files share,
 * and a file's CPU, unlike its wall time, hardly depends on what runs beside it. Their sum, 1,744 s, is about 14.5
 * minutes on two cores. test/tier-order.test.ts fails when a tier file has no entry here, or an entry no file.
 */
"use strict";
const { longestFirst } = require("./longest-first");

const ESTIMATES = {
  // Measured alone (user+sys of /usr/bin/time, 2026-11-29): the life cycles on the stand-in, the drift report on the
  // real CLI (166 when the real CLI ran the life cycles too). This one, readings/life-cycles and the five example
  // files since the stand-in hands a host to the next deployment (fifth session): scaled by their wall times, the
  // seven together 368 CPU-s measured against 431 in this table before.
  "real-engine/main-job.test.ts": 44,
  // Measured alone (user+sys of /usr/bin/time, 82-87 over four runs): five stacks' drift checked four times over,
  // and the Node.js project of the packed package built in it (19 of them; shared in a whole tier run). Since then a
  // sixth stack, in Python (a virtualenv, an up, a preview per run): +20, estimated.
  "real-engine/drift-command.test.ts": 105,
  // The three engine files, since the program they run is JavaScript (2026-11-29, alone: steps 98 -> 74; diffs and
  // options 139 together, shared by their wall times).
  "testing/engine-options.test.ts": 75,
  "testing/engine-steps.test.ts": 74,
  "real-engine/release-install.test.ts": 99,
  // Its Python examples in one Python process since 2026-11-29: -7, measured alone.
  "real-engine/docs-examples.test.ts": 84,
  "testing/engine-diffs.test.ts": 64,
  "real-engine/language-hosts.test.ts": 74,
  "real-engine/readme.test.ts": 71,
  "readings/life-cycles.test.ts": 46,
  "real-engine/example-pipeline.test.ts": 60,
  "real-engine/language-go.test.ts": 65,
  "real-engine/language-typescript.test.ts": 62,
  "real-engine/example-flags.test.ts": 55,
  "real-engine/example-program.test.ts": 53,
  "real-engine/language-python.test.ts": 59,
  "real-engine/controller-drift.test.ts": 58,
  "real-engine/example-promotion.test.ts": 48,
  "real-engine/example-controllers.test.ts": 44,
  "package/consumer.test.ts": 46,
  "real-engine/import.test.ts": 42,
  // Measured alone (user+sys of /usr/bin/time) when it gained a user's own pack (one preview more).
  "real-engine/policy.test.ts": 37,
  "real-engine/installation-doc.test.ts": 34,
  "real-engine/language-python-floor.test.ts": 29,
  "real-engine/language-go-floor.test.ts": 28,
  "real-engine/language-typescript-floor.test.ts": 27,
  "real-engine/language-yaml.test.ts": 27,
  "real-engine/upgrade.test.ts": 27,
  "real-engine/language-dynamic.test.ts": 23,
  "real-engine/language-hosts-sdk.test.ts": 19,
  "real-engine/importing-doc.test.ts": 18,
  // Measured alone (user+sys of /usr/bin/time, 2026-12-05): two stacks' up and the flags command's stack exports, the
  // Node.js project of the packed package already built (shared in a whole tier run).
  "real-engine/flags-command.test.ts": 15,
  "real-engine/plugin-providers.test.ts": 13,
  "real-engine/policy-plugin.test.ts": 12,
  // Measured alone (user+sys of /usr/bin/time, chromium included): the drift page in Debian's chromium.
  "real-engine/drift-page.test.ts": 5,
  // Estimated like drift-page (chromium, one page) plus the emulator and an in-process flags run; measured below.
  "real-engine/flags-page.test.ts": 5,
  "real-engine/drift-workflow.test.ts": 1,
  "real-engine/loopback-only.test.ts": 1,
  "real-engine/release-workflow.test.ts": 1,
};

module.exports = longestFirst(ESTIMATES);
module.exports.ESTIMATES = ESTIMATES;
