/**
 * Every flag's spellings found in one pass over a file's bytes (issue 64, code references): the time is linear in
 * the file, whatever the number of flags and aliases.
 *
 * Two kinds of candidate token, each hashed as it is read and looked up once in a table of every spelling:
 * - the text between two consecutive delimiters of a line (`"checkout.newFlow"`, `'new-flow'`): any spelling,
 *   as ld-find-code-refs looks for a key between delimiters;
 * - an identifier (a run of letters, digits, `_`, `$` and non-ASCII bytes): the spellings that are identifiers
 *   themselves (`newFlow`, `NEW_FLOW`), at identifier boundaries only (`newFlowEnabled` is not `newFlow`).
 * A delimited hit holds the identifiers inside it (`newFlow` in `"checkout.newFlow"` is no hit of its own): the
 * identifiers found since a line's last delimiter are held until the next one says. A candidate longer than the
 * longest spelling is never hashed twice, so the work per line is bounded by its length.
 *
 * Columns are 1-based and count UTF-16 code units (as JavaScript strings and most editors do), computed from the
 * bytes as the line is read.
 */
import type { Alias } from "./aliases";

/** One spelling, and the aliases (one per flag) that spell it. */
export interface Spelling {
  text: string;
  aliases: Alias[];
  bytes: Buffer;
  /** The spelling is an identifier: looked for at identifier boundaries too. */
  identifier: boolean;
}

export interface TokenHit {
  spelling: Spelling;
  /** Byte offset of the hit in the file, and of its line's start. */
  offset: number;
  lineStart: number;
  line: number;
  column: number;
  /** The identifier right before a `.` before the hit (`flags` in `flags.newFlow`), for namespaced containers. */
  qualifier?: string;
}

/** The characters a delimiter may be: printable ASCII that is no identifier character. */
export const DELIMITER_CHARACTERS = /^[!-#%-/:-@[-^`{-~]$/;

const NL = 10;
const DOT = 46;
const HASH_BITS = 16;

function identifierTable(): Uint8Array {
  const t = new Uint8Array(256);
  for (let c = 0; c < 256; c++) {
    t[c] = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36 || c >= 128 ? 1 : 0;
  }
  return t;
}

const IDENT = identifierTable();

function hashOf(bytes: Uint8Array, start: number, end: number): number {
  let h = 0;
  for (let i = start; i < end; i++) h = (Math.imul(h, 31) + bytes[i]!) | 0;
  return h;
}

/** UTF-16 code units of the UTF-8 bytes `[start, end)`: every byte that starts a character, twice for a 4-byte one. */
export function utf16Length(bytes: Uint8Array, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) {
    const b = bytes[i]!;
    if ((b & 0xc0) !== 0x80) n += b >= 0xf0 ? 2 : 1;
  }
  return n;
}

export class TokenMatcher {
  private readonly byHash = new Map<number, Spelling[]>();
  /** A bit per hash's low bits: most tokens are dismissed without a Map lookup. */
  private readonly seen = new Uint8Array(1 << HASH_BITS);
  private readonly delimiter = new Uint8Array(256);
  private readonly lengths: Uint8Array;
  private readonly maxLength: number;
  /** Spellings that can never be found: they hold a delimiter or a line break. */
  readonly unmatchable: Alias[] = [];

  constructor(aliases: readonly Alias[], delimiters: readonly string[]) {
    for (const d of delimiters) {
      if (!DELIMITER_CHARACTERS.test(d)) throw new Error(`a delimiter is one printable ASCII character that is no letter, digit, "_" or "$": not ${JSON.stringify(d)}`);
      this.delimiter[d.charCodeAt(0)] = 1;
    }
    const spellings = new Map<string, Spelling>();
    for (const alias of aliases) {
      const bytes = Buffer.from(alias.text, "utf8");
      if (bytes.some((b) => b === NL || b === 13 || this.delimiter[b] === 1)) {
        this.unmatchable.push(alias);
        continue;
      }
      let s = spellings.get(alias.text);
      if (!s) {
        s = { text: alias.text, aliases: [], bytes, identifier: bytes.every((b) => IDENT[b] === 1) };
        spellings.set(alias.text, s);
      }
      s.aliases.push(alias);
    }
    let max = 0;
    for (const s of spellings.values()) max = Math.max(max, s.bytes.length);
    this.maxLength = max;
    this.lengths = new Uint8Array(max + 1);
    for (const s of spellings.values()) {
      const h = hashOf(s.bytes, 0, s.bytes.length);
      this.lengths[s.bytes.length] = 1;
      this.seen[h & ((1 << HASH_BITS) - 1)] = 1;
      const list = this.byHash.get(h);
      if (list) list.push(s);
      else this.byHash.set(h, [s]);
    }
  }

  private find(h: number, bytes: Uint8Array, start: number, end: number, identifierOnly: boolean): Spelling | undefined {
    if (this.seen[h & ((1 << HASH_BITS) - 1)] === 0) return undefined;
    const list = this.byHash.get(h);
    if (!list) return undefined;
    const len = end - start;
    for (const s of list) {
      if (s.bytes.length !== len || (identifierOnly && !s.identifier)) continue;
      let i = 0;
      while (i < len && s.bytes[i] === bytes[start + i]) i++;
      if (i === len) return s;
    }
    return undefined;
  }

  /** Calls `hit` for every spelling found in `bytes[0, length)`, in the order of the file. */
  scan(bytes: Uint8Array, length: number, hit: (h: TokenHit) => void): void {
    const delim = this.delimiter;
    const lengths = this.lengths;
    const max = this.maxLength;
    let line = 1;
    let lineStart = 0;
    let lastDelim = -1;
    // The column of `colOffset` on the current line, counted from the last hit: each byte of a line counted about once.
    let colOffset = 0;
    let col = 1;
    /** Identifier hits since the line's last delimiter: dropped if the text up to the next one is a hit. */
    const held: TokenHit[] = [];
    const release = () => {
      for (const h of held) hit(h);
      held.length = 0;
    };
    const found = (s: Spelling, start: number, qualifier?: string): TokenHit => {
      // A delimited hit is found at its closing delimiter, after the identifiers inside it: columns go back then.
      col += start >= colOffset ? utf16Length(bytes, colOffset, start) : -utf16Length(bytes, start, colOffset);
      colOffset = start;
      const h: TokenHit = { spelling: s, offset: start, lineStart, line, column: col };
      if (qualifier !== undefined) h.qualifier = qualifier;
      return h;
    };
    let i = 0;
    while (i < length) {
      const c = bytes[i]!;
      if (c === NL) {
        release();
        line++;
        lineStart = colOffset = i + 1;
        col = 1;
        lastDelim = -1;
        i++;
      } else if (IDENT[c] === 1) {
        const start = i;
        let h = 0;
        do {
          h = (Math.imul(h, 31) + bytes[i]!) | 0;
          i++;
        } while (i < length && IDENT[bytes[i]!] === 1);
        const len = i - start;
        // Between two delimiters, the delimited candidate below is the same hit.
        if (len > max || lengths[len] === 0 || (start > lineStart && delim[bytes[start - 1]!] === 1 && i < length && delim[bytes[i]!] === 1)) continue;
        const s = this.find(h, bytes, start, i, true);
        if (!s) continue;
        const t = found(s, start, qualifierBefore(bytes, start, lineStart));
        if (lastDelim >= 0) held.push(t);
        else hit(t);
      } else if (delim[c] === 1) {
        if (lastDelim >= 0) {
          const start = lastDelim + 1;
          const len = i - start;
          const s = len > 0 && len <= max && lengths[len] === 1 ? this.find(hashOf(bytes, start, i), bytes, start, i, false) : undefined;
          if (s) {
            held.length = 0;
            hit(found(s, start));
          } else release();
        }
        lastDelim = i;
        i++;
      } else i++;
    }
    release();
  }
}

/** `flags` in `flags.newFlow` (at most 128 bytes back), or undefined. */
function qualifierBefore(bytes: Uint8Array, start: number, lineStart: number): string | undefined {
  if (start - 2 < lineStart || bytes[start - 1] !== DOT || IDENT[bytes[start - 2]!] !== 1) return undefined;
  let q = start - 2;
  const floor = Math.max(lineStart, start - 129);
  while (q > floor && IDENT[bytes[q - 1]!] === 1) q--;
  return Buffer.from(bytes.buffer, bytes.byteOffset + q, start - 1 - q).toString("utf8");
}
