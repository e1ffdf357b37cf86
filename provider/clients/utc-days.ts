/**
 * UTC days as the impressions answers count them (`YYYY-MM-DD`), and the readings of a time that an answer may
 * give (a day, an ISO-8601 instant, Unix seconds or milliseconds). Shared by the client's reading of the answers,
 * the status computation (provider/hygiene) and the emulator, so that all three cut days alike.
 */

const DAY_MS = 86_400_000;
/** Below this, a number is Unix seconds (1e11 s is the year 5138); from it on, milliseconds (1e11 ms is 1973). */
const SECONDS_BELOW = 1e11;
/** Years a day may have: what `Date` writes as `YYYY-MM-DD` (no sign, four digits). */
const LAST_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** The UTC day of an instant, `YYYY-MM-DD`. */
export function utcDay(instant: Date | number): string {
  return new Date(typeof instant === "number" ? instant : instant.getTime()).toISOString().slice(0, 10);
}

/** The first millisecond of a UTC day `YYYY-MM-DD` (the caller's day is well-formed: see dayOf). */
export function dayStartMs(day: string): number {
  return Date.parse(`${day}T00:00:00.000Z`);
}

/** The day `n` days after `day` (before, when negative). */
export function addDays(day: string, n: number): string {
  return utcDay(dayStartMs(day) + n * DAY_MS);
}

/**
 * The UTC day a time names, or undefined: a day `YYYY-MM-DD` that exists, an instant `Date.parse` reads, or a
 * number (or a text of digits) of Unix seconds, or of milliseconds from 1e11 on. Before 1970 or after 9999: undefined.
 */
export function dayOf(time: string | number): string | undefined {
  let ms: number;
  if (typeof time === "number") ms = time < SECONDS_BELOW ? time * 1000 : time;
  else if (/^\d{1,16}$/.test(time.trim())) return dayOf(Number(time.trim()));
  else if (/^\d{4}-\d{2}-\d{2}$/.test(time)) {
    ms = dayStartMs(time);
    if (Number.isFinite(ms) && utcDay(ms) !== time) return undefined; // 2026-02-30
  } else ms = Date.parse(time);
  if (!Number.isFinite(ms) || ms < 0 || ms > LAST_MS) return undefined;
  return utcDay(ms);
}
