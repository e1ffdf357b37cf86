/**
 * `pulumi-cloudbees drift` and `drift merge`: run the stacks in a bounded pool, write drift-report.json, answer the
 * exit code (report.ts EXIT).
 */
import * as path from "node:path";
import { argumentsOf, commandVoice } from "../options";
import { readJsonReport, toolVersion, writeReportFiles } from "../report/files";
import { noun } from "../report/noun";
import { inPool } from "../report/pool";
import { Progress, type ProgressItem, type ProgressWords } from "../report/progress";
import { answersVersion, noPulumiMessage } from "../stacks/run-pulumi";
import { DRIFT_USAGE, parseDriftArgs, type DriftArgs } from "./args";
import { assembleReport, exitCodeOf } from "./assemble";
import { EXIT, REPORT_SCHEMA_VERSION, type DriftReport, type StackReport } from "./report";
import { renderHtml } from "./render-html";
import { renderMarkdown } from "./render-markdown";
import { checkStack } from "./run-stack";
export { REPORT_SCHEMA } from "./schema";
import { mergeReports, shardOf } from "./shard";

export const REPORT_FILE = "drift-report.json";
/** For a pipeline's summary (GitHub's step summary) and for a person: render-markdown.ts, render-html.ts. */
export const MARKDOWN_FILE = "drift-report.md";
export const PAGE_FILE = "drift-report.html";

/** Runs the command; resolves with its exit code. Messages go to `err`. */
export async function driftCommand(argv: string[], err: NodeJS.WriteStream = process.stderr): Promise<number> {
  const say = commandVoice("drift", err);
  const parsed = argumentsOf(argv, parseDriftArgs, DRIFT_USAGE, say);
  if (parsed === "bad") return EXIT.couldNotRun;
  if (parsed.kind === "help") return EXIT.clean;
  if (parsed.kind === "merge") {
    let merged: DriftReport;
    try {
      merged = mergeReports(parsed.reports.map((f) => readReport(f)));
    } catch (e) {
      say((e as Error).message);
      return EXIT.couldNotRun;
    }
    await writeReport(parsed.out, merged);
    say(`merged ${parsed.reports.length} reports into ${path.join(parsed.out, REPORT_FILE)}`);
    return exitCodeOf(merged, parsed.failOn);
  }
  return runDrift(parsed.args, say, err);
}

async function runDrift(a: DriftArgs, say: (text: string) => void, err: NodeJS.WriteStream): Promise<number> {
  // Without a CLI nothing can run: said once, exit "could not run", rather than every stack in error.
  if (!answersVersion(a.pulumi)) {
    say(noPulumiMessage(a.pulumi));
    return EXIT.couldNotRun;
  }
  const generatedAt = new Date().toISOString();
  let previous: DriftReport | undefined;
  if (a.previous !== undefined) {
    try {
      previous = readReport(a.previous);
    } catch (e) {
      // The current report is never lost to a bad previous one: all drift counts as new.
      say(`warning: ${(e as Error).message}; every drifted path counts as new`);
    }
  }
  const stacks = shardOf(a.stacks, a.shard);
  const progress = new Progress(stacks.length, DRIFT_PROGRESS, err);
  const results = await inPool(stacks, a.concurrency, async (t) => {
    const r = await checkStack(t, { pulumi: a.pulumi, timeoutMs: a.timeoutMs, mode: a.mode, retries: a.retries, retryPauseMs: a.retryPauseMs });
    progress.itemDone(progressItem(r));
    return r;
  });
  const report = assembleReport(results, { generatedAt, toolVersion: toolVersion(), ...(previous ? { previous } : {}), ...(a.shard ? { shard: a.shard } : {}) });
  await writeReport(a.out, report, previous);
  const s = report.summary;
  say(
    `${s.stacks} stacks: ${s.clean} clean, ${s.drifted} drifted (${s.driftedPaths} ${noun(s.driftedPaths, "path")}, ${s.newPaths} new, ${s.resolvedPaths} resolved), ` +
      `${s.error} error, ${s.locked} locked, ${s.timeout} timeout; wrote ${path.join(a.out, REPORT_FILE)}, ${MARKDOWN_FILE} and ${PAGE_FILE}`,
  );
  return exitCodeOf(report, a.failOn);
}

/** A report written by this command (its schema version), or an Error naming the file and what is wrong. */
export function readReport(file: string): DriftReport {
  return readJsonReport<DriftReport>(file, `a drift-report.json of schema version ${REPORT_SCHEMA_VERSION}`, (doc) => {
    const r = doc as Partial<DriftReport>;
    return r.schemaVersion === REPORT_SCHEMA_VERSION && Array.isArray(r.stacks) && Array.isArray(r.resolved) && typeof r.generatedAt === "string";
  });
}

/** How the drift command's progress says itself. */
export const DRIFT_PROGRESS: ProgressWords = { command: "drift", items: "stacks", verb: "checked", flagged: "drifted" };

/** A stack's line of progress: its status, its paths when drifted, its tries past one. */
export function progressItem(s: StackReport): ProgressItem {
  const drifted = s.status === "drifted";
  const detail = [drifted ? `${s.counts.paths} ${noun(s.counts.paths, "path")}` : "", (s.tries ?? 1) > 1 ? `${s.tries} tries` : ""].filter(Boolean).join(", ");
  return { id: s.id, status: s.status, flagged: drifted, durationMs: s.durationMs, ...(detail ? { detail } : {}) };
}

/** Two-space JSON, a clean stack on one line: a report of many stacks diffs cleanly in Git and stays short. */
export function reportText(report: DriftReport): string {
  const text = JSON.stringify(report, null, 2);
  return `${text.replace(/\{\n\s+"id": [^{}[\]]*?"status": "clean",[^{}[\]]*?"counts": \{[^{}]*\}\n\s+\}/g, (m) => m.replace(/\s*\n\s*/g, " "))}\n`;
}

/**
 * The report, its Markdown and its page (with the previous run, for the page's chart), each replacing what is there
 * and never written through a link (safe-write.ts).
 */
async function writeReport(folder: string, report: DriftReport, previous?: DriftReport): Promise<void> {
  await writeReportFiles(folder, [
    [REPORT_FILE, reportText(report)],
    [MARKDOWN_FILE, renderMarkdown(report)],
    [PAGE_FILE, renderHtml(previous ? [previous, report] : [report])],
  ]);
}
