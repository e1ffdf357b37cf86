/**
 * Server text on its way into a rendered report (drift-report.md and .html, flags-report.md): cut to a length a reader
 * can take in, with the full length said, and made printable (provider/text/printable.ts: no control character, line
 * break or CI command survives), before each renderer escapes it for its own syntax (markdown.ts, html.ts).
 */
import { printable } from "../../provider/text/printable";

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
export function valueText(value: unknown, max: number): string {
  if (value === undefined) return "(none)";
  return cut(JSON.stringify(value), max);
}

/**
 * A message for a report's error field: printable with its line breaks kept (terminal colors dropped, other control
 * characters escaped), at most `max` characters.
 */
export function bounded(text: string, max: number): string {
  // A language host may color its messages whatever --color says: the colors go, other control characters are escaped.
  const clean = printable(text.replace(/\u001b\[[0-9;]*m/g, "").trim(), { keepNewlines: true });
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

/** "1.2 s": fixed digits, so that output does not depend on the locale. */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** Code-unit order, as JSON keys and ids sort the same on every machine and locale. */
export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `items` by the key `keyOf` gives, whatever order the report holds them in: the same report always renders the same text. */
export function sortedBy<T>(items: readonly T[], keyOf: (item: T) => string): T[] {
  return [...items].sort((a, b) => cmp(keyOf(a), keyOf(b)));
}
