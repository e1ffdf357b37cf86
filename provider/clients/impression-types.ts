// What the feature-flag service answers about the use of flags: impressions per day and, where a newer service
// has it, each flag's status. Plain types, no zod: they reach the published declarations (see casc-types.ts).
import type { UnreadableItem } from "./readable-list-types";

/** Impressions of one flag with one value on one UTC day, in one environment. */
export interface DailyImpressions {
  flag: string;
  /** The value as the SDK reports it, as text: `"true"`, `"blue"`, `"3"`. */
  value: string;
  /** The UTC day, `YYYY-MM-DD`. */
  day: string;
  count: number;
}

/** The forms of the impressions answer this client reads (the service's is not public: each is a guess). */
export type ImpressionsForm = "analytics" | "list";

/** The impressions of one environment between two times (readImpressions). */
export interface ImpressionsRead {
  /**
   * Which form the answer had: `analytics`, the newer platform's `{analytics: {<flag>: {interval: {<ts>:
   * {impressions: [{from, aggregatedValues: [{value, counter}]}]}}}}}`, or `list`, a list of `{flag, value, count,
   * date | from}`.
   */
  form: ImpressionsForm;
  /** One entry per flag, value and day (the answer's entries for the same three summed), by day, flag and value. */
  counts: DailyImpressions[];
  /** The entries that could not be read, each with its position, its flag when it has one, and why. */
  unreadable: UnreadableItem[];
}

/** The time span of readImpressions: Dates or ISO-8601 instants; sent as Unix seconds. */
export interface ImpressionsWindow {
  from: Date | string;
  to: Date | string;
}

/** A flag's status as a newer service answers it (`flags-status`): its words, as given. */
export interface ServiceFlagStatus {
  flag: string;
  status: string;
}

/** The newer service's statuses of one environment (readFlagsStatus). */
export interface FlagsStatusRead {
  statuses: ServiceFlagStatus[];
  unreadable: UnreadableItem[];
}
