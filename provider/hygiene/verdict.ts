/**
 * What to do with a flag (issue 64), from what is known of its use: its status per environment (flag-status.ts) over
 * the lexicon's window and over the threshold of N days, when it last changed, and how often the code spells it.
 * LaunchDarkly's lifecycle is the model ("ready for code removal": launched in every critical environment for 30 days,
 * with code references; "ready to archive": inactive for 30 days, no code references). Pure: data in, verdict out.
 *
 * In this order:
 * - `keep`: a permanent flag (`isPermanent`, whatever its impressions); a flag active in any environment (impressions
 *   with different values over the lexicon's window); a flag changed in the last N days (its configuration, in any
 *   environment, or the flag itself).
 * - `remove-from-code`: stale in every critical environment for at least N days (one value over the N days, the same
 *   in each, and still evaluated over the lexicon's window), with code references: the value to hard-code.
 * - `remove-from-iac`: inactive in every environment for at least N days (no impressions over the N days: some before,
 *   or none at all since the read's start for a flag unchanged for N days) and no code references: the resources to
 *   delete, dependents first (removalOrder).
 * - `unknown`: a removal the signals point to but cannot be given, because something it needs is missing (an
 *   environment without a usable status: served through roxy, no impressions answer; code references not scanned;
 *   when the flag last changed). Missing data never gives a removal.
 * - Otherwise `keep`, saying why no removal applies (still evaluated somewhere, different values per environment,
 *   stale for fewer than N days, referenced in code but not evaluated, ...).
 */
import type { FlagStatus, FlagStatusVerdict } from "./flag-status";

export const VERDICTS = ["keep", "remove-from-code", "remove-from-iac", "unknown"] as const;
export type Verdict = (typeof VERDICTS)[number];

/** The N of "for at least N days" and "changed in the last N days", by default (LaunchDarkly's and Flagsmith's 30). */
export const DEFAULT_STALE_DAYS = 30;
export const MAX_STALE_DAYS = 365;

/** When a flag last changed, as far as the service says. */
export type LastChange =
  /** The newest change read: `at` an ISO-8601 instant; `by` who, where the record says. */
  | { kind: "changed"; at: string; by?: string }
  /** No change recorded from `since` (an ISO-8601 instant) on. */
  | { kind: "unchanged"; since: string }
  /** Not known: the audit log could not be read, or not all of it. */
  | { kind: "unknown"; reason: string };

/** One environment's statuses of the flag. */
export interface EnvironmentSignal {
  environment: string;
  /** One of the environments the user marks critical (by default, every one). */
  critical: boolean;
  /** The status over the lexicon's window (seven days). */
  status: Pick<FlagStatusVerdict, "status" | "value" | "reason">;
  /** The status over the threshold's N days: `stale` one value all along, `inactive` none in them. */
  overThreshold: Pick<FlagStatusVerdict, "status" | "value" | "reason">;
}

/** How many places the code spells the flag, or why that is not known. */
export type CodeReferenceCount = { known: true; count: number } | { known: false; reason: string };

export interface VerdictInput {
  flag: string;
  isPermanent?: boolean;
  environments: readonly EnvironmentSignal[];
  lastChange: LastChange;
  codeReferences: CodeReferenceCount;
  asOf: Date;
  /** N, in days: 1 to MAX_STALE_DAYS. */
  staleDays: number;
}

export interface FlagVerdict {
  verdict: Verdict;
  /** Why, in words a reviewer reads: the environments, the days, the counts. */
  reason: string;
  /** `remove-from-code`: the value every critical environment served, to hard-code where the code evaluates the flag. */
  value?: string;
}

const DAY_MS = 86_400_000;

export function flagVerdict(input: VerdictInput): FlagVerdict {
  const n = input.staleDays;
  if (!Number.isInteger(n) || n < 1 || n > MAX_STALE_DAYS) throw new RangeError(`staleDays: a whole number of days from 1 to ${MAX_STALE_DAYS}, not ${String(n)}`);
  const envs = input.environments;
  const named = (list: readonly EnvironmentSignal[]) => list.map((e) => JSON.stringify(e.environment)).join(", ");
  const days = `${n} day${n === 1 ? "" : "s"}`;

  if (input.isPermanent || envs.some((e) => e.status.status === "permanent")) return keep("a permanent flag (isPermanent): never a removal candidate");
  const active = envs.filter((e) => e.status.status === "active");
  if (active.length) return keep(`active in ${named(active)}: impressions with different values`);
  const change = input.lastChange;
  if (change.kind === "changed" && Date.parse(change.at) >= input.asOf.getTime() - n * DAY_MS) {
    return keep(`changed in the last ${days} (${change.at}${change.by ? ` by ${JSON.stringify(change.by)}` : ""})`);
  }
  if (envs.length === 0) return unknown("the application has no environment to read impressions in");
  const refs = input.codeReferences;
  /** A removal the signals point to, unless a fact it needs is missing. */
  const unlessMissing = (removal: FlagVerdict): FlagVerdict => {
    if (!refs.known) return unknown(`${removal.reason}, but its code references are not known (${refs.reason})`);
    if (change.kind === "unknown") return unknown(`${removal.reason}, but when it last changed is not known (${change.reason})`);
    return removal;
  };

  // remove-from-code: stale in every critical environment for N days, with one value.
  const critical = envs.filter((e) => e.critical);
  const staleForN = (e: EnvironmentSignal) => e.overThreshold.status === "stale" && e.status.status === "stale";
  if (critical.length > 0 && critical.every(staleForN)) {
    const values = [...new Set(critical.map((e) => e.overThreshold.value ?? e.status.value))];
    if (values.length !== 1 || values[0] === undefined) {
      return keep(`stale in every critical environment, but not with one value (${critical.map((e) => `${JSON.stringify(e.environment)} serves ${JSON.stringify(e.overThreshold.value)}`).join(", ")}): a configuration per environment`);
    }
    const value = values[0];
    const reason = `stale in every critical environment (${named(critical)}) for at least ${days}, serving ${JSON.stringify(value)}`;
    const removal = unlessMissing({ verdict: "remove-from-code", value, reason });
    if (removal.verdict !== "remove-from-code") return removal;
    if (refs.known && refs.count === 0) return keep(`${reason}, but no code reference in the sources scanned: what evaluates it is elsewhere`);
    return { ...removal, reason: `${reason}; ${refs.known ? refs.count : 0} code reference${refs.known && refs.count === 1 ? "" : "s"} to replace with the value` };
  }

  // remove-from-iac: inactive everywhere for N days (a flag never evaluated counts: it is unchanged for N days).
  const inactiveForN = (e: EnvironmentSignal) => e.overThreshold.status === "inactive" || e.overThreshold.status === "setup";
  if (envs.every(inactiveForN)) {
    const reason = `no impressions in any environment for at least ${days}${envs.some((e) => e.overThreshold.status === "setup") ? " (in some, none since the read's start)" : ""}`;
    const removal = unlessMissing({ verdict: "remove-from-iac", reason });
    if (removal.verdict !== "remove-from-iac") return removal;
    if (refs.known && refs.count > 0) return keep(`${reason}, but ${refs.count} code reference${refs.count === 1 ? "" : "s"}: the code may not be deployed yet, or evaluates it where no impressions are counted`);
    return { ...removal, reason: `${reason}, no code reference: delete its resources` };
  }

  // No removal applies. Where one would but for an environment without a usable status, that is for want of data.
  const unusable = (e: EnvironmentSignal) => e.overThreshold.status === "unknown" || e.status.status === "unknown";
  const codeBlocked = critical.length > 0 && critical.every((e) => staleForN(e) || unusable(e)) ? critical.filter(unusable) : [];
  const missing = codeBlocked.length > 0 ? codeBlocked : envs.every((e) => inactiveForN(e) || unusable(e)) ? envs.filter(unusable) : [];
  if (missing.length > 0) return unknown(`no usable status in ${named(missing)}: ${missing[0]!.overThreshold.reason}`);
  return keep(whyNoRemoval(envs, critical, days, staleForN));
}

function keep(reason: string): FlagVerdict {
  return { verdict: "keep", reason };
}

function unknown(reason: string): FlagVerdict {
  return { verdict: "unknown", reason };
}

/** Why neither removal applies, from signals that are all there. */
function whyNoRemoval(envs: readonly EnvironmentSignal[], critical: readonly EnvironmentSignal[], days: string, staleForN: (e: EnvironmentSignal) => boolean): string {
  const list = (l: readonly EnvironmentSignal[]) => l.map((e) => JSON.stringify(e.environment)).join(", ");
  const evaluated = envs.filter((e) => e.status.status === "stale" || e.overThreshold.status === "stale" || e.overThreshold.status === "active");
  if (critical.length === 0) return `still evaluated in ${list(evaluated)}; no environment of the application is critical, so no code removal is judged`;
  const recently = critical.filter((e) => e.status.status === "stale" && !staleForN(e));
  if (recently.length) return `stale for fewer than ${days} in ${list(recently)}`;
  const notStale = critical.filter((e) => !staleForN(e));
  return `still evaluated in ${list(evaluated)}, but not stale in every critical environment (${list(notStale)}: ${notStale.map((e) => e.status.status).join(", ")})`;
}

/** A resource that declares a flag or one of its configurations, in a stack's state. */
export interface DeclaredResource {
  /** The stack, `<folder>#<stack>`. */
  stack: string;
  urn: string;
  type: string;
  /** The resource's name (the URN's last part). */
  name: string;
  kind: "Flag" | "FlagConfiguration";
  /** A FlagConfiguration's environment. */
  environment?: string;
  /** Where the program declares it, as the state records it (`project:///index.ts#12,5`). */
  sourcePosition?: string;
}

/**
 * The resources to delete, in the order the engine needs: dependents first (each FlagConfiguration before the Flag it
 * configures), then by stack and URN, so that the same state always gives the same plan.
 */
export function removalOrder(resources: readonly DeclaredResource[]): DeclaredResource[] {
  const rank = (r: DeclaredResource) => (r.kind === "FlagConfiguration" ? 0 : 1);
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...resources].sort((a, b) => rank(a) - rank(b) || cmp(a.stack, b.stack) || cmp(a.urn, b.urn));
}
