/**
 * A report as GitHub-flavoured Markdown (a pipeline's step summary, `$GITHUB_STEP_SUMMARY`): server text escaped so
 * that it stays data, and long tables and lists folded into <details>. Shared by drift-report.md and flags-report.md.
 *
 * Every path, value, name and error is made printable (no line break, control character or CI command: text.ts) and
 * its Markdown punctuation backslash-escaped, so no value ends a table cell, opens a code span, link or HTML tag, or
 * starts a line.
 */
import { shown } from "./text";

/** Rows (or lines) shown before the rest of a list folds into <details>. */
export const FOLD_AT = 10;
/** Characters of a server text shown by default. */
const TEXT_CHARS = 300;

/**
 * Server text as Markdown text: printable, then every character that Markdown or a GFM table reads as syntax
 * backslash-escaped (`\|` stays in its cell, also after a `\`, since every `\` is doubled first). `::`, `://`, `www.`
 * and `@` lose their meaning too (a CI command's opening, a bare URL or address that GitHub would link, a mention).
 */
export function md(text: string, max = TEXT_CHARS): string {
  return shown(text, max)
    .replace(/[\\`*_[\]<>&|~#!$@]/g, (c) => `\\${c}`)
    .replace(/:(?=[:/])/g, "\\:")
    .replace(/\b(www)\./gi, "$1\\.");
}

/** A count from a report: a number as it is, anything else (a hand-edited report) as escaped text. */
export function count(n: unknown): string {
  return typeof n === "number" && Number.isFinite(n) ? String(n) : md(String(n), 20);
}

/**
 * A table whose rows past FOLD_AT fold into <details> (a second table with the same header: GitHub renders Markdown in
 * <details> after a blank line).
 */
export function table(header: string[], rows: string[], more: string): string[] {
  if (rows.length <= FOLD_AT) return [...header, ...rows];
  return [...header, ...rows.slice(0, FOLD_AT), "", ...details(`${rows.length - FOLD_AT} ${more}`, [...header, ...rows.slice(FOLD_AT)])];
}

/** Lines (a list) whose lines past FOLD_AT fold into <details>. */
export function list(lines: string[], more: string): string[] {
  if (lines.length <= FOLD_AT) return lines;
  return [...lines.slice(0, FOLD_AT), "", ...details(`${lines.length - FOLD_AT} ${more}`, lines.slice(FOLD_AT))];
}

/** `summary` is the renderer's own text (numbers and words): no server text inside HTML. */
export function details(summary: string, body: string[]): string[] {
  return [`<details><summary>${summary}</summary>`, "", ...body, "", "</details>"];
}

/** The document's lines joined, with exactly one line break at its end. */
export function document(lines: string[]): string {
  return `${lines.join("\n").replace(/\n+$/, "")}\n`;
}
