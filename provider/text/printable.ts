/**
 * Text from a server, or from any input, on its way to a person (a warning, an error, the CLI's and the emulator's
 * console): one rule, so that no value can forge a line of a terminal or a CI log.
 *
 * - `quoted(value)` wherever a value is interpolated into a message: in double quotes, with `"` and `\` escaped so
 *   that the value cannot end its quotes, and every character below escaped.
 * - `printable(message)` at the sink (console.warn, an error's message): the same characters escaped in the whole
 *   text; `keepNewlines` keeps `\n`, for messages that are multi-line by design (their own literal text: the values
 *   they quote cannot hold one).
 *
 * Escaped: C0 and C1 controls and DEL (ESC starts CSI colour and clear-screen sequences and OSC 52 clipboard writes,
 * 0x9B is CSI alone, BEL ends an OSC), every line terminator (LF, CR, VT, FF, NEL, U+2028, U+2029: a CI log or
 * Pulumi's plugin reader starts a line at one of them), format and bidirectional characters (which reorder what a
 * terminal shows), and lone surrogates. A line of a CI log also acts on in-band commands: GitHub Actions' `::` form
 * only at the start of a line (which no value reaches once on one line), but Azure Pipelines' `##vso[` (and the
 * runner's legacy `##[`) anywhere in it, so their second `#` is escaped too.
 *
 * The generated program's targets (a TypeScript literal or comment, a shell word) are cli/escape.ts's, on the
 * same set of characters.
 */

/**
 * Characters escaped wherever they stand: C0 and C1 controls, DEL, the line and paragraph separators, format and
 * bidirectional characters, and lone surrogates (not well-formed UTF-16).
 */
export const UNSAFE_CHARACTERS =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `\u001b` for ESC: the escape any reader of JSON or JavaScript reads back. */
export function unicodeEscape(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

const NAMED_ESCAPES: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * The first `#` of Azure Pipelines' `##vso[` and of the legacy `##[`: a CI agent acts on either anywhere in a line.
 * Replaced by `\u0023`, which a reader of JSON or JavaScript reads back as `#`.
 */
export const CI_COMMAND = /#(?=#(?:vso)?\[)/gi;

/**
 * `text` with every unsafe character shown as an escape (`\n`, `\u001b`, `\u202e`) and no CI command in it; with
 * `keepNewlines`, `\n` stays (for the package's own multi-line messages).
 */
export function printable(text: string, options: { keepNewlines?: boolean } = {}): string {
  return text
    .replace(UNSAFE_CHARACTERS, (c) => (options.keepNewlines && c === "\n" ? c : NAMED_ESCAPES[c] ?? unicodeEscape(c)))
    .replace(CI_COMMAND, "\\u0023");
}

/**
 * `value` as a message quotes it: `"..."` on one line, `"` and `\` escaped so that it ends where its quotes say,
 * every unsafe character escaped (see printable). The one way a value from a server or an input enters a message.
 */
export function quoted(value: string): string {
  return `"${printable(value.replace(/["\\]/g, (c) => `\\${c}`))}"`;
}
