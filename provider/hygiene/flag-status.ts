/**
 * A flag's status in one environment, as the feature-flag service's lexicon defines it ("flag status",
 * docs.cloudbees.com/lexicon/cloudbees-fm/flag-status; ../../../shared/notes/flag-hygiene.md), from the impressions
 * the service counts per day (FeatureManagementClient.readImpressions) over the last N days (default 7) as of a time:
 * - `active`: impressions with different values in the window;
 * - `stale`: impressions in the window, all with the same value (given as `value`);
 * - `inactive`: none in the window, some before it;
 * - `setup`: none in what was read (`since` on, or ever);
 * - `permanent`: the flag is long-lived (`isPermanent`): impressions are not considered, and it wins over all;
 * - `unknown`: no usable signal: the environment is served through roxy (its SDKs send no impressions, so the
 *   service cannot tell), the service gave no impressions answer, or what was read does not cover the question (an
 *   entry of the flag that could not be read, impressions read from after the window's first day). A missing answer
 *   never reads as `inactive` or `setup`.
 * Where a newer service answers its own statuses (readFlagsStatus), a status of the lexicon's words is taken as the
 * service gives it (after `isPermanent` and roxy). The window is whole UTC days: the N days that end with the day of
 * `asOf`; impressions on days after it are not considered. Pure: data and the time in, verdicts out.
 */
import type { DailyImpressions, ServiceFlagStatus } from "../clients/impression-types";
import type { UnreadableItem } from "../clients/readable-list-types";
import { addDays, utcDay } from "../clients/utc-days";

export const FLAG_STATUSES = ["active", "stale", "inactive", "setup", "permanent", "unknown"] as const;
export type FlagStatus = (typeof FLAG_STATUSES)[number];

/** The lexicon's window: "over the last seven days". */
export const DEFAULT_STATUS_WINDOW_DAYS = 7;
const MAX_WINDOW_DAYS = 366;
/** The statuses a service may answer that mean what the lexicon means; any other word is not taken. */
const SERVICE_WORDS: ReadonlySet<string> = new Set(["active", "stale", "inactive", "setup", "permanent"]);

/** What is known of the impressions of one environment. */
export type ImpressionEvidence =
  /** The service's counts (readImpressions): `since`, the first day they cover (default: all time); `unreadable`, the entries skipped. */
  | { kind: "counts"; counts: readonly DailyImpressions[]; since?: string; unreadable?: readonly UnreadableItem[] }
  /** The user marks the environment as served through roxy: its SDKs send no impressions. */
  | { kind: "roxy" }
  /** The service did not answer impressions, or answered what could not be read: `reason` says which. */
  | { kind: "unavailable"; reason: string };

export interface StatusFlag {
  name: string;
  isPermanent?: boolean;
}

export interface StatusOptions {
  /** The time the statuses are as of. */
  asOf: Date;
  /** Days of the window, 1 to 366. Default 7. */
  windowDays?: number;
  /** The newer service's own statuses of the environment (readFlagsStatus), when it has them. */
  serviceStatuses?: readonly ServiceFlagStatus[];
}

export interface ValueCount {
  value: string;
  count: number;
}

export interface FlagStatusVerdict {
  flag: string;
  status: FlagStatus;
  /** What decided: the flag's permanence, the environment's roxy mark, the service's own status, the impressions, or their absence. */
  basis: "isPermanent" | "roxy" | "service" | "impressions" | "no-answer";
  /** `stale`: the one value served in the window. */
  value?: string;
  /** Impressions per value in the window, the most first. */
  values: ValueCount[];
  /** The last UTC day with impressions up to the window's end, when there is one. */
  lastDay?: string;
  /** Why, in words. */
  reason: string;
}

/** The window's first and last UTC days (inclusive). */
export interface StatusWindow {
  first: string;
  last: string;
  days: number;
}

export function statusWindow(asOf: Date, windowDays: number = DEFAULT_STATUS_WINDOW_DAYS): StatusWindow {
  if (!(asOf instanceof Date) || Number.isNaN(asOf.getTime())) throw new RangeError(`asOf: not a time (${String(asOf)})`);
  if (!Number.isInteger(windowDays) || windowDays < 1 || windowDays > MAX_WINDOW_DAYS) {
    throw new RangeError(`windowDays: a whole number of days from 1 to ${MAX_WINDOW_DAYS}, not ${String(windowDays)}`);
  }
  const last = utcDay(asOf);
  return { first: addDays(last, 1 - windowDays), last, days: windowDays };
}

/** The status of one flag in the environment the evidence is of. */
export function flagStatus(flag: StatusFlag, evidence: ImpressionEvidence, options: StatusOptions): FlagStatusVerdict {
  return environmentFlagStatuses([flag], evidence, options)[0]!;
}

/**
 * The status of each flag in one environment, in the order given, then of each flag the impressions or the service
 * name that is not among them (an SDK reports flags the service was never told of), by name.
 */
export function environmentFlagStatuses(flags: readonly StatusFlag[], evidence: ImpressionEvidence, options: StatusOptions): FlagStatusVerdict[] {
  const window = statusWindow(options.asOf, options.windowDays);
  const byFlag = new Map<string, DailyImpressions[]>();
  for (const c of evidence.kind === "counts" ? evidence.counts : []) {
    let list = byFlag.get(c.flag);
    if (!list) byFlag.set(c.flag, (list = []));
    list.push(c);
  }
  const service = new Map((options.serviceStatuses ?? []).map((s) => [s.flag, s.status]));
  const given = new Set(flags.map((f) => f.name));
  const others = [...new Set([...byFlag.keys(), ...service.keys()])].filter((name) => !given.has(name)).sort();
  return [...flags, ...others.map((name) => ({ name }))].map((flag) => verdict(flag, byFlag.get(flag.name) ?? [], evidence, service.get(flag.name), window));
}

function verdict(flag: StatusFlag, counts: DailyImpressions[], evidence: ImpressionEvidence, serviceStatus: string | undefined, window: StatusWindow): FlagStatusVerdict {
  const { values, lastDay, before } = summary(counts, window);
  const base = { flag: flag.name, values, ...(lastDay === undefined ? {} : { lastDay }) };
  const span = `the last ${window.days} days (${window.first} to ${window.last})`;
  if (flag.isPermanent) return { ...base, status: "permanent", basis: "isPermanent", reason: "a permanent flag (isPermanent): its impressions are not considered" };
  if (evidence.kind === "roxy") {
    return { ...base, status: "unknown", basis: "roxy", reason: "the environment is served through roxy: its SDKs send no impressions, so the service cannot tell" };
  }
  const word = serviceStatus?.toLowerCase();
  if (word !== undefined && SERVICE_WORDS.has(word)) {
    const status = word as FlagStatus;
    return { ...base, status, basis: "service", ...(status === "stale" && values.length === 1 ? { value: values[0]!.value } : {}), reason: `the service's own status (${JSON.stringify(serviceStatus)})` };
  }
  if (evidence.kind === "unavailable") return { ...base, status: "unknown", basis: "no-answer", reason: `no impressions to go by: ${evidence.reason}` };
  if (values.length > 1) return { ...base, status: "active", basis: "impressions", reason: `impressions with ${values.length} values in ${span}` };

  const unread = (evidence.unreadable ?? []).filter((u) => u.name === undefined || u.name === flag.name);
  if (unread.length > 0) {
    return { ...base, status: "unknown", basis: "impressions", reason: `the answer held ${unread.length} entr${unread.length === 1 ? "y" : "ies"} of this flag (or unnamed) that could not be read: ${unread[0]!.problem}` };
  }
  if (evidence.since !== undefined && evidence.since > window.first) {
    return { ...base, status: "unknown", basis: "impressions", reason: `the impressions read start on ${evidence.since}, after the window's first day (${window.first})` };
  }
  if (values.length === 1) return { ...base, status: "stale", basis: "impressions", value: values[0]!.value, reason: `impressions in ${span}, all with the value ${JSON.stringify(values[0]!.value)}` };
  if (before) return { ...base, status: "inactive", basis: "impressions", reason: `no impressions in ${span}; the last on ${lastDay}` };
  return { ...base, status: "setup", basis: "impressions", reason: `no impressions ${evidence.since === undefined ? "at all" : `since ${evidence.since}`}` };
}

/** Counts per value in the window (the most first, then by value), the last day with impressions, and whether some precede the window. */
function summary(counts: DailyImpressions[], window: StatusWindow): { values: ValueCount[]; lastDay?: string; before: boolean } {
  const perValue = new Map<string, number>();
  let lastDay: string | undefined;
  let before = false;
  for (const c of counts) {
    if (c.count <= 0 || c.day > window.last) continue;
    if (lastDay === undefined || c.day > lastDay) lastDay = c.day;
    if (c.day < window.first) before = true;
    else perValue.set(c.value, (perValue.get(c.value) ?? 0) + c.count);
  }
  const values = [...perValue].map(([value, count]) => ({ value, count })).sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  return { values, ...(lastDay === undefined ? {} : { lastDay }), before };
}
