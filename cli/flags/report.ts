/**
 * The flag hygiene report that `pulumi-cloudbees flags` writes (flags-report.json), version 1: per application and
 * flag, its status in each environment (the service's lexicon, provider/hygiene/flag-status.ts) with the impressions
 * per value and day over the threshold's days, when it last changed, where the code spells it, which stacks declare
 * it, and the verdict (provider/hygiene/verdict.ts) with what a removal takes. Stable order everywhere (applications
 * by name, flags by name, environments as the service lists them, references as the scan found them, declarations by
 * stack and URN), so two reports diff cleanly in Git. The JSON Schema beside it (flags-report.schema.json) is
 * published in the package and in docs/flag-hygiene.md; the report is the one source its Markdown (and a page) render.
 *
 * Every string from a server, a source file or a state is data: bounded here and escaped where it is rendered.
 */
import type { FlagStatus, FlagStatusVerdict, ValueCount } from "../../provider/hygiene/flag-status";
import type { DeclaredResource, LastChange, Verdict } from "../../provider/hygiene/verdict";

export const FLAGS_REPORT_SCHEMA_VERSION = 1;

/** References kept per flag (the count says how many there are); context lines per reference are bounded by --context. */
export const MAX_REFERENCES_PER_FLAG = 100;
/** Source files skipped that the report lists; the counts per reason cover them all. */
export const MAX_SKIPPED_LISTED = 200;
/** Values per flag and environment whose impressions per day the report keeps (the most served first). */
export const MAX_VALUES_PER_ENVIRONMENT = 20;
/** Longest error text kept. */
export const MAX_ERROR_CHARS = 2000;

export interface FlagsReport {
  schemaVersion: typeof FLAGS_REPORT_SCHEMA_VERSION;
  /** When this run started, ISO 8601 UTC. */
  generatedAt: string;
  /** The time the statuses and thresholds are as of (--as-of; by default the run's start). */
  asOf: string;
  /** The package version that wrote it. */
  toolVersion: string;
  options: ReportOptions;
  summary: FlagsSummary;
  /** The applications read, by name. */
  applications: ApplicationReport[];
  /** The removal candidates of every application (remove-from-code, remove-from-iac): what the exit code acts on. */
  candidates: Candidate[];
  /** With --source: what the scan read and skipped. */
  sources?: SourcesReport;
  /** With --stacks: each stack's state read, or why not. */
  stacks?: StackRead[];
  /** What could not be read, each named; the rest of the report stands. */
  errors: ReportError[];
}

export interface ReportOptions {
  /** N: "stale for at least N days", "inactive for at least N days", "changed in the last N days". */
  staleDays: number;
  /** The lexicon's window of a status. */
  statusWindowDays: number;
  /** Days of impressions read back from asOf (more than N, so that "inactive" can see impressions before). */
  historyDays: number;
  /** The critical environments (by name) as given; empty: every environment is critical. */
  critical: string[];
  /** Environments (by name) served through roxy: their status is unknown. */
  roxy: string[];
  /** --application as given; empty: every application of the account. */
  applications: string[];
  /** --source as given. */
  sources: string[];
  contextLines: number;
  delimiters: string[];
  /** --stacks as given. */
  stacksFile?: string;
  failOn: "any" | "new";
  /** --previous as given. */
  previous?: string;
}

export interface FlagsSummary {
  applications: number;
  environments: number;
  flags: number;
  keep: number;
  removeFromCode: number;
  removeFromIac: number;
  unknown: number;
  /** removeFromCode + removeFromIac. */
  candidates: number;
  /** Candidates not in the previous report (all of them without one). */
  newCandidates: number;
  codeReferences: number;
  declarations: number;
  errors: number;
  /** Calls to the feature-flag service (a retry of one call not counted). */
  requests: number;
}

export interface ApplicationReport {
  id: string;
  name: string;
  environments: EnvironmentReport[];
  /** The application's flags, by name. */
  flags: FlagReport[];
  /** Flags the impressions or the service's statuses name that the application does not have (an SDK reports what it evaluates). */
  otherFlags: string[];
}

export interface EnvironmentReport {
  name: string;
  /** Its key (the SDK key), when listed. */
  key?: string;
  critical: boolean;
  /** Marked with --roxy. */
  roxy: boolean;
  /** What is known of its impressions: read (in which form), roxy (none asked), unavailable (the call failed). */
  impressions: "read" | "roxy" | "unavailable";
  form?: "analytics" | "list";
  /** Whose statuses the lexicon's window shows: computed from the impressions, or the newer service's own. */
  statuses: "impressions" | "service";
  /** The audit log from asOf minus N days: read whole, read in part (a bound ended it), or not read. */
  auditLog: "read" | "partial" | "unavailable";
}

export interface FlagReport {
  name: string;
  isPermanent: boolean;
  verdict: Verdict;
  reason: string;
  /** remove-from-code: the value to hard-code. */
  value?: string;
  /** A removal candidate's history: new, or known since the first report that listed it (given --previous). */
  candidate?: { status: "new" | "known"; firstSeen: string };
  lastChange: LastChange;
  environments: FlagEnvironment[];
  /** Null without --source. */
  codeReferences: CodeReferences | null;
  /** The resources that declare it in the stacks read; null without --stacks. */
  declarations: DeclaredResource[] | null;
  /** A removal candidate's plan. */
  removal?: Removal;
}

export interface FlagEnvironment {
  environment: string;
  critical: boolean;
  /** The lexicon's status over its window. */
  status: FlagStatus;
  basis: FlagStatusVerdict["basis"];
  reason: string;
  /** stale: the one value served. */
  value?: string;
  /** The last UTC day with impressions, when there is one. */
  lastDay?: string;
  /** Impressions per value over the lexicon's window. */
  values: ValueCount[];
  /** The status over the threshold's N days. */
  overThreshold: { status: FlagStatus; value?: string; reason: string };
  /** Impressions per day and value over the threshold's N days (at most MAX_VALUES_PER_ENVIRONMENT values), by day and value. */
  daily: { day: string; value: string; count: number }[];
}

export interface CodeReferences {
  count: number;
  /** Files with a reference. */
  files: number;
  /** The first MAX_REFERENCES_PER_FLAG, in the scan's order. */
  references: CodeReferenceEntry[];
}

export interface CodeReferenceEntry {
  /** The --source it was found under, as given. */
  root: string;
  /** Relative to the root, `/`-separated. */
  file: string;
  line: number;
  column: number;
  /** The spelling found, and what made it. */
  alias: string;
  aliasKind: string;
  /** With --context above 0: the lines around it, as data. */
  context?: { line: number; text: string; column: number; truncated: boolean }[];
}

export interface Removal {
  /** remove-from-code: replace each evaluation of the flag with this value. */
  hardCode?: string;
  /** The code references to change (remove-from-code) or none (remove-from-iac). */
  codeReferences: number;
  /** The resources to delete, in the order the engine needs: each FlagConfiguration before its Flag. */
  resources: DeclaredResource[];
  /** The steps in words, in order. */
  steps: string[];
}

export interface Candidate {
  applicationId: string;
  application: string;
  flag: string;
  verdict: "remove-from-code" | "remove-from-iac";
  value?: string;
  status: "new" | "known";
  firstSeen: string;
}

export interface SourcesReport {
  roots: string[];
  files: number;
  bytes: number;
  /** Files (or roots) not read, by reason. */
  skippedCounts: Record<string, number>;
  /** The first MAX_SKIPPED_LISTED of them. */
  skipped: { root: string; path: string; reason: string; detail: string }[];
}

export interface StackRead {
  /** `<folder>#<stack>`. */
  id: string;
  status: "read" | "error";
  /** Resources in its state. */
  resources: number;
  /** Flags and flag configurations among them. */
  declarations: number;
  error?: string;
}

export type ErrorKind = "settings" | "application" | "environment" | "flags" | "impressions" | "statuses" | "audit-log" | "source" | "stack" | "previous";

export interface ReportError {
  kind: ErrorKind;
  application?: string;
  environment?: string;
  /** A --source or a stack id. */
  source?: string;
  stack?: string;
  message: string;
}

/** The command's exit codes, documented in its --help and docs/flag-hygiene.md. */
export const EXIT = {
  /** Nothing to remove (with --fail-on new: nothing new to remove), and everything read. */
  clean: 0,
  /** Removal candidates (with --fail-on new: candidates not in --previous). */
  candidates: 1,
  /** No candidates, but something could not be read (named in the report's errors). */
  partial: 2,
  /** Could not run at all: bad arguments, no feature-flag settings, no application readable. */
  couldNotRun: 3,
} as const;
