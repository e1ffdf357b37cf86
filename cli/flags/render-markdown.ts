/**
 * flags-report.md: the flag hygiene report as a pipeline's summary (GitHub's step summary): the summary table, the
 * removal candidates with their plans (the value to hard-code and the references to change, the resources to delete
 * in order), each application's flags with their status per environment, and what could not be read. Long tables
 * fold into <details>; past the bounds, what is left out is counted and found in flags-report.json.
 *
 * Server text and source lines stay data: every name, value, reason, path and context line goes through md()
 * (../report/markdown.ts: printable, Markdown punctuation escaped), as the drift report's do. The same report always
 * gives the same text.
 */
import { count, document, list, md, table } from "../report/markdown";
import { noun } from "../report/noun";
import type { ApplicationReport, Candidate, FlagEnvironment, FlagReport, FlagsReport, ReportError } from "./report";

/** Candidates whose plan is written out; the rest are rows of the candidates' table. */
const MAX_PLANS = 50;
/** Flag rows in all the applications' tables together. */
const MAX_FLAG_ROWS = 1000;
/** References shown per plan. */
const MAX_PLAN_REFERENCES = 30;
const VALUE_CHARS = 120;

const ICON: Record<FlagReport["verdict"], string> = { keep: "🟢", "remove-from-code": "✂️", "remove-from-iac": "🗑️", unknown: "❔" };

export function renderFlagsMarkdown(report: FlagsReport): string {
  const o = report.options;
  const lines: string[] = ["## Flag hygiene report", ""];
  const critical = o.critical.length ? o.critical.map((e) => md(e, 80)).join(", ") : "every environment";
  lines.push(
    `As of ${md(report.asOf, 40)} · run of ${md(report.generatedAt, 40)} by pulumi-cloudbees ${md(report.toolVersion, 40)} · N = ${count(o.staleDays)} days · critical: ${critical}` +
      (o.roxy.length ? ` · roxy: ${o.roxy.map((e) => md(e, 80)).join(", ")}` : ""),
    "",
  );
  lines.push(...summaryTable(report), "");
  lines.push("### Removal candidates", "");
  if (report.candidates.length === 0) lines.push("None: nothing to remove.", "");
  else lines.push(...candidatesTable(report.candidates), "", ...plans(report), "");
  lines.push("### Flags", "");
  let budget = MAX_FLAG_ROWS;
  for (const app of report.applications) {
    const { text, rows } = applicationSection(app, budget);
    budget -= rows;
    lines.push(...text, "");
  }
  if (report.errors.length > 0) lines.push("### Not read", "", ...list(report.errors.map(errorLine), "more errors"), "");
  return document(lines);
}

function summaryTable(report: FlagsReport): string[] {
  const s = report.summary;
  return [
    "| Applications | Environments | Flags | Keep | Remove from code | Remove from IaC | Unknown | New candidates | Code references | Declarations | Errors | Requests |",
    "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    `| ${[s.applications, s.environments, s.flags, s.keep, s.removeFromCode, s.removeFromIac, s.unknown, s.newCandidates, s.codeReferences, s.declarations, s.errors, s.requests].map(count).join(" | ")} |`,
  ];
}

function candidatesTable(candidates: Candidate[]): string[] {
  const rows = candidates.map(
    (c) =>
      `| ${md(c.application, 120)} | ${md(c.flag, 200)} | ${ICON[c.verdict] ?? ""} ${md(c.verdict, 40)} | ${c.value !== undefined ? md(JSON.stringify(c.value), VALUE_CHARS) : "—"} | ${c.status === "new" ? "**new**" : `known since ${md(c.firstSeen, 40)}`} |`,
  );
  return table(["| Application | Flag | Verdict | Value to hard-code | Candidate |", "| --- | --- | --- | --- | --- |"], rows, "more candidates");
}

/** Each candidate's plan: why, the steps, the references to change, the resources to delete in order. */
function plans(report: FlagsReport): string[] {
  const out: string[] = [];
  let written = 0;
  for (const app of report.applications) {
    for (const f of app.flags) {
      if (!f.removal) continue;
      if (written++ >= MAX_PLANS) continue;
      out.push(`#### ${ICON[f.verdict] ?? ""} ${md(app.name, 120)} · ${md(f.name, 200)}: ${md(f.verdict, 40)}`, "", md(f.reason, 600), "");
      out.push(...f.removal.steps.map((s, i) => `${i + 1}. ${md(s, 2000)}`), "");
      const refs = f.codeReferences?.references ?? [];
      if (refs.length > 0) {
        const rows = refs.slice(0, MAX_PLAN_REFERENCES).map((r) => {
          const line = r.context?.find((c) => c.line === r.line);
          return `| ${md(`${r.root}/${r.file}`, 200)} | ${count(r.line)} | ${md(r.alias, 120)} | ${line ? md(line.text, 200) : "—"} |`;
        });
        out.push(...table(["| File | Line | Spelling | Source line |", "| --- | ---: | --- | --- |"], rows, "more references"));
        const more = (f.codeReferences?.count ?? 0) - rows.length;
        if (more > 0) out.push("", `${more} more ${noun(more, "reference")} in flags-report.json.`);
        out.push("");
      }
      if (f.removal.resources.length > 0) {
        out.push("Resources to delete, in order:", "");
        out.push(...list(f.removal.resources.map((r, i) => `${i + 1}. ${md(r.kind, 40)} ${md(r.name, 200)} in ${md(r.stack, 200)}${r.sourcePosition ? ` (${md(r.sourcePosition, 200)})` : ""}: ${md(r.urn, 400)}`), "more resources"), "");
      }
    }
  }
  if (written > MAX_PLANS) out.push(`The plans of ${written - MAX_PLANS} more candidates are in flags-report.json.`, "");
  return out;
}

/** An application's environments and a table of its flags (one column per environment), within `budget` rows. */
function applicationSection(app: ApplicationReport, budget: number): { text: string[]; rows: number } {
  const envs = app.environments.map((e) => `${md(e.name, 80)}${e.critical ? " (critical)" : ""}${e.roxy ? " (roxy)" : ""}${e.impressions === "unavailable" ? " (no impressions)" : ""}`);
  const text = [`#### ${md(app.name, 120)}`, "", `Environments: ${envs.join(", ") || "none"}`, ""];
  if (app.flags.length === 0) return { text: [...text, "No flags."], rows: 0 };
  const shown = app.flags.slice(0, Math.max(0, budget));
  const header = [`| Flag | Verdict | ${app.environments.map((e) => md(e.name, 80)).join(" | ")} | Last change | Code references | Declared |`, `| --- | --- | ${app.environments.map(() => "---").join(" | ")} | --- | ---: | --- |`];
  const rows = shown.map((f) => `| ${md(f.name, 200)}${f.isPermanent ? " (permanent)" : ""} | ${ICON[f.verdict] ?? ""} ${md(f.verdict, 40)} | ${f.environments.map(statusCell).join(" | ")} | ${lastChangeCell(f)} | ${f.codeReferences ? count(f.codeReferences.count) : "—"} | ${declaredCell(f)} |`);
  text.push(...table(header, rows, "more flags"));
  if (shown.length < app.flags.length) text.push("", `${app.flags.length - shown.length} more flags left out here; flags-report.json has them.`);
  if (app.otherFlags.length > 0) text.push("", `Impressions of flags the application does not have: ${app.otherFlags.slice(0, 20).map((n) => md(n, 120)).join(", ")}${app.otherFlags.length > 20 ? ` and ${app.otherFlags.length - 20} more` : ""}`);
  return { text, rows: shown.length };
}

function statusCell(e: FlagEnvironment): string {
  const value = e.status === "stale" && e.value !== undefined ? ` ${md(JSON.stringify(e.value), VALUE_CHARS)}` : "";
  const over = e.overThreshold.status !== e.status ? ` (N days: ${md(e.overThreshold.status, 20)})` : "";
  return `${md(e.status, 20)}${value}${over}`;
}

function lastChangeCell(f: FlagReport): string {
  const c = f.lastChange;
  if (c.kind === "changed") return `${md(c.at, 40)}${c.by ? ` by ${md(c.by, 120)}` : ""}`;
  if (c.kind === "unchanged") return `none since ${md(c.since, 40)}`;
  return "unknown";
}

function declaredCell(f: FlagReport): string {
  if (!f.declarations) return "—";
  if (f.declarations.length === 0) return "nowhere";
  const stacks = [...new Set(f.declarations.map((d) => d.stack))];
  return `${f.declarations.length} in ${stacks.slice(0, 3).map((s) => md(s, 120)).join(", ")}${stacks.length > 3 ? ` and ${stacks.length - 3} more` : ""}`;
}

function errorLine(e: ReportError): string {
  const where = [e.application, e.environment, e.stack, e.source].filter((x): x is string => typeof x === "string").map((x) => md(x, 120));
  return `- ${md(e.kind, 20)}${where.length ? ` (${where.join(" · ")})` : ""}: ${md(e.message, 600)}`;
}
