/**
 * The lines around a code reference (issue 64): N lines before and after it (N from 0 to 5; 0 gives none, so that
 * no source leaves the machine), each bounded in length. The text is data, as the file holds it (a line ends at LF,
 * its CR dropped; nothing escaped: the report escapes).
 *
 * A line longer than the bound is cut: from its start, or, for the hit's own line, around the hit, so the hit shows.
 * Only the bytes kept are decoded, so a long line costs its bound, not its length.
 */
import { utf16Length } from "./token-matcher";

export interface ContextLine {
  line: number;
  text: string;
  /** The 1-based column (UTF-16 code units) `text` starts at in the line. */
  column: number;
  /** The line goes on past `text`, or starts before it. */
  truncated: boolean;
}

export const MAX_CONTEXT_LINES = 5;

/** The byte offset of each line's start, in order (line 1 at index 0); a final line break starts no line. */
export function lineStarts(bytes: Uint8Array): number[] {
  const starts = [0];
  for (let i = bytes.indexOf(10); i >= 0 && i + 1 < bytes.length; i = bytes.indexOf(10, i + 1)) starts.push(i + 1);
  return starts;
}

/** The byte offset that `column` (1-based, UTF-16 units) of the line starting at `start` stands at. */
export function offsetOfColumn(bytes: Uint8Array, start: number, end: number, column: number): number {
  let units = 1;
  let i = start;
  while (i < end && units < column) {
    const b = bytes[i]!;
    units += b >= 0xf0 ? 2 : 1;
    i++;
    while (i < end && (bytes[i]! & 0xc0) === 0x80) i++;
  }
  return i;
}

/** The character boundary at or after `i`. */
function boundary(bytes: Uint8Array, i: number, end: number): number {
  while (i < end && (bytes[i]! & 0xc0) === 0x80) i++;
  return i;
}

/** Where a hit stands: its line and column (1-based) and its byte offset. */
export interface HitPosition {
  line: number;
  column: number;
  offset: number;
}

/**
 * The context of a hit: `lines` lines before and after it and its own, each at most `maxLength` UTF-16 units. The
 * work is bounded by the lines' count and the bound, whatever the lines' lengths.
 */
export function contextOf(bytes: Uint8Array, starts: readonly number[], hit: HitPosition, lines: number, maxLength: number): ContextLine[] {
  const { line, offset } = hit;
  const out: ContextLine[] = [];
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  for (let l = Math.max(1, line - lines); l <= Math.min(starts.length, line + lines); l++) {
    const start = starts[l - 1]!;
    let end = l < starts.length ? starts[l]! - 1 : bytes.length;
    if (end > start && bytes[end - 1] === 10) end--;
    if (end > start && bytes[end - 1] === 13) end--;
    // Around the hit on its own line, when the line is longer than the bound: a quarter of the bound before it.
    let from = start;
    if (l === line && end - start > maxLength) from = boundary(bytes, Math.max(start, offset - Math.floor(maxLength / 4)), end);
    const to = Math.min(end, from + 4 * maxLength);
    let text = buf.toString("utf8", from, to);
    let truncated = from > start || to < end;
    if (text.length > maxLength) {
      text = text.slice(0, maxLength);
      // A surrogate pair is not cut in two.
      if (/[\ud800-\udbff]$/.test(text)) text = text.slice(0, -1);
      truncated = true;
    }
    out.push({ line: l, text, column: from === start ? 1 : hit.column - utf16Length(bytes, from, offset), truncated });
  }
  return out;
}
