import { indentOf, isBlank, literalScalar, OutsideBlockSubset, plainValue, quotedScalar, restIsEmpty } from "./block-yaml-scalars";

// A fast reader for YAML in block style, as SnakeYAML's dumper writes an export (and the emulator's yaml.stringify):
// mappings and sequences by indentation, plain, quoted and literal scalars, `[]` and `{}`, comments. It gives the
// value readYaml + cascToJs give (YAML 1.1, a single document), or undefined for any text that leaves that shape
// (flow collections, anchors and aliases, tags, merge keys, a key set twice, folded scalars, tabs, several documents,
// anything invalid): the caller reads that text with readYaml. The yaml library builds a document of nodes and
// readYaml a tree with origins; a fresh provider process (one per deployment) pays both cold, ten times this reader.
// Linear in the text; nesting and values are bounded as they are read.

export interface BlockYamlLimits {
  /** Deepest nesting of mappings and sequences. */
  maxDepth: number;
  /** Most values (mappings, sequences and scalars), as readYaml counts them. */
  maxValues: number;
}

export type BlockYamlRead = { ok: true; value: unknown } | { ok: false; error: string; line: number } | undefined;

class LimitPassed extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

/** Characters that send the whole text to readYaml: tabs, carriage returns, a BOM, C0/C1 controls, YAML 1.1 line breaks. */
const OUTSIDE_CHARACTERS = /[\t\r\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ufeff]/;
/** What a plain scalar may not start with (YAML 1.2 [22] c-indicator), unless `-`, `?` or `:` before a non-space. */
const INDICATOR = /^(?:[,[\]{}#&*!|>'"%@`]|[-?:](?: |$))/;
const isEntry = (content: string): boolean => content === "-" || content.startsWith("- ");

function setKey(into: Record<string, unknown>, key: string, value: unknown): void {
  // As Object.fromEntries (cascToJs) sets it: `__proto__` an own key, not the prototype.
  if (key === "__proto__") Object.defineProperty(into, key, { value, enumerable: true, writable: true, configurable: true });
  else into[key] = value;
}

class Reader {
  private i = 0;
  private values = 0;

  constructor(
    private readonly lines: string[],
    private readonly endsWithNewline: boolean,
    private readonly limits: BlockYamlLimits,
  ) {}

  document(): unknown {
    this.skipBlank();
    if (this.i < this.lines.length && /^---(?: +#.*| *)$/.test(this.lines[this.i]!)) {
      this.i++;
      this.skipBlank();
    }
    if (this.i === this.lines.length) return null;
    const value = this.block(-1, 0);
    this.skipBlank();
    if (this.i < this.lines.length) throw new OutsideBlockSubset("more than one node, a document marker or a line out of place");
    return value;
  }

  /** Past empty lines and comment lines. */
  private skipBlank(): void {
    while (this.i < this.lines.length && (isBlank(this.lines[this.i]!) || /^ *#/.test(this.lines[this.i]!))) this.i++;
  }

  /** One value more, at `depth` (the top's 0); a mapping or sequence at maxDepth is one level too deep. */
  private count(depth: number, collection: boolean, line = this.i + 1): void {
    if (++this.values > this.limits.maxValues) throw new LimitPassed(`it holds more than ${this.limits.maxValues} values`, line);
    if (collection && depth >= this.limits.maxDepth) throw new LimitPassed(`it is nested deeper than ${this.limits.maxDepth} levels`, line);
  }

  /** The current line of a collection indented `indent`, or undefined past its end; a line out of place is outside. */
  private lineOf(indent: number): string | undefined {
    this.skipBlank();
    const line = this.lines[this.i];
    if (line === undefined) return undefined;
    const at = indentOf(line);
    if (at === 0 && /^(?:---|\.\.\.)/.test(line)) throw new OutsideBlockSubset("a document marker");
    if (at > indent) throw new OutsideBlockSubset("a line indented beyond its collection");
    return at < indent ? undefined : line.slice(indent);
  }

  /** The mapping or sequence starting on the current line, indented beyond `parent`. */
  private block(parent: number, depth: number): unknown {
    const line = this.lines[this.i]!;
    const indent = indentOf(line);
    if (indent <= parent || /^(?:---|\.\.\.|%)/.test(line)) throw new OutsideBlockSubset("a node out of place");
    const content = line.slice(indent);
    if (isEntry(content)) return this.sequence(indent, depth);
    if (keyOf(content) !== undefined) return this.mapping(indent, depth);
    throw new OutsideBlockSubset("a scalar on a line of its own");
  }

  private mapping(indent: number, depth: number): Record<string, unknown> {
    this.count(depth, true);
    const map: Record<string, unknown> = {};
    const seen = new Set<string>();
    for (let content = this.lineOf(indent); content !== undefined; content = this.lineOf(indent)) {
      const key = isEntry(content) ? undefined : keyOf(content);
      if (key === undefined || key.text === "<<" || seen.has(key.text)) throw new OutsideBlockSubset("not a key, a merge key or a key set twice");
      seen.add(key.text);
      setKey(map, key.text, this.value(content.slice(key.end), indent, indent + key.end, depth + 1, true));
    }
    return map;
  }

  private sequence(indent: number, depth: number): unknown[] {
    this.count(depth, true);
    const list: unknown[] = [];
    for (let content = this.lineOf(indent); content !== undefined && isEntry(content); content = this.lineOf(indent)) {
      const rest = content.slice(1);
      const column = indent + 1 + indentOf(rest);
      const inner = rest.replace(/^ +/, "");
      if (isEntry(inner) || keyOf(inner) !== undefined) {
        // `- key: value` and `- - item`: the same node as if it started on a line of its own, at its column.
        this.lines[this.i] = " ".repeat(column) + inner;
        list.push(this.block(indent, depth + 1));
      } else list.push(this.value(rest, indent, indent + 1, depth + 1, false));
    }
    return list;
  }

  /**
   * The value after `key:` or `- ` (`rest`, at `column` of the current line) of a collection indented `indent`. On
   * a later line: a block indented more, or (after a key) a sequence at the key's own indentation, as SnakeYAML
   * writes `key:\n- item`. Leaves the current line past the value.
   */
  private value(rest: string, indent: number, column: number, depth: number, afterKey: boolean): unknown {
    const text = rest.replace(/^ +/, "");
    const at = column + (rest.length - text.length);
    const line = this.i + 1;
    if (restIsEmpty(rest)) {
      this.i++;
      this.skipBlank();
      const next = this.lines[this.i];
      if (next !== undefined && indentOf(next) > indent) return this.block(indent, depth);
      if (next !== undefined && afterKey && indentOf(next) === indent && isEntry(next.slice(indent))) return this.sequence(indent, depth);
      return this.scalar(null, depth, line);
    }
    const literal = /^\|([+-]?)(?: +#.*| *)$/.exec(text);
    if (literal) {
      const read = literalScalar(this.lines, this.i, indent, literal[1]!, this.endsWithNewline);
      this.i = read.end + 1;
      return this.scalar(read.value, depth, line);
    }
    if (text[0] === '"' || text[0] === "'") {
      const read = quotedScalar(this.lines, this.i, at, indent);
      if (!restIsEmpty(read.after)) throw new OutsideBlockSubset("text after a quoted scalar");
      this.i = read.end + 1;
      return this.scalar(read.value, depth, line);
    }
    const empty = /^(\[\]|\{\})(?: +#.*| *)$/.exec(text);
    if (empty) {
      this.i++;
      this.count(depth, true);
      return empty[1] === "[]" ? [] : {};
    }
    if (INDICATOR.test(text)) throw new OutsideBlockSubset("a flow collection, an anchor, an alias, a tag or a folded scalar");
    return this.scalar(plainValue(this.plain(text, indent)), depth, line);
  }

  private scalar<T>(value: T, depth: number, line: number): T {
    this.count(depth, false, line);
    return value;
  }

  /** A plain scalar starting with `first` on the current line, continued on lines indented beyond `indent`. */
  private plain(first: string, indent: number): string {
    let text = plainLine(first);
    this.i++;
    for (let k = this.i, breaks = 0; k < this.lines.length; k++) {
      const line = this.lines[k]!;
      if (isBlank(line)) {
        breaks++;
        continue;
      }
      const content = line.replace(/^ +/, "");
      if (indentOf(line) <= indent || content.startsWith("#")) break;
      if (INDICATOR.test(content)) throw new OutsideBlockSubset("a plain scalar's line that starts like a node");
      text += (breaks > 0 ? "\n".repeat(breaks) : " ") + plainLine(content);
      breaks = 0;
      this.i = k + 1;
    }
    return text;
  }
}

/** One line of a plain scalar: up to a comment, without trailing spaces; a `: ` in it is a key readYaml refuses. */
function plainLine(text: string): string {
  const comment = text.indexOf(" #");
  const value = (comment < 0 ? text : text.slice(0, comment)).replace(/ +$/, "");
  if (value.includes(": ") || value.endsWith(":")) throw new OutsideBlockSubset("a key where a value was expected");
  return value;
}

/**
 * The key a line's content starts with (plain, or quoted on one line) and where its value starts (after the `:`);
 * undefined when the content is no `key:` line.
 */
function keyOf(content: string): { text: string; end: number } | undefined {
  if (content[0] === '"' || content[0] === "'") {
    let read: ReturnType<typeof quotedScalar>;
    try {
      read = quotedScalar([content], 0, 0, -1);
    } catch (e) {
      if (e instanceof OutsideBlockSubset) return undefined;
      throw e;
    }
    const colon = content.length - read.after.length;
    return /^:(?: |$)/.test(read.after) ? { text: read.value, end: colon + 1 } : undefined;
  }
  if (INDICATOR.test(content)) return undefined;
  const colon = content.search(/:(?: |$)/);
  if (colon < 0) return undefined;
  const key = content.slice(0, colon).replace(/ +$/, "");
  if (key === "" || content.slice(0, colon).includes(" #") || key.length > 1024) return undefined;
  return { text: key, end: colon + 1 };
}

/** The text's value if it is block YAML within `limits`, an error if it passes them, undefined if it is not block YAML. */
export function readBlockYaml(text: string, limits: BlockYamlLimits): BlockYamlRead {
  if (OUTSIDE_CHARACTERS.test(text)) return undefined;
  const endsWithNewline = text.endsWith("\n");
  const lines = text.split("\n");
  if (endsWithNewline) lines.pop();
  try {
    return { ok: true, value: new Reader(lines, endsWithNewline, limits).document() };
  } catch (e) {
    if (e instanceof LimitPassed) return { ok: false, error: e.message, line: e.line };
    if (e instanceof OutsideBlockSubset) return undefined;
    throw e;
  }
}
