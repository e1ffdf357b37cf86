/**
 * The report from the stacks' results: stable order (stacks by id, resources by URN, paths by path), history from
 * the previous report, causes, the summary; and the command's exit code from it.
 */
import { groupCauses } from "./causes";
import { cmp } from "../report/text";
import { applyHistory } from "./history";
import { EXIT, REPORT_SCHEMA_VERSION, type DriftReport, type ReportSummary, type StackReport } from "./report";

export interface AssembleOptions {
  generatedAt: string;
  toolVersion: string;
  previous?: DriftReport;
  shard?: { index: number; count: number };
}

export function assembleReport(stacks: StackReport[], o: AssembleOptions): DriftReport {
  const sorted = [...stacks].sort((a, b) => cmp(a.id, b.id));
  for (const s of sorted) s.resources?.sort((a, b) => cmp(a.urn, b.urn));
  const resolved = applyHistory(sorted, o.previous, o.generatedAt);
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    generatedAt: o.generatedAt,
    toolVersion: o.toolVersion,
    ...(o.shard ? { shard: o.shard } : {}),
    summary: summaryOf(sorted, resolved.length),
    stacks: sorted,
    causes: groupCauses(sorted),
    resolved,
  };
}

function summaryOf(stacks: StackReport[], resolvedPaths: number): ReportSummary {
  const count = (status: StackReport["status"]) => stacks.filter((s) => s.status === status).length;
  const paths = stacks.flatMap((s) => (s.resources ?? []).flatMap((r) => r.paths));
  return {
    stacks: stacks.length,
    clean: count("clean"),
    drifted: count("drifted"),
    error: count("error"),
    locked: count("locked"),
    timeout: count("timeout"),
    driftedResources: stacks.reduce((n, s) => n + (s.resources?.length ?? 0), 0),
    driftedPaths: paths.length,
    newPaths: paths.filter((p) => p.status === "new").length,
    resolvedPaths,
  };
}

/** Drift over partial: a pipeline acts on drift first. With failOn "new", known drift alone passes. */
export function exitCodeOf(report: DriftReport, failOn: "any" | "new"): number {
  const drift = failOn === "new" ? report.summary.newPaths > 0 : report.summary.driftedPaths > 0 || report.summary.drifted > 0;
  if (drift) return EXIT.drift;
  if (report.summary.error + report.summary.locked + report.summary.timeout > 0) return EXIT.partial;
  return EXIT.clean;
}
