/**
 * flags-report.html: the flag hygiene report (flags-report.json, its one source) as a self-contained page: the run and
 * its counts, filters (verdict, application, environment, text), and one table of every flag with its verdict, its
 * status per environment, a chart of its impressions per value and day over the threshold's N days (from the report's
 * `daily`), and a candidate's removal plan; then what could not be read. The drift page's conventions
 * (cli/drift/render-html.ts): inline style and script allowed by their hashes in a Content Security Policy that
 * forbids every request (../report/html.ts), no URL, so that it can be a pipeline's artifact opened from disk.
 *
 * Server text and source lines stay data: what this file writes into HTML is printable, cut and HTML-escaped; the
 * flags go to the script as JSON in a <script type="application/json"> (no `<` in it), every string already
 * printable and cut, and the script (page-assets.ts) puts them in with textContent only.
 */
import { countsTable, h, reportPage } from "../report/html";
import { noun } from "../report/noun";
import { shown } from "../report/text";
import { FLAGS_PAGE_SCRIPT, FLAGS_PAGE_STYLE } from "./page-assets";
import type { FlagReport, FlagsReport, ReportError } from "./report";

/** Flag rows the page holds at most (the DOM stays light); flags-report.json has the rest. */
const MAX_PAGE_FLAGS = 5000;
/** Code references listed in a plan; the count says how many there are. */
const MAX_PLAN_REFERENCES = 10;
const MAX_ERRORS = 200;
const TEXT_CHARS = 500;
const NAME_CHARS = 200;
const VALUE_CHARS = 120;
const DAY_MS = 86_400_000;

const VERDICTS: FlagReport["verdict"][] = ["keep", "remove-from-code", "remove-from-iac", "unknown"];

export function renderFlagsHtml(report: FlagsReport): string {
  const o = report.options;
  const critical = o.critical.length ? o.critical.map((e) => h(e, 80)).join(", ") : "every environment";
  const roxy = o.roxy.length ? ` · roxy: ${o.roxy.map((e) => h(e, 80)).join(", ")}` : "";
  const sources = o.sources.length === 1 ? ` · source: ${h(o.sources[0], NAME_CHARS)}` : "";
  const data = pageData(report);
  return reportPage({
    title: `Flag hygiene report ${h(report.asOf, 40)}`,
    style: FLAGS_PAGE_STYLE,
    script: FLAGS_PAGE_SCRIPT,
    dataId: "flags-data",
    data,
    body: [
      "<h1>Flag hygiene report</h1>",
      `<p class="muted">As of ${h(report.asOf, 40)} · run of ${h(report.generatedAt, 40)} by pulumi-cloudbees ${h(report.toolVersion, 40)} · N = ${h(String(o.staleDays), 10)} days · critical: ${critical}${roxy}${sources}</p>`,
      summaryTable(report),
      "<h2>Flags</h2>",
      filters(data),
      // The charts are drawn by the script; this empty one only lends it SVG's namespace (no URL written in the page).
      '<svg id="svg-ns" hidden></svg>',
      '<table id="flags"><thead><tr><th>Application</th><th>Flag</th><th>Verdict</th><th>Status per environment</th>' +
        `<th>Impressions per day over ${h(String(o.staleDays), 10)} days</th><th>Removal plan</th></tr></thead><tbody></tbody></table>`,
      data.more ? `<p class="muted">${h(data.more)}</p>` : "",
      errors(report.errors),
    ],
  });
}

function summaryTable(report: FlagsReport): string {
  const s = report.summary;
  const cells: [string, unknown][] = [
    ["Applications", s.applications], ["Environments", s.environments], ["Flags", s.flags], ["Keep", s.keep], ["Remove from code", s.removeFromCode],
    ["Remove from IaC", s.removeFromIac], ["Unknown", s.unknown], ["New candidates", s.newCandidates], ["Code references", s.codeReferences],
    ["Declarations", s.declarations], ["Errors", s.errors], ["Requests", s.requests],
  ];
  return countsTable("summary", cells);
}

function filters(data: PageData): string {
  const option = (v: string, label = v) => `<option value="${h(v, NAME_CHARS)}">${h(label, NAME_CHARS)}</option>`;
  return [
    '<div id="filters">',
    `<label>Verdict <select id="f-verdict">${option("all")}${option("candidates", "removal candidates")}${VERDICTS.map((v) => option(v)).join("")}</select></label>`,
    `<label>Application <select id="f-application">${option("all")}${data.applications.map((a) => option(a)).join("")}</select></label>`,
    `<label>Environment <select id="f-environment">${option("all")}${data.environments.map((e) => option(e)).join("")}</select></label>`,
    '<label>Search <input type="search" id="f-search" placeholder="flag, reason, value or file"></label>',
    '<output id="f-shown"></output>',
    "</div>",
  ].join("");
}

function errors(list: ReportError[]): string {
  if (list.length === 0) return "";
  const items = list.slice(0, MAX_ERRORS).map((e) => {
    const where = [e.application, e.environment, e.stack, e.source].filter((x): x is string => typeof x === "string").map((x) => h(x, 120));
    return `<li><span class="mono">${h(e.kind, 20)}</span>${where.length ? ` (${where.join(" · ")})` : ""}: ${h(e.message)}</li>`;
  });
  const more = list.length > MAX_ERRORS ? `<p class="muted">${list.length - MAX_ERRORS} more in flags-report.json</p>` : "";
  return `<h2>Not read</h2><ul id="errors">${items.join("")}</ul>${more}`;
}

interface PageEnvironment {
  name: string;
  critical: boolean;
  status: string;
  /** The status's one line: its value where stale, the status over N days where it differs. */
  line: string;
  /** Impressions per value, one count per day of PageData.days. */
  series: { value: string; counts: number[] }[];
}

interface PageFlag {
  application: string;
  name: string;
  verdict: string;
  /** "new" or "known since ..." for a candidate. */
  candidate: string;
  reason: string;
  environments: PageEnvironment[];
  plan: string[];
  text: string;
}

interface PageData {
  /** The UTC days of the charts, oldest first: the N days up to asOf. */
  days: string[];
  applications: string[];
  environments: string[];
  flags: PageFlag[];
  more: string;
}

/** The days the report's `daily` covers: the N days ending on asOf's UTC day. */
export function chartDays(asOf: string, staleDays: number): string[] {
  const end = Date.parse(asOf);
  const n = Number.isInteger(staleDays) && staleDays > 0 && staleDays <= 366 ? staleDays : 30;
  if (!Number.isFinite(end)) return [];
  return Array.from({ length: n }, (_, i) => new Date(end - (n - 1 - i) * DAY_MS).toISOString().slice(0, 10));
}

/** What the script renders, every string printable and cut: the page stays light whatever the report holds. */
function pageData(report: FlagsReport): PageData {
  const days = chartDays(report.asOf, report.options.staleDays);
  const dayIndex = new Map(days.map((d, i) => [d, i]));
  const flags: PageFlag[] = [];
  let total = 0;
  for (const app of report.applications) {
    for (const f of app.flags) {
      total += 1;
      if (flags.length >= MAX_PAGE_FLAGS) continue;
      const environments = f.environments.map((e): PageEnvironment => {
        const byValue = new Map<string, number[]>();
        for (const d of e.daily ?? []) {
          const i = dayIndex.get(d.day);
          if (i === undefined || typeof d.count !== "number") continue;
          const value = shown(String(d.value), VALUE_CHARS);
          if (!byValue.has(value)) byValue.set(value, new Array<number>(days.length).fill(0));
          byValue.get(value)![i] += d.count;
        }
        const value = e.status === "stale" && e.value !== undefined ? ` ${shown(JSON.stringify(e.value), VALUE_CHARS)}` : "";
        const over = e.overThreshold?.status !== e.status ? ` (N days: ${shown(String(e.overThreshold?.status), 20)})` : "";
        return {
          name: shown(e.environment, NAME_CHARS),
          critical: e.critical,
          status: shown(e.status, 20),
          line: `${shown(e.status, 20)}${value}${over}`,
          series: [...byValue].map(([v, counts]) => ({ value: v, counts })),
        };
      });
      const plan = planLines(f, report.options.sources.length > 1);
      const candidate = f.candidate ? (f.candidate.status === "new" ? "new" : `known since ${shown(f.candidate.firstSeen, 40)}`) : "";
      const name = shown(f.name, NAME_CHARS) + (f.isPermanent ? " (permanent)" : "");
      const reason = shown(f.reason, TEXT_CHARS);
      flags.push({
        application: shown(app.name, NAME_CHARS),
        name,
        verdict: VERDICTS.includes(f.verdict) ? f.verdict : "unknown",
        candidate,
        reason,
        environments,
        plan,
        text: [app.name, name, reason, f.value ?? "", ...environments.map((e) => e.line), ...plan].join(" ").toLowerCase(),
      });
    }
  }
  const names = (list: string[]) => [...new Set(list)].sort();
  return {
    days,
    applications: names(flags.map((f) => f.application)),
    environments: names(flags.flatMap((f) => f.environments.map((e) => e.name))),
    flags,
    more: total > flags.length ? `${total - flags.length} more ${noun(total - flags.length, "flag")} in flags-report.json` : "",
  };
}

/**
 * A candidate's plan as lines: the value to hard-code, the steps, the references to change (under their --source
 * where there are several: the page's header names the one), the resources to delete in order.
 */
function planLines(f: FlagReport, withRoot: boolean): string[] {
  if (!f.removal) return [];
  const lines: string[] = [];
  if (f.removal.hardCode !== undefined) lines.push(`Hard-code ${shown(JSON.stringify(f.removal.hardCode), VALUE_CHARS)}`);
  f.removal.steps.forEach((s, i) => lines.push(`${i + 1}. ${shown(s, TEXT_CHARS)}`));
  const refs = f.codeReferences?.references ?? [];
  for (const r of refs.slice(0, MAX_PLAN_REFERENCES)) lines.push(`${shown(withRoot ? `${r.root}/${r.file}` : r.file, NAME_CHARS)}:${r.line} ${shown(r.alias, VALUE_CHARS)}`);
  const more = (f.codeReferences?.count ?? 0) - Math.min(refs.length, MAX_PLAN_REFERENCES);
  if (more > 0) lines.push(`${more} more ${noun(more, "reference")} in flags-report.json`);
  f.removal.resources.forEach((r, i) => lines.push(`delete ${i + 1}: ${shown(r.kind, 40)} ${shown(r.name, NAME_CHARS)} in ${shown(r.stack, NAME_CHARS)}${r.sourcePosition ? ` (${shown(r.sourcePosition, NAME_CHARS)})` : ""}`));
  return lines;
}
