import { yaml } from "../libraries";
import { scalarValue } from "./yaml-reader";

// The scalars of block-yaml.ts: plain, quoted and literal, read as readYaml reads them (the yaml library's YAML 1.1
// rules, then scalarValue). A form this file does not read exactly throws OutsideBlockSubset, and the caller reads
// the whole text with readYaml instead: reading less is slower, never different.

/** The text uses something the fast reader leaves to readYaml. */
export class OutsideBlockSubset extends Error {}

const outside = (why: string): never => {
  throw new OutsideBlockSubset(why);
};

type ScalarTag = { default?: boolean | "key"; collection?: unknown; test?: RegExp; resolve: (value: string, onError: (m: string) => void, options: object) => unknown };

let plainTags: ScalarTag[] | undefined;

/**
 * A plain scalar's value: the first of the library's own YAML 1.1 tags whose test matches, as its composer picks
 * them (compose-scalar.js findScalarTagByTest), so that `yes`, `0x1A`, `1:20` or `2024-01-01` read as readYaml reads
 * them; a timestamp keeps its text (scalarValue).
 */
export function plainValue(text: string): unknown {
  plainTags ??= (new (yaml().Schema)({ schema: "yaml-1.1", merge: false }).tags as ScalarTag[]).filter((t) => t.default === true && !t.collection && t.test);
  const tag = plainTags.find((t) => t.test!.test(text));
  if (tag === undefined) return text;
  const resolved = tag.resolve(text, () => outside("a scalar the library refuses"), { intAsBigInt: false });
  return scalarValue({ value: yaml().isScalar(resolved) ? resolved.value : resolved, source: text });
}

const ESCAPES: Record<string, string> = {
  "0": "\0", a: "\x07", b: "\b", t: "\t", n: "\n", v: "\v", f: "\f", r: "\r", e: "\x1b", " ": " ", '"': '"', "/": "/",
  "\\": "\\", N: "\x85", _: "\xa0", L: "\u2028", P: "\u2029",
};
const HEX_LENGTH: Record<string, number> = { x: 2, u: 4, U: 8 };

/** The escapes of a double-quoted scalar's text (YAML 1.2 5.7, which the library reads for 1.1 too). */
function unescapeDouble(raw: string): string {
  if (!raw.includes("\\")) return raw;
  let out = "";
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c !== "\\") {
      out += c;
      continue;
    }
    const e = raw[++i] ?? "";
    if (ESCAPES[e] !== undefined) out += ESCAPES[e];
    else if (HEX_LENGTH[e] !== undefined) {
      const hex = raw.slice(i + 1, i + 1 + HEX_LENGTH[e]!);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== HEX_LENGTH[e]) outside("an escape the fast reader does not read");
      const code = parseInt(hex, 16);
      if (code > 0x10ffff) outside("an escape beyond Unicode");
      out += String.fromCodePoint(code);
      i += hex.length;
    } else outside("an unknown escape");
  }
  return out;
}

/** Where a quoted scalar that starts at `from` (its opening quote) closes on `line`; -1: not on this line. */
function closingQuote(line: string, from: number, quote: string): number {
  for (let i = from; i < line.length; i++) {
    const c = line[i];
    if (quote === "'" && c === "'") {
      if (line[i + 1] === "'") i++;
      else return i;
    } else if (quote === '"') {
      if (c === "\\") i++;
      else if (c === '"') return i;
    }
  }
  return -1;
}

// YAML's white space is the space (tabs send the text to readYaml): not String.trim's Unicode spaces.
export function indentOf(line: string): number {
  let n = 0;
  while (line.charCodeAt(n) === 0x20) n++;
  return n;
}
export const isBlank = (line: string): boolean => indentOf(line) === line.length;
const trimStart = (s: string): string => s.replace(/^ +/, "");
const trimEnd = (s: string): string => s.replace(/ +$/, "");

/** What comes after a scalar on its last line: nothing, or a comment. */
export function restIsEmpty(rest: string): boolean {
  const t = trimStart(rest);
  return t === "" || (t.startsWith("#") && t.length < rest.length);
}

/**
 * A quoted scalar starting at `lines[at]` column `col` (its quote), over as many lines as it takes, each line after
 * the first indented beyond `parentIndent`; folded as YAML folds flow scalars (a line break is a space, an empty
 * line a line break). Returns the value and the line it ends on.
 */
export function quotedScalar(lines: readonly string[], at: number, col: number, parentIndent: number): { value: string; end: number; after: string } {
  const quote = lines[at]![col]!;
  const parts: string[] = [];
  let start = col + 1;
  for (let i = at; i < lines.length; i++) {
    const line = lines[i]!;
    if (i > at && !isBlank(line) && (indentOf(line) <= parentIndent || /^(?:---|\.\.\.)(?:\s|$)/.test(line))) outside("a quoted scalar out of its block");
    const close = closingQuote(line, start, quote);
    if (close < 0) {
      parts.push(line.slice(start));
      start = 0;
      continue;
    }
    parts.push(line.slice(start, close));
    return { value: foldQuoted(parts, quote), end: i, after: line.slice(close + 1) };
  }
  return outside("a quoted scalar without its closing quote");
}

function foldQuoted(parts: string[], quote: string): string {
  const unescape = quote === '"' ? unescapeDouble : (s: string) => s.replace(/''/g, "'");
  if (parts.length === 1) return unescape(parts[0]!);
  let out = "";
  let breaks = 0;
  parts.forEach((part, k) => {
    let text = k === 0 ? part : trimStart(part);
    if (k < parts.length - 1) {
      text = trimEnd(text);
      // An escaped line break (a backslash ending the line) or an escaped space before it: left to readYaml.
      if (quote === '"' && /\\$/.test(text)) outside("an escaped line break");
    }
    if (k > 0 && k < parts.length - 1 && text === "") {
      breaks++;
      return;
    }
    if (k > 0) out += breaks > 0 ? "\n".repeat(breaks) : " ";
    breaks = 0;
    out += text;
  });
  return unescape(out);
}

/**
 * A literal block scalar (`|`, `|-`, `|+`) whose header ends `lines[at]`, its content indented beyond `parentIndent`
 * by as much as its first line; `chomp` its chomping indicator. Returns the value and the last line it holds.
 */
export function literalScalar(lines: readonly string[], at: number, parentIndent: number, chomp: string, endsWithNewline: boolean): { value: string; end: number } {
  let i = at + 1;
  let leading = 0;
  while (i < lines.length && isBlank(lines[i]!)) leading = Math.max(leading, lines[i++]!.length);
  const indent = i < lines.length ? indentOf(lines[i]!) : 0;
  if (indent <= parentIndent || leading > indent) outside("a literal scalar without content, or with more indented empty lines first");
  const content: string[] = [];
  for (let k = at + 1; k < i; k++) content.push("");
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    if (isBlank(line)) {
      if (line.length > indent) outside("a literal scalar's line of spaces only");
      content.push("");
    } else if (indentOf(line) >= indent) content.push(line.slice(indent));
    else break;
  }
  if (i === lines.length && !endsWithNewline) outside("a literal scalar ending the text without a line break");
  let trailing = 0;
  while (content.length > 0 && content[content.length - 1] === "") {
    content.pop();
    trailing++;
  }
  const body = content.join("\n");
  const value = chomp === "-" ? body : chomp === "+" ? `${body}\n${"\n".repeat(trailing)}` : `${body}\n`;
  return { value, end: i - 1 };
}
