const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const pad = (n: number, width = 2): string => String(n).padStart(width, "0");

/** Update-log and validation-log dates, e.g. "09 May 2022" (UTC). */
export function logDate(d: Date): string {
  return `${pad(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** Update-log and validation-log folders: date plus sequence number, e.g. "20220509_00006". */
export function logFolder(d: Date, sequence: number): string {
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}_${pad(sequence, 5)}`;
}

/** Java's Date.toString() in UTC, e.g. "Mon May 09 10:22:33 UTC 2022": check-out's timestamp-like localText. */
export function javaDateString(d: Date): string {
  return (
    `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} UTC ${d.getUTCFullYear()}`
  );
}
