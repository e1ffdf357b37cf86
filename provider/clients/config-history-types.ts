import type { UnreadableItem } from "./readable-list-types";

// A controller's configuration history, from the Job Configuration History plugin's remote API
// (jenkinsci/job-config-history-plugin: JobConfigHistoryRootAction, ConfigInfo's `@Exported` getters). Plain types,
// no zod: they reach the published declarations (see casc-types.ts).

/** One save of a configuration file, as the history lists it (`jobConfigHistory/api/json?filter=system`). */
export interface ConfigHistoryEntry {
  /** The file without `.xml` (`config` for Jenkins' config.xml, `credentials`), or an item's name. */
  job: string;
  /** The login of who saved it: `SYSTEM` for configuration as code, `unknown` for nobody; "" when the answer names none. */
  userID: string;
  /** Their display name, "" when none. */
  user: string;
  /** The date as the history writes it: `yyyy-MM-dd_HH-mm-ss`, the controller's local time, no zone. */
  date: string;
  /**
   * The date as an ISO 8601 local time without zone (`2026-11-30T14:02:33`: the controller's wall clock, whose zone
   * the answer does not tell); undefined when `date` is in another form, so that the entry cannot be placed in time.
   */
  localTime?: string;
  /** Created, Changed, Renamed, Deleted, or the same in the language of the request that made the change. */
  operation: string;
}

/** The system entries of a controller's configuration history, newest first as the answer gives them. */
export interface ConfigHistoryRead {
  entries: ConfigHistoryEntry[];
  /** Entries in a form this version cannot read (a field missing, of another type, too long), apart. */
  unreadable: UnreadableItem[];
  /** The answer had more entries than asked: `entries` are its newest `maxEntries`, older ones are not known. */
  cut: boolean;
}

/** How much of the history is read, and how long it may take. */
export interface ConfigHistoryOptions {
  /** Newest entries read at most (default CONFIG_HISTORY_MAX_ENTRIES). */
  maxEntries?: number;
  /** The deadline of the one request, below the client's timeout (default CONFIG_HISTORY_DEADLINE_MS). */
  deadlineMs?: number;
}

/** Newest entries read by default: a controller's recent saves, far more than one drift needs. */
export const CONFIG_HISTORY_MAX_ENTRIES = 500;
/** The request's deadline by default: the history is an extra, never worth holding a refresh up. */
export const CONFIG_HISTORY_DEADLINE_MS = 10_000;
/** Bytes of the answer at most: 500 entries of a real answer take about 100 KB. */
export const CONFIG_HISTORY_MAX_BYTES = 1024 * 1024;
