/**
 * Server text on its way into a rendered report (drift-report.md, drift-report.html): cut to a length a reader can
 * take in, with the full length said, and made printable (provider/text/printable.ts: no control character, line
 * break or CI command survives), before each renderer escapes it for its own syntax.
 */
import { printable } from "../../../provider/text/printable";
import type { DriftReport, ReportValue, StackReport } from "./report";

/** `text` cut to `max` characters, saying how long it was; never splits a surrogate pair. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}… (${text.length} chars)`;
}

/** One line of printable text, at most `max` characters of the original (plus the length note). */
export function shown(text: string, max: number): string {
  return printable(cut(text, max));
}

/**
 * A value as JSON text (strings quoted, so `""` and `"null"` differ from no value and null), cut to `max`: still to
 * be made printable and escaped by the renderer.
 */
export function valueText(value: ReportValue | undefined, max: number): string {
  if (value === undefined) return "(none)";
  return cut(JSON.stringify(value), max);
}

/** "1.2 s": fixed digits, so that output does not depend on the locale. */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** Stacks by id, whatever order the report holds them in: the same report always renders the same text. */
export function stacksById(report: DriftReport): StackReport[] {
  return [...report.stacks].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
