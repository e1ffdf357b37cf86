/**
 * drift-report.md: the drift report as a pipeline's summary (GitHub's step summary, `$GITHUB_STEP_SUMMARY`): the
 * summary table, the causes, then each stack (a clean one is one line; a drifted one a table of its paths, declared →
 * actual, who and when, new or known). Long lists fold into <details>, and the whole stays far below the 1 MiB that a
 * step summary takes: what is left out is counted and found in drift-report.json.
 *
 * Server text stays data: every path, value, name and error is made printable (no line break, control character or
 * CI command) and its Markdown punctuation backslash-escaped (../report/markdown.ts), so no value ends a table cell, opens a
 * code span, link or HTML tag, or starts a line. The same report always gives the same text.
 */
import { count, document, list, md, table } from "../report/markdown";
import { noun } from "../report/noun";
import { seconds, sortedBy, valueText } from "../report/text";
import { checksLine, mixedModes, stackChecks } from "./checks-text";
import type { Cause, DriftedResource, DriftReport, ResolvedPath, StackReport, StackStatus } from "./report";

/** Path rows shown per stack, and in the whole summary: 1,000 rows of ≤ 2 values stay well under 1 MiB. */
const MAX_ROWS_PER_STACK = 100;
const MAX_ROWS = 1000;
/** Characters of a value shown; the full value is in drift-report.json. */
const VALUE_CHARS = 200;

const ICON: Record<StackStatus, string> = { clean: "🟢", drifted: "🟠", error: "🔴", locked: "🔒", timeout: "⏱️" };

export function renderMarkdown(report: DriftReport): string {
  const lines: string[] = ["## Drift report", ""];
  const shard = report.shard ? ` · shard ${report.shard.index}/${report.shard.count}` : "";
  const checks = checksLine(report.stacks);
  lines.push(`Run of ${md(report.generatedAt)} by pulumi-cloudbees ${md(report.toolVersion)}${shard}${checks ? ` · ${checks}` : ""}`, "");
  lines.push(...summaryTable(report), "");
  if (report.causes.length > 0) lines.push("### Causes", "", ...causesTable(report.causes), "");
  lines.push("### Stacks", "", ...stackSections(sortedBy(report.stacks, (s) => s.id), mixedModes(report.stacks)));
  if (report.resolved.length > 0) lines.push("### Resolved since the previous report", "", ...resolvedList(report.resolved), "");
  return document(lines);
}

function summaryTable(report: DriftReport): string[] {
  const s = report.summary;
  return [
    "| Stacks | Clean | Drifted | Error | Locked | Timeout | Drifted resources | Drifted paths | New paths | Resolved paths |",
    "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    `| ${[s.stacks, s.clean, s.drifted, s.error, s.locked, s.timeout, s.driftedResources, s.driftedPaths, s.newPaths, s.resolvedPaths].map(count).join(" | ")} |`,
  ];
}

function causesTable(causes: Cause[]): string[] {
  const rows = causes.map((c) => `| ${count(c.count)} | ${md(c.summary)} | ${md(c.type)} | ${md(c.path)} | ${md(valueText(c.actual, VALUE_CHARS))} | ${members(c.members)} |`);
  return table(["| Count | Cause | Type | Path | Actual | Members |", "| ---: | --- | --- | --- | --- | --- |"], rows, "more causes");
}

/** The first members of a cause by stack and resource name (`<stack id> <urn>` → `stack id: name`), then how many more. */
function members(list: string[]): string {
  const named = list.slice(0, 3).map((m) => {
    const space = m.indexOf(" ");
    const urn = space < 0 ? m : m.slice(space + 1);
    return md(space < 0 ? m : `${m.slice(0, space)}: ${urn.slice(urn.lastIndexOf("::") + 2)}`, 120);
  });
  return named.join(", ") + (list.length > 3 ? ` and ${list.length - 3} more` : "");
}

function stackSections(stacks: StackReport[], mixed: boolean): string[] {
  const oneLine = (s: StackReport) => stackLine(s, mixed);
  const out: string[] = [];
  let budget = MAX_ROWS;
  const leftOut: StackReport[] = [];
  for (const stack of stacks.filter((s) => s.status === "drifted")) {
    if (budget <= 0) {
      leftOut.push(stack);
      continue;
    }
    const { lines, rows } = driftedStack(stack, budget, mixed);
    budget -= rows;
    out.push(...lines, "");
  }
  if (leftOut.length > 0) {
    out.push(`Details of ${leftOut.length} more drifted stacks left out (the summary's size); drift-report.json has them all:`, "");
    out.push(...list(leftOut.map((s) => oneLine(s)), "more drifted stacks"), "");
  }
  // Each list under its own heading: two lists with only a blank line between would read as one.
  const failed = stacks.filter((s) => s.status !== "drifted" && s.status !== "clean");
  if (failed.length > 0) out.push("#### Not checked", "", ...list(failed.map(oneLine), "more stacks not checked"), "");
  const clean = stacks.filter((s) => s.status === "clean");
  if (clean.length > 0) out.push("#### Clean", "", ...list(clean.map(oneLine), "more clean stacks"), "");
  return out;
}

/** A stack on one line: clean (its resource count), drifted (its counts), or not checked (why); its mode and tries. */
function stackLine(stack: StackReport, mixed: boolean): string {
  const head = `- ${ICON[stack.status] ?? ""} ${md(stack.id)}: ${md(stack.status, 20)}`;
  const tail = `${seconds(stack.durationMs)}${stackChecks(stack, mixed)}`;
  if (stack.status === "clean") return `${head} · ${count(stack.counts?.resources)} resources · ${tail}`;
  if (stack.status === "drifted") return `${head} · ${countsText(stack)} · ${tail}`;
  return `${head}: ${md(stack.error ?? "(no reason given)")} · ${tail}`;
}

function countsText(stack: StackReport): string {
  const paths = stack.counts?.paths;
  return `${count(paths)} ${noun(paths, "path")} in ${count(stack.counts?.drifted)} of ${count(stack.counts?.resources)} resources`;
}

/** A drifted stack's heading and table of paths, at most `budget` rows (and MAX_ROWS_PER_STACK). */
function driftedStack(stack: StackReport, budget: number, mixed: boolean): { lines: string[]; rows: number } {
  const room = Math.min(budget, MAX_ROWS_PER_STACK);
  const rows: string[] = [];
  const notes: string[] = [];
  let leftOut = 0;
  for (const resource of stack.resources ?? []) {
    resource.paths.forEach((p, i) => {
      if (rows.length >= room) return void (leftOut += 1);
      const who = [p.changedBy !== undefined ? `by ${md(p.changedBy, 120)}` : "", p.changedAt !== undefined ? `at ${md(p.changedAt, 40)}` : ""].filter(Boolean).join(" ");
      const drift = p.status === "new" ? "**new**" : `known since ${md(p.firstSeen, 40)}`;
      const change = `${md(valueText(p.declared, VALUE_CHARS))} → ${md(valueText(p.actual, VALUE_CHARS))}`;
      rows.push(`| ${i === 0 ? resourceCell(resource) : "〃"} | ${md(p.path)} | ${change} | ${who || "—"} | ${drift} |`);
    });
    leftOut += resource.truncatedPaths ?? 0;
    for (const note of resource.notes ?? []) notes.push(`- ${md(resource.name, 120)}: ${md(note)}`);
  }
  const header = ["| Resource | Path | Declared → actual | Changed | Drift |", "| --- | --- | --- | --- | --- |"];
  const lines = [`#### ${ICON.drifted} ${md(stack.id)}: drifted`, "", `${countsText(stack)} · ${seconds(stack.durationMs)}${stackChecks(stack, mixed)}`, ""];
  lines.push(...table(header, rows, "more paths"));
  if (leftOut > 0) lines.push("", `${leftOut} more paths left out here; drift-report.json has them.`);
  if (notes.length > 0) lines.push("", "Providers' notes:", "", ...list(notes, "more notes"));
  return { lines, rows: rows.length };
}

function resourceCell(r: DriftedResource): string {
  return `${md(r.name, 120)} (${md(r.op, 40)} · ${md(r.type, 120)})`;
}

function resolvedList(resolved: ResolvedPath[]): string[] {
  const lines = resolved.map((r) => `- ${md(r.stack)}: ${md(r.urn.slice(r.urn.lastIndexOf("::") + 2), 120)} ${md(r.path)} (drifted since ${md(r.firstSeen, 40)})`);
  return list(lines, "more resolved paths");
}
