/**
 * drift-report.html: one self-contained page for the newest of the reports given: the summary, a chart of drift over
 * all of them (drift-chart.ts), the causes, a table per stack with filters (page-assets.ts), and what was resolved.
 * Self-contained so that it can be a pipeline's artifact opened from disk: inline style and script, allowed by their
 * hashes in a strict Content Security Policy that also forbids every request (default-src 'none'), and no URL.
 *
 * Server text stays data: what this file writes into HTML is made printable, cut and HTML-escaped (text and quoted
 * attributes alike); the per-stack rows go to the script as JSON in a <script type="application/json">, with every
 * `<` written `\u003c` so that no value can close that element, and the script puts them in with textContent only.
 */
import { countsTable, h, reportPage } from "../report/html";
import { noun } from "../report/noun";
import { seconds, shown, sortedBy, valueText } from "../report/text";
import { checksLine, mixedModes, stackChecks } from "./checks-text";
import { byGeneratedAt, chartRuns, driftChart } from "./drift-chart";
import { PAGE_SCRIPT, PAGE_STYLE } from "./page-assets";
import type { DriftReport, StackReport, StackStatus } from "./report";

/** Path rows the page holds at most: the DOM stays light; drift-report.json has the rest. */
const MAX_PAGE_ROWS = 20000;
const VALUE_CHARS = 300;
const TEXT_CHARS = 500;
/** Causes and resolved paths listed on the page; the rest are counted. */
const MAX_LISTED = 200;
const STATUSES: StackStatus[] = ["clean", "drifted", "error", "locked", "timeout"];

export function renderHtml(reports: DriftReport[]): string {
  if (reports.length === 0) throw new Error("renderHtml needs at least one drift report");
  const runs = chartRuns(reports);
  // The newest run (of equal times, the last given).
  const newest = byGeneratedAt(reports)[reports.length - 1];
  const stacks = sortedBy(newest.stacks, (s) => s.id);
  const shard = newest.shard ? ` · shard ${h(String(newest.shard.index), 10)}/${h(String(newest.shard.count), 10)}` : "";
  const checks = checksLine(newest.stacks);
  return reportPage({
    title: `Drift report ${h(newest.generatedAt, 40)}`,
    style: PAGE_STYLE,
    script: PAGE_SCRIPT,
    dataId: "drift-data",
    data: pageData(stacks),
    body: [
      `<h1>Drift report</h1><p class="muted">Run of ${h(newest.generatedAt, 40)} by pulumi-cloudbees ${h(newest.toolVersion, 40)}${shard}${checks ? ` · ${h(checks)}` : ""}</p>`,
      summaryTable(newest),
      `<h2>Drift over the runs</h2>${driftChart(runs, h)}`,
      causes(newest),
      "<h2>Stacks</h2>",
      filters(),
      '<div id="stacks"></div>',
      resolved(newest),
    ],
  });
}

function summaryTable(report: DriftReport): string {
  const s = report.summary;
  const cells: [string, unknown][] = [
    ["Stacks", s.stacks], ["Clean", s.clean], ["Drifted", s.drifted], ["Error", s.error], ["Locked", s.locked], ["Timeout", s.timeout],
    ["Drifted resources", s.driftedResources], ["Drifted paths", s.driftedPaths], ["New paths", s.newPaths], ["Resolved paths", s.resolvedPaths],
  ];
  return countsTable("summary", cells);
}

function causes(report: DriftReport): string {
  if (report.causes.length === 0) return "";
  const rows = report.causes.slice(0, MAX_LISTED).map(
    (c) =>
      `<tr><td class="num">${h(String(c.count), 20)}</td><td>${h(c.summary)}</td><td class="mono">${h(c.type)}</td><td class="mono">${h(c.path)}</td>` +
      `<td class="mono">${h(valueText(c.actual, VALUE_CHARS))}</td><td>${c.members.slice(0, 5).map((m) => `<div class="mono">${h(m)}</div>`).join("")}${c.members.length > 5 ? `<div class="muted">and ${c.members.length - 5} more</div>` : ""}</td></tr>`,
  );
  return [
    "<h2>Causes</h2>",
    '<table id="causes"><thead><tr><th class="num">Count</th><th>Cause</th><th>Type</th><th>Path</th><th>Actual</th><th>Members</th></tr></thead>',
    `<tbody>${rows.join("")}</tbody></table>`,
    more(report.causes.length, "causes"),
  ].join("");
}

function resolved(report: DriftReport): string {
  if (report.resolved.length === 0) return "";
  const items = report.resolved
    .slice(0, MAX_LISTED)
    .map((r) => `<li><span class="mono">${h(r.stack)}</span> <span class="mono">${h(r.urn)}</span> <span class="mono">${h(r.path)}</span> <span class="muted">drifted since ${h(r.firstSeen, 40)}</span></li>`);
  return `<h2>Resolved since the previous report</h2><ul id="resolved">${items.join("")}</ul>${more(report.resolved.length, "resolved paths")}`;
}

function more(total: number, what: string): string {
  return total > MAX_LISTED ? `<p class="muted">${total - MAX_LISTED} more ${what} in drift-report.json</p>` : "";
}

function filters(): string {
  const options = ["all", ...STATUSES].map((s) => `<option value="${s}">${s}</option>`).join("");
  return [
    '<div id="filters">',
    `<label>Status <select id="f-status">${options}</select></label>`,
    '<label><input type="checkbox" id="f-new"> New drift only</label>',
    '<label>Search <input type="search" id="f-search" placeholder="type, path or URN"></label>',
    '<output id="f-shown"></output>',
    "</div>",
  ].join("");
}

interface PageRow {
  urn: string;
  name: string;
  op: string;
  type: string;
  path: string;
  declared: string;
  actual: string;
  changed: string;
  firstSeen: string;
  isNew: boolean;
}

/** What the script renders, every string already printable and cut: the page stays light whatever the values' size. */
function pageData(stacks: StackReport[]): { stacks: { id: string; status: StackStatus; line: string; rows: PageRow[]; more: string }[] } {
  let budget = MAX_PAGE_ROWS;
  const mixed = mixedModes(stacks);
  return {
    stacks: stacks.map((s) => {
      const rows: PageRow[] = [];
      let leftOut = 0;
      for (const r of s.resources ?? []) {
        leftOut += r.truncatedPaths ?? 0;
        for (const p of r.paths) {
          if (budget <= 0) {
            leftOut += 1;
            continue;
          }
          budget -= 1;
          const changed = [p.changedBy !== undefined ? `by ${shown(p.changedBy, 120)}` : "", p.changedAt !== undefined ? `at ${shown(p.changedAt, 40)}` : ""].filter(Boolean).join(" ");
          rows.push({
            urn: shown(r.urn, TEXT_CHARS), name: shown(r.name, 120), op: shown(r.op, 40), type: shown(r.type, 120), path: shown(p.path, TEXT_CHARS),
            declared: shown(valueText(p.declared, VALUE_CHARS), Infinity), actual: shown(valueText(p.actual, VALUE_CHARS), Infinity),
            changed: changed || "—", firstSeen: shown(p.firstSeen, 40), isNew: p.status === "new",
          });
        }
      }
      const status = STATUSES.includes(s.status) ? s.status : "error";
      return { id: shown(s.id, TEXT_CHARS), status, line: stackLine(s) + stackChecks(s, mixed), rows, more: leftOut > 0 ? `${leftOut} more paths in drift-report.json` : "" };
    }),
  };
}

/** A stack's one line under its name: its counts and time, or why it was not checked (its mode and tries follow). */
function stackLine(s: StackReport): string {
  const counts = s.counts ?? { resources: 0, drifted: 0, paths: 0 };
  if (s.status === "clean") return `${counts.resources} resources · ${seconds(s.durationMs)}`;
  if (s.status === "drifted") return `${counts.paths} ${noun(counts.paths, "path")} in ${counts.drifted} of ${counts.resources} resources · ${seconds(s.durationMs)}`;
  return `${shown(s.error ?? "(no reason given)", TEXT_CHARS)} · ${seconds(s.durationMs)}`;
}
