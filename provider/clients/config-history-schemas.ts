import { lazyZod } from "../http/lazy-zod";
import type { AllTrue, Same } from "../http/response-schema";
import type { ConfigHistoryEntry } from "./config-history-types";
import { readableListSchema } from "./readable-list";

// Loaded when the first schema is built, not with this module (lazy-zod.ts).
const z = lazyZod();

// The Job Configuration History plugin's list (`{"configs": [...]}`), entry by entry: an entry whose job, date or user
// cannot be read is set apart and named, the others are read; fields this package does not use are ignored. A name
// too long to be a login or a file name is not cut (a cut name would be a wrong one): its entry is unreadable.

/** `yyyy-MM-dd_HH-mm-ss` (JobConfigHistoryConsts.ID_FORMATTER), checked as a calendar date and a time of day. */
const DATE = /^(\d{4})-(\d{2})-(\d{2})_(\d{2})-(\d{2})-(\d{2})$/;

/** The history's date as an ISO 8601 local time without zone, or undefined when it is in another form. */
export function historyLocalTime(date: string): string | undefined {
  const m = DATE.exec(date);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const day = new Date(Date.UTC(y, mo - 1, d));
  if (day.getUTCMonth() !== mo - 1 || day.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return undefined;
  return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}`;
}

const text = (max: number) => z.string().max(max);
const optionalText = (max: number) =>
  text(max)
    .nullable()
    .optional()
    .transform((v) => v ?? "");

/** One entry (ConfigInfo): job and date required, the rest as the answer has them. */
export function configHistoryEntrySchema() {
  return z
    .object({
      job: text(1024),
      date: text(64),
      userID: optionalText(256),
      user: optionalText(256),
      operation: optionalText(64),
    })
    .transform((e): ConfigHistoryEntry => {
      const localTime = historyLocalTime(e.date);
      return { job: e.job, userID: e.userID, user: e.user, date: e.date, operation: e.operation, ...(localTime === undefined ? {} : { localTime }) };
    });
}

/** The list answer (`configs`), entry by entry. */
export function configHistorySchema() {
  return z.object({ configs: readableListSchema(configHistoryEntrySchema, "job") });
}

// The declared types and the schemas' outputs are one type.
export type Checked = AllTrue<[Same<ReturnType<ReturnType<typeof configHistoryEntrySchema>["parse"]>, ConfigHistoryEntry>]>;
