import { lazyZod } from "../http/lazy-zod";
import { bounded, formatZodIssue } from "../http/response-text";
import type { SchemaIssue } from "../http/response-schema";
import { printable } from "../text/printable";
import type { DailyImpressions, FlagsStatusRead, ImpressionsForm, ImpressionsRead, ServiceFlagStatus } from "./impression-types";
import type { UnreadableItem } from "./readable-list-types";
import { dayOf } from "./utc-days";

// Loaded when the first schema is built, not with this module (lazy-zod.ts).
const z = lazyZod();

/**
 * The answers of the impressions endpoint (`GET .../environments/{env}/impressions?mode=daily&from&to`), whose body
 * no public source shows (../../../shared/notes/flag-hygiene.md), and of a newer service's `flags-status`. Every form
 * that is plausible is read, tolerantly: fields this package has no name for are ignored, a list may be null, and
 * an entry that cannot be read is skipped and reported (as ReadableList does), never a reason to drop the others.
 * - `analytics`: the newer platform's impressions answer, known from a third-party copy of its contract:
 *   `{analytics: {<flag>: {interval: {<ts>: {impressions: [{from, aggregatedValues: [{value, counter}]}]}}}}}`; an
 *   impression without a readable `from` is dated by its interval's key;
 * - `list`: a list of `{flag, value, count, date}` (or `counter` for `count`, `day` or `from` for `date`), bare or
 *   under `impressions`, `data` or `items`.
 * A time is a day `YYYY-MM-DD`, an ISO-8601 instant, or Unix seconds or milliseconds (utc-days.ts).
 */

/** The most entries (list entries, or aggregated values) read from one answer; the rest are reported unread. */
export const MAX_IMPRESSION_ENTRIES = 200_000;
/** The most entries of one kind reported unreadable; the others are counted in the last report. */
const MAX_REPORTED = 100;
/** Longest problem kept: it is quoted in warnings. */
const MAX_TEXT = 300;
const LIST_KEYS = ["impressions", "data", "items"] as const;

function valueSchema() {
  return z.union([z.string(), z.number(), z.boolean()]).transform((v) => String(v));
}

/** A count: a number of impressions, or a text of digits. */
function countSchema() {
  return z.union([z.number().min(0), z.string().regex(/^\d{1,15}$/, "not a count").transform(Number)]);
}

function daySchema() {
  return z.union([z.string(), z.number()]).transform((time, ctx) => {
    const day = dayOf(time);
    if (day === undefined) ctx.addIssue({ code: "custom", message: `${JSON.stringify(time).slice(0, 40)} is not a day, an instant, or Unix seconds or milliseconds` });
    return day ?? z.NEVER;
  });
}

function listEntrySchema() {
  return z
    .looseObject({
      flag: z.string().min(1),
      value: valueSchema(),
      count: countSchema().optional(),
      counter: countSchema().optional(),
      date: daySchema().optional(),
      day: daySchema().optional(),
      from: daySchema().optional(),
    })
    .transform((e, ctx): DailyImpressions => {
      const count = e.count ?? e.counter;
      const day = e.date ?? e.day ?? e.from;
      if (count === undefined) ctx.addIssue({ code: "custom", message: "no count (nor counter)", path: ["count"] });
      if (day === undefined) ctx.addIssue({ code: "custom", message: "no date (nor day, from)", path: ["date"] });
      return count === undefined || day === undefined ? z.NEVER : { flag: e.flag, value: e.value, day, count };
    });
}

function aggregatedValueSchema() {
  return z
    .looseObject({ value: valueSchema(), counter: countSchema().optional(), count: countSchema().optional() })
    .transform((e, ctx) => {
      const count = e.counter ?? e.count;
      if (count === undefined) ctx.addIssue({ code: "custom", message: "no counter (nor count)", path: ["counter"] });
      return count === undefined ? z.NEVER : { value: e.value, count };
    });
}

/** The impressions answer in any form above; a body of none of them fails, saying which forms are read. */
export function impressionsAnswerSchema() {
  return z.unknown().transform((body, ctx): ImpressionsRead => {
    const reader = new AnswerReader();
    const record = isObject(body) ? body : undefined;
    if (record && "analytics" in record) {
      if (record.analytics !== null && !isObject(record.analytics)) {
        ctx.addIssue({ code: "custom", message: "not an object of flags", path: ["analytics"] });
        return z.NEVER;
      }
      reader.readAnalytics(record.analytics ?? {});
      return reader.answer("analytics");
    }
    const key = record && LIST_KEYS.find((k) => Array.isArray(record[k]));
    const list = Array.isArray(body) ? body : key ? (record![key] as unknown[]) : undefined;
    if (!list) {
      ctx.addIssue({ code: "custom", message: "none of the impressions forms this client reads: {analytics: {<flag>: {interval: ...}}}, or a list of {flag, value, count, date}" });
      return z.NEVER;
    }
    reader.readList(list);
    return reader.answer("list");
  });
}

/** The newer `flags-status` answer: `{flagsStatus: {<flag>: {flagName, status}}}` (a list of them is read too). */
export function flagsStatusAnswerSchema() {
  const entry = z.looseObject({ flagName: z.string().min(1).optional(), status: z.string().min(1) });
  return z.looseObject({ flagsStatus: z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]).nullable() }).transform(({ flagsStatus }): FlagsStatusRead => {
    const out: FlagsStatusRead = { statuses: [], unreadable: [] };
    const entries: [string | undefined, unknown][] = Array.isArray(flagsStatus) ? flagsStatus.map((v) => [undefined, v]) : Object.entries(flagsStatus ?? {});
    entries.slice(0, MAX_IMPRESSION_ENTRIES).forEach(([key, value], index) => {
      const parsed = entry.safeParse(value);
      const flag = parsed.success ? (parsed.data.flagName ?? key) : undefined;
      if (parsed.success && flag !== undefined) out.statuses.push({ flag, status: parsed.data.status } satisfies ServiceFlagStatus);
      else if (out.unreadable.length < MAX_REPORTED) {
        const name = key ?? (isObject(value) && typeof value.flagName === "string" ? value.flagName : undefined);
        out.unreadable.push(unreadable(index, name, parsed.success ? { path: ["flagName"], message: "no flag name" } : parsed.error.issues[0]));
      }
    });
    return out;
  });
}

/** Reads the entries of one answer, within MAX_IMPRESSION_ENTRIES, summing the counts of one flag, value and day. */
class AnswerReader {
  private readonly sums = new Map<string, DailyImpressions>();
  private readonly problems: UnreadableItem[] = [];
  private unreported = 0;
  private read = 0;

  readList(list: unknown[]): void {
    const schema = listEntrySchema();
    for (let index = 0; index < list.length; index++) {
      if (!this.take(index, undefined, list.length - index)) return;
      const parsed = schema.safeParse(list[index]);
      if (parsed.success) this.add(parsed.data);
      else this.problem(index, nameOf(list[index]), parsed.error.issues[0]);
    }
  }

  readAnalytics(analytics: Record<string, unknown>): void {
    const schema = aggregatedValueSchema();
    Object.entries(analytics).forEach(([flag, entry], index) => {
      const intervals = isObject(entry) ? entry.interval : entry;
      if (intervals === null || intervals === undefined) return;
      if (!isObject(intervals)) return this.problem(index, flag, { path: ["interval"], message: "not an object of intervals" });
      for (const [ts, bucket] of Object.entries(intervals)) {
        const impressions = isObject(bucket) ? bucket.impressions : undefined;
        if (impressions === null) continue;
        if (!Array.isArray(impressions)) {
          this.problem(index, flag, { path: ["interval", ts, "impressions"], message: "not a list" });
          continue;
        }
        for (const [i, impression] of impressions.entries()) {
          const at = ["interval", ts, "impressions", i];
          if (!isObject(impression)) {
            this.problem(index, flag, { path: at, message: "not an object" });
            continue;
          }
          const from = impression.from;
          const hasFrom = from !== undefined && from !== null;
          const day = !hasFrom ? dayOf(ts) : typeof from === "string" || typeof from === "number" ? dayOf(from) : undefined;
          if (day === undefined) {
            this.problem(index, flag, { path: hasFrom ? [...at, "from"] : at, message: hasFrom ? "not a time" : "no from, and its interval's key is not a time" });
            continue;
          }
          const values = impression.aggregatedValues;
          if (values === null) continue;
          if (!Array.isArray(values)) {
            this.problem(index, flag, { path: [...at, "aggregatedValues"], message: "not a list" });
            continue;
          }
          for (const [j, value] of values.entries()) {
            if (!this.take(index, flag, values.length - j)) return;
            const parsed = schema.safeParse(value);
            if (parsed.success) this.add({ flag, value: parsed.data.value, day, count: parsed.data.count });
            else this.problem(index, flag, prefixed([...at, "aggregatedValues", j], parsed.error.issues[0]));
          }
        }
      }
    });
  }

  answer(form: ImpressionsForm): ImpressionsRead {
    if (this.unreported > 0) this.problems.push({ index: this.problems[this.problems.length - 1]!.index, problem: `and ${this.unreported} more entries that could not be read` });
    const counts = [...this.sums.values()].sort((a, b) => compare(a.day, b.day) || compare(a.flag, b.flag) || compare(a.value, b.value));
    return { form, counts, unreadable: this.problems };
  }

  /** False once MAX_IMPRESSION_ENTRIES are read: the entries left (`left`, from `index` on) are reported, once. */
  private take(index: number, name: string | undefined, left: number): boolean {
    if (this.read < MAX_IMPRESSION_ENTRIES) {
      this.read += 1;
      return true;
    }
    if (this.read === MAX_IMPRESSION_ENTRIES) {
      this.read += 1;
      this.problems.push({ index, ...(name === undefined ? {} : { name }), problem: `not read, nor the entries after it (${left} or more): an answer is read up to ${MAX_IMPRESSION_ENTRIES} entries` });
    }
    return false;
  }

  private add(e: DailyImpressions): void {
    const key = JSON.stringify([e.flag, e.value, e.day]);
    const sum = this.sums.get(key);
    if (sum) sum.count += e.count;
    else this.sums.set(key, { ...e });
  }

  private problem(index: number, name: string | undefined, issue: SchemaIssue | undefined): void {
    if (this.problems.length < MAX_REPORTED) this.problems.push(unreadable(index, name, issue));
    else this.unreported += 1;
  }
}

function unreadable(index: number, name: string | undefined, issue: SchemaIssue | undefined): UnreadableItem {
  const { field, message } = formatZodIssue(issue);
  return { index, ...(name === undefined ? {} : { name }), problem: bounded(printable(field ? `${field}: ${message}` : message), MAX_TEXT) };
}

function prefixed(path: PropertyKey[], issue: SchemaIssue | undefined): SchemaIssue | undefined {
  return issue && { ...issue, path: [...path, ...issue.path] };
}

function nameOf(entry: unknown): string | undefined {
  return isObject(entry) && typeof entry.flag === "string" ? entry.flag : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
