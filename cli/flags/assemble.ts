/**
 * flags-report.json from what was read: per application and flag its statuses (the lexicon's window and the
 * threshold's days), last change, code references and declarations, the verdict (provider/hygiene/verdict.ts) and a
 * candidate's plan; the candidates new or known against the previous report; the summary; and the exit code.
 */
import type { Flag } from "../../provider/clients/feature-flag-types";
import type { CodeReferenceScan } from "../../provider/hygiene/code-references";
import { environmentFlagStatuses, statusWindow, type FlagStatusVerdict } from "../../provider/hygiene/flag-status";
import { flagVerdict, removalOrder, type CodeReferenceCount, type DeclaredResource, type FlagVerdict } from "../../provider/hygiene/verdict";
import { noun } from "../report/noun";
import { cmp, sortedBy } from "../report/text";
import type { Declaration } from "./declarations";
import {
  EXIT,
  FLAGS_REPORT_SCHEMA_VERSION,
  MAX_REFERENCES_PER_FLAG,
  MAX_SKIPPED_LISTED,
  MAX_VALUES_PER_ENVIRONMENT,
  type ApplicationReport,
  type Candidate,
  type CodeReferences,
  type FlagEnvironment,
  type FlagReport,
  type FlagsReport,
  type ReportError,
  type ReportOptions,
  type SourcesReport,
  type StackRead,
} from "./report";
import { lastChangeOf, type ApplicationRead, type EnvironmentRead, type ServiceRead } from "./service";

const DAY_MS = 86_400_000;

export interface AssembleInput {
  generatedAt: string;
  asOf: Date;
  toolVersion: string;
  options: ReportOptions;
  service: ServiceRead;
  /** With --source: the scan, or undefined when none ran. */
  scan?: CodeReferenceScan;
  /** With --stacks: the declarations and each stack's read. */
  stacks?: { stacks: StackRead[]; declarations: Declaration[] };
  previous?: FlagsReport;
  /** Errors found outside the service (sources, stacks, the previous report). */
  errors: ReportError[];
}

export function assembleReport(input: AssembleInput): FlagsReport {
  const { options, asOf } = input;
  const errors: ReportError[] = [...input.service.errors, ...input.errors];
  const codeRefs = codeReferencesOf(input.scan, options.sources);
  const applications = sortedBy(input.service.applications, (a) => `${a.name}\n${a.id}`).map((app) => applicationReport(app, input, codeRefs));
  errors.push(...unknownEnvironments(input.service.applications, options));
  const candidates = candidatesOf(applications, input.previous, input.generatedAt);
  const flags = applications.flatMap((a) => a.flags);
  const count = (v: FlagVerdict["verdict"]) => flags.filter((f) => f.verdict === v).length;
  return {
    schemaVersion: FLAGS_REPORT_SCHEMA_VERSION,
    generatedAt: input.generatedAt,
    asOf: asOf.toISOString(),
    toolVersion: input.toolVersion,
    options,
    summary: {
      applications: applications.length,
      environments: applications.reduce((n, a) => n + a.environments.length, 0),
      flags: flags.length,
      keep: count("keep"),
      removeFromCode: count("remove-from-code"),
      removeFromIac: count("remove-from-iac"),
      unknown: count("unknown"),
      candidates: candidates.length,
      newCandidates: candidates.filter((c) => c.status === "new").length,
      codeReferences: flags.reduce((n, f) => n + (f.codeReferences?.count ?? 0), 0),
      declarations: flags.reduce((n, f) => n + (f.declarations?.length ?? 0), 0),
      errors: errors.length,
      requests: input.service.requests,
    },
    applications,
    candidates,
    ...(input.scan ? { sources: sourcesReport(input.scan, options.sources) } : {}),
    ...(input.stacks ? { stacks: input.stacks.stacks } : {}),
    errors,
  };
}

/** Candidates win over partial: a pipeline acts on them first. With failOn "new", known candidates alone pass. */
export function exitCodeOf(report: FlagsReport, failOn: "any" | "new"): number {
  if ((failOn === "new" ? report.summary.newCandidates : report.summary.candidates) > 0) return EXIT.candidates;
  if (report.errors.length > 0) return EXIT.partial;
  return EXIT.clean;
}

interface CodeReferenceIndex {
  /** Why the counts are not known (no --source, a root missing), or undefined. */
  unknown?: string;
  byFlag: Map<string, CodeReferences>;
}

function codeReferencesOf(scan: CodeReferenceScan | undefined, roots: string[]): CodeReferenceIndex {
  const byFlag = new Map<string, CodeReferences>();
  if (!scan) return { unknown: roots.length ? "the sources could not be scanned" : "no --source given", byFlag };
  const missing = scan.skipped.find((s) => s.reason === "missing-root");
  const files = new Map<string, Set<string>>();
  for (const r of scan.references) {
    let refs = byFlag.get(r.flag);
    if (!refs) byFlag.set(r.flag, (refs = { count: 0, files: 0, references: [] }));
    refs.count++;
    let seen = files.get(r.flag);
    if (!seen) files.set(r.flag, (seen = new Set()));
    seen.add(`${r.root}\n${r.file}`);
    refs.files = seen.size;
    if (refs.references.length < MAX_REFERENCES_PER_FLAG) {
      refs.references.push({ root: r.root, file: r.file, line: r.line, column: r.column, alias: r.alias, aliasKind: r.aliasKind, ...(r.context ? { context: r.context } : {}) });
    }
  }
  return { ...(missing ? { unknown: `the source ${JSON.stringify(missing.root)} does not exist` } : roots.length === 0 ? { unknown: "no --source given" } : {}), byFlag };
}

function applicationReport(app: ApplicationRead, input: AssembleInput, codeRefs: CodeReferenceIndex): ApplicationReport {
  const { options, asOf } = input;
  const critical = (name: string) => options.critical.length === 0 || options.critical.includes(name);
  const flags: Flag[] = sortedBy(app.flags ?? [], (f) => f.name);
  const given = flags.map((f) => ({ name: f.name, isPermanent: f.isPermanent === true }));
  const auditFrom = new Date(asOf.getTime() - options.staleDays * DAY_MS);
  const perEnvironment = app.environments.map((env) => ({
    env,
    lexicon: byFlag(environmentFlagStatuses(given, env.evidence, { asOf, windowDays: options.statusWindowDays, ...(env.serviceStatuses ? { serviceStatuses: env.serviceStatuses } : {}) })),
    threshold: byFlag(environmentFlagStatuses(given, env.evidence, { asOf, windowDays: options.staleDays })),
  }));
  const known = new Set(flags.map((f) => f.name));
  const otherFlags = [...new Set(perEnvironment.flatMap((p) => [...p.lexicon.keys()]).filter((name) => !known.has(name)))].sort(cmp);
  const thresholdWindow = statusWindow(asOf, options.staleDays);
  const report: FlagReport[] = flags.map((flag) => {
    const environments: FlagEnvironment[] = perEnvironment.map(({ env, lexicon, threshold }) => {
      const s = lexicon.get(flag.name)!;
      const t = threshold.get(flag.name)!;
      return {
        environment: env.name,
        critical: critical(env.name),
        status: s.status,
        basis: s.basis,
        reason: s.reason,
        ...(s.value !== undefined ? { value: s.value } : {}),
        ...(s.lastDay !== undefined ? { lastDay: s.lastDay } : {}),
        values: s.values,
        overThreshold: { status: t.status, ...(t.value !== undefined ? { value: t.value } : {}), reason: t.reason },
        daily: dailyOf(env, flag.name, thresholdWindow.first, thresholdWindow.last),
      };
    });
    const lastChange = lastChangeOf(flag, app.environments, auditFrom, asOf);
    const refs = codeRefs.unknown === undefined ? (codeRefs.byFlag.get(flag.name) ?? { count: 0, files: 0, references: [] }) : null;
    const count: CodeReferenceCount = refs ? { known: true, count: refs.count } : { known: false, reason: codeRefs.unknown! };
    const declarations = input.stacks ? declarationsOf(input.stacks.declarations, app.id, flag.name) : null;
    const verdict = flagVerdict({
      flag: flag.name,
      isPermanent: flag.isPermanent === true,
      environments: environments.map((e) => ({ environment: e.environment, critical: e.critical, status: e, overThreshold: e.overThreshold })),
      lastChange,
      codeReferences: count,
      asOf,
      staleDays: options.staleDays,
    });
    return {
      name: flag.name,
      isPermanent: flag.isPermanent === true,
      verdict: verdict.verdict,
      reason: verdict.reason,
      ...(verdict.value !== undefined ? { value: verdict.value } : {}),
      lastChange,
      environments,
      codeReferences: refs,
      declarations,
      ...(verdict.verdict === "remove-from-code" || verdict.verdict === "remove-from-iac" ? { removal: removalOf(flag.name, verdict, refs, declarations, input.stacks !== undefined) } : {}),
    };
  });
  return {
    id: app.id,
    name: app.name,
    environments: app.environments.map((env) => ({
      name: env.name,
      ...(env.key ? { key: env.key } : {}),
      critical: critical(env.name),
      roxy: env.roxy,
      impressions: env.evidence.kind === "counts" ? "read" : env.evidence.kind,
      ...(env.form ? { form: env.form } : {}),
      statuses: env.serviceStatuses ? "service" : "impressions",
      auditLog: "error" in env.auditLog ? "unavailable" : env.auditLog.stoppedEarly ? "partial" : "read",
    })),
    flags: report,
    otherFlags,
  };
}

function byFlag(verdicts: FlagStatusVerdict[]): Map<string, FlagStatusVerdict> {
  return new Map(verdicts.map((v) => [v.flag, v]));
}

/** The flag's impressions per day and value in the window, its most served values only. */
function dailyOf(env: EnvironmentRead, flag: string, first: string, last: string): FlagEnvironment["daily"] {
  if (env.evidence.kind !== "counts") return [];
  const counts = env.evidence.counts.filter((c) => c.flag === flag && c.day >= first && c.day <= last && c.count > 0);
  const totals = new Map<string, number>();
  for (const c of counts) totals.set(c.value, (totals.get(c.value) ?? 0) + c.count);
  const kept = new Set([...totals].sort((a, b) => b[1] - a[1] || cmp(a[0], b[0])).slice(0, MAX_VALUES_PER_ENVIRONMENT).map(([v]) => v));
  return counts
    .filter((c) => kept.has(c.value))
    .map(({ day, value, count }) => ({ day, value, count }))
    .sort((a, b) => cmp(a.day, b.day) || cmp(a.value, b.value));
}

function declarationsOf(all: readonly Declaration[], applicationId: string, flag: string): DeclaredResource[] {
  return sortedBy(
    all.filter((d) => d.applicationId === applicationId && d.flag === flag),
    (d) => `${d.stack}\n${d.urn}`,
  ).map(({ applicationId: _a, flag: _f, ...d }) => d);
}

function removalOf(flag: string, verdict: FlagVerdict, refs: CodeReferences | null, declarations: DeclaredResource[] | null, stacksGiven: boolean): NonNullable<FlagReport["removal"]> {
  const resources = removalOrder(declarations ?? []);
  const listed = resources.map((r) => `${r.kind} ${r.name} (${r.stack})`).join(", ");
  const deleteStep = resources.length
    ? `delete its resources from their programs in this order, each FlagConfiguration before its Flag: ${listed}`
    : stacksGiven
      ? "no stack read declares it: delete the flag in the service (or in the program that declares it)"
      : "delete its FlagConfigurations, then its Flag, from the programs that declare them (--stacks names them)";
  const steps =
    verdict.verdict === "remove-from-code"
      ? [
          `Hard-code ${JSON.stringify(verdict.value)} where the code evaluates ${JSON.stringify(flag)} (${refs?.count ?? 0} ${noun(refs?.count ?? 0, "reference")} in ${refs?.files ?? 0} ${noun(refs?.files ?? 0, "file")}), and deploy that code everywhere.`,
          `Then, once no running code evaluates it (a later report says remove-from-iac), ${deleteStep}.`,
        ]
      : [`${deleteStep.charAt(0).toUpperCase()}${deleteStep.slice(1)}.`];
  return { ...(verdict.value !== undefined ? { hardCode: verdict.value } : {}), codeReferences: refs?.count ?? 0, resources, steps };
}

/** The candidates of every application, each new or known (firstSeen carried) against the previous report. */
function candidatesOf(applications: ApplicationReport[], previous: FlagsReport | undefined, now: string): Candidate[] {
  const key = (applicationId: string, flag: string, verdict: string) => `${applicationId}\n${flag}\n${verdict}`;
  const before = new Map<string, string>();
  for (const c of Array.isArray(previous?.candidates) ? previous!.candidates : []) {
    if (c && typeof c.applicationId === "string" && typeof c.flag === "string" && typeof c.firstSeen === "string") before.set(key(c.applicationId, c.flag, c.verdict), c.firstSeen);
  }
  const out: Candidate[] = [];
  for (const app of applications) {
    for (const f of app.flags) {
      if (f.verdict !== "remove-from-code" && f.verdict !== "remove-from-iac") continue;
      const firstSeen = before.get(key(app.id, f.name, f.verdict));
      f.candidate = { status: firstSeen ? "known" : "new", firstSeen: firstSeen ?? now };
      out.push({ applicationId: app.id, application: app.name, flag: f.name, verdict: f.verdict, ...(f.value !== undefined ? { value: f.value } : {}), ...f.candidate });
    }
  }
  return out;
}

/** --critical and --roxy names that no application read has: named, since a misspelt name would silently count for nothing. */
function unknownEnvironments(applications: ApplicationRead[], options: ReportOptions): ReportError[] {
  const read = applications.filter((a) => a.environments.length > 0);
  if (read.length === 0) return [];
  const names = new Set(read.flatMap((a) => a.environments.map((e) => e.name)));
  const errors: ReportError[] = [];
  for (const [option, list] of [["--critical", options.critical], ["--roxy", options.roxy]] as const) {
    for (const name of new Set(list)) {
      if (!names.has(name)) errors.push({ kind: "environment", environment: name, message: `${option} ${JSON.stringify(name)}: no application read has an environment of this name (${[...names].sort(cmp).map((n) => JSON.stringify(n)).join(", ")})` });
    }
  }
  for (const app of read) {
    const critical = app.environments.filter((e) => options.critical.length === 0 || options.critical.includes(e.name));
    if (critical.length === 0) errors.push({ kind: "environment", application: app.name, message: `none of its environments is critical (--critical ${options.critical.map((n) => JSON.stringify(n)).join(", ")}): no code removal is judged in it` });
  }
  return errors;
}

function sourcesReport(scan: CodeReferenceScan, roots: string[]): SourcesReport {
  return {
    roots,
    files: scan.counts.files,
    bytes: scan.counts.bytes,
    skippedCounts: { ...scan.counts.skipped } as Record<string, number>,
    skipped: scan.skipped.slice(0, MAX_SKIPPED_LISTED).map(({ root, path, reason, detail }) => ({ root, path, reason, detail })),
  };
}
