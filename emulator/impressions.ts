/**
 * The impressions the emulator counts (issue 64): per application, environment (by key: the SDK key names it),
 * flag, value and UTC day, from the vendor's SDK's posts (self-managed.ts) and from the programmatic API
 * (`emulator.impressions.record`, for past days); and the emulator's clock, which a test may set so that the
 * service answers as of another time (the impressions window's default, the flags-status answer, `daysAgo`).
 */
import type { DailyImpressions } from "../provider/clients/impression-types";
import { addDays, dayOf, utcDay } from "../provider/clients/utc-days";

/** Bounds: far above a test's use, and what keeps a runaway client from filling memory. */
export const IMPRESSION_LIMITS = {
  /** Distinct (flag, value, day) counters of one environment; a new one beyond this is not counted. */
  countersPerEnvironment: 100_000,
  /** Events of one posted batch (rox-node posts 20 at most, rox-go 500). */
  eventsPerBatch: 10_000,
  /** Characters of a flag name or a value. */
  textLength: 1024,
} as const;

/** What a test records: impressions of one flag with one value on one day. */
export interface ImpressionRecord {
  applicationId: string;
  /** The environment's name (as the API names it) or its key (its SDK key). */
  environment: string;
  flag: string;
  /** As the SDK sends it, text: a boolean or a number is written as text (`true` is "true"). */
  value: string | number | boolean;
  /** Default 1. */
  count?: number;
  /** Days before the emulator's now (its clock): 0, today (default), 1 yesterday. */
  daysAgo?: number;
  /** A UTC day `YYYY-MM-DD`, or an instant (Date or ISO-8601); wins over daysAgo. */
  day?: Date | string;
}

export class ImpressionStore {
  /** `<applicationId> <environment key>` -> JSON [flag, value, day] -> count. */
  private readonly counters = new Map<string, Map<string, number>>();
  private clock: Date | undefined;

  /** The emulator's now: the time set by setClock, else the real time. */
  now(): Date {
    return this.clock ? new Date(this.clock.getTime()) : new Date();
  }

  /** Answer as of `at` from now on; undefined: the real time again. */
  setClock(at: Date | undefined): void {
    this.clock = at && new Date(at.getTime());
  }

  /** Adds `count` impressions; false when the environment's counters are full (nothing counted). */
  add(applicationId: string, environmentKey: string, flag: string, value: string, day: string, count: number): boolean {
    const scope = `${applicationId} ${environmentKey}`;
    let counters = this.counters.get(scope);
    if (!counters) this.counters.set(scope, (counters = new Map()));
    const key = JSON.stringify([flag, value, day]);
    const current = counters.get(key);
    if (current === undefined && counters.size >= IMPRESSION_LIMITS.countersPerEnvironment) return false;
    counters.set(key, (current ?? 0) + count);
    return true;
  }

  /** The counts of one environment from day `first` to day `last` (inclusive; all when absent), by day, flag and value. */
  daily(applicationId: string, environmentKey: string, first?: string, last?: string): DailyImpressions[] {
    const out: DailyImpressions[] = [];
    for (const [key, count] of this.counters.get(`${applicationId} ${environmentKey}`) ?? []) {
      const [flag, value, day] = JSON.parse(key) as [string, string, string];
      if ((first === undefined || day >= first) && (last === undefined || day <= last)) out.push({ flag, value, day, count });
    }
    return out.sort((a, b) => cmp(a.day, b.day) || cmp(a.flag, b.flag) || cmp(a.value, b.value));
  }

  /** The day a record names: its `day`, else `daysAgo` before now. A day or count that cannot be: an Error naming it. */
  dayOfRecord(record: ImpressionRecord): string {
    if (record.day !== undefined) {
      const day = record.day instanceof Date ? (Number.isNaN(record.day.getTime()) ? undefined : utcDay(record.day)) : typeof record.day === "string" ? dayOf(record.day) : undefined;
      if (day === undefined) throw new Error(`impressions.record: day: ${String(record.day)} is not a UTC day (YYYY-MM-DD) or an instant`);
      return day;
    }
    const ago = record.daysAgo ?? 0;
    if (!Number.isInteger(ago) || ago < 0 || ago > 36_500) throw new Error(`impressions.record: daysAgo: a whole number of days from 0, not ${String(record.daysAgo)}`);
    return addDays(utcDay(this.now()), -ago);
  }

  clear(): void {
    this.counters.clear();
  }
}

/**
 * `emulator.impressions.record`: every record checked (its environment found by `environmentKeyOf`, a name or key),
 * then all counted, so that a call that throws counts nothing.
 */
export function recordImpressions(store: ImpressionStore, records: ImpressionRecord[], environmentKeyOf: (applicationId: string, environment: string) => string): void {
  const checked = records.map((r, i) => {
    const at = `impressions.record: record ${i + 1}`;
    if (typeof r?.flag !== "string" || r.flag === "" || r.flag.length > IMPRESSION_LIMITS.textLength) throw new Error(`${at}: flag: a name of 1 to ${IMPRESSION_LIMITS.textLength} characters`);
    if (!["string", "number", "boolean"].includes(typeof r.value)) throw new Error(`${at}: value: text, a number or a boolean, as the SDK sends it`);
    const count = r.count ?? 1;
    if (!Number.isSafeInteger(count) || count < 1) throw new Error(`${at}: count: a whole number from 1, not ${String(r.count)}`);
    return { r, count, key: environmentKeyOf(r.applicationId, r.environment), day: store.dayOfRecord(r) };
  });
  for (const { r, count, key, day } of checked) {
    if (!store.add(r.applicationId, key, r.flag, String(r.value), day, count)) throw new Error(`impressions.record: the environment has ${IMPRESSION_LIMITS.countersPerEnvironment} counters already`);
  }
}

/** What setClock takes: an instant, or null for the real time. Anything else throws. */
export function clockTime(at: Date | string | null): Date | undefined {
  if (at === null) return undefined;
  const date = typeof at === "string" ? new Date(at) : at;
  if (!(date instanceof Date) || Number.isNaN(date.getTime())) throw new Error(`impressions.setClock: ${String(at)} is not a time (a Date or an ISO-8601 instant), nor null`);
  return date;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
