/**
 * The drift report of a real run, kept as a fixture (test/fixtures/drift/real-run.json): the one `npm start` writes at
 * its end with the real CLI (examples/main-job.ts: two example stacks, drift made by hand). main-job.test.ts checks
 * that its run's report is this one, and drift-page.test.ts renders it for the docs' screenshot of a real run. Only
 * what changes from run to run is fixed: times (generatedAt, firstSeen, changedAt, and in notes; a controller's local
 * ones too) and durations.
 */
import * as path from "node:path";
import type { DriftReport } from "../../cli/drift/report";

export const REAL_RUN_REPORT = path.join(__dirname, "..", "fixtures", "drift", "real-run.json");

const FIXED_TIME = "2026-11-29T06:00:00";
const FIXED_DURATION_MS = 7000;

/** The report with its times and durations fixed, as the fixture holds it. */
export function normalizedReport(report: DriftReport): DriftReport {
  // A controller's history gives its local time without a zone: "<time> (controller time)".
  const text = JSON.stringify(report).replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z| \(controller time\))/g, (_, fraction: string | undefined, zone: string) => `${FIXED_TIME}${fraction ? ".000" : ""}${zone}`);
  const fixed = JSON.parse(text) as DriftReport;
  for (const stack of fixed.stacks) stack.durationMs = FIXED_DURATION_MS;
  return fixed;
}
