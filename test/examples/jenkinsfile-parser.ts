/**
 * A tokenizer and parser for the subset of Groovy that a declarative Jenkinsfile uses, so that the test of
 * examples/pipelines/Jenkinsfile can check its syntax and its structure without a JVM:
 *
 * - comments `// ...` and `/* ... *\/`;
 * - identifiers, dotted names (`env.STACK`), numbers, `true` / `false` / `null`;
 * - strings: '...' and "..." on one line, '''...''' and """...""" over several, with backslash escapes; in the
 *   double-quoted ones `${expr}` and `$name.name` interpolations (kept as text);
 * - statements, one a line or separated by `;`:
 *     name(args) { block }    name(args)    name { block }    name arg, key: value    name = expr
 *   where an argument is `key: expr` or `expr`, and an expression is a literal, a name or a call `name(args)`.
 *
 * Anything else (operators, closures with parameters, lists, slashy strings...) is an unexpected token. Every error
 * is a JenkinsfileSyntaxError whose message starts with `line N:`: unbalanced braces, parentheses or brackets,
 * unterminated strings, interpolations or comments, and unexpected tokens.
 */

export class JenkinsfileSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
    this.name = "JenkinsfileSyntaxError";
  }
}

export type Token =
  | { type: "ident"; value: string; line: number }
  | { type: "number"; value: string; line: number }
  | { type: "string"; value: string; quote: "'" | '"' | "'''" | '"""'; interpolations: string[]; line: number }
  | { type: "punct"; value: "(" | ")" | "{" | "}" | "[" | "]" | "," | ":" | "=" | ";" | "."; line: number }
  | { type: "other"; value: string; line: number }
  | { type: "newline"; line: number }
  | { type: "eof"; line: number };

export type Expr =
  | { kind: "string"; value: string; quote: string; interpolations: string[]; line: number }
  | { kind: "number"; value: number; line: number }
  | { kind: "boolean"; value: boolean; line: number }
  | { kind: "null"; line: number }
  | { kind: "name"; name: string; line: number }
  | { kind: "call"; name: string; args: Arg[]; line: number };

export interface Arg {
  /** For a named argument (`time: 30`). */
  name?: string;
  value: Expr;
}

export type Statement =
  | { kind: "call"; name: string; args: Arg[]; block?: Statement[]; line: number }
  | { kind: "assign"; name: string; value: Expr; line: number };

const OPENERS: Record<string, string> = { "(": ")", "{": "}", "[": "]" };
const CLOSERS: Record<string, string> = { ")": "(", "}": "{", "]": "[" };
const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", "\\": "\\", "'": "'", '"': '"', $: "$" };

/** The tokens of `src`; brackets are checked for balance here, so that the error names the opener's line. */
export function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  const open: { ch: string; line: number }[] = [];
  let i = 0;
  let line = 1;
  const peek = (k = 0) => src[i + k] ?? "";

  while (i < src.length) {
    const c = src[i];
    if (c === "\n") {
      tokens.push({ type: "newline", line });
      line++;
      i++;
    } else if (c === " " || c === "\t" || c === "\r") {
      i++;
    } else if (c === "\\" && (peek(1) === "\n" || (peek(1) === "\r" && peek(2) === "\n"))) {
      // A line continuation.
      i += peek(1) === "\n" ? 2 : 3;
      line++;
    } else if (c === "/" && peek(1) === "/") {
      while (i < src.length && src[i] !== "\n") i++;
    } else if (c === "/" && peek(1) === "*") {
      const start = line;
      const end = src.indexOf("*/", i + 2);
      if (end < 0) throw new JenkinsfileSyntaxError(start, "unterminated /* comment");
      for (let k = i; k < end; k++) if (src[k] === "\n") line++;
      i = end + 2;
    } else if (c === "'" || c === '"') {
      const r = readString(src, i, line);
      tokens.push({ type: "string", value: r.value, quote: r.quote, interpolations: r.interpolations, line });
      line = r.endLine;
      i = r.end;
    } else if (/[A-Za-z_$]/.test(c)) {
      let j = i + 1;
      while (j < src.length && /[A-Za-z0-9_$]/.test(src[j])) j++;
      tokens.push({ type: "ident", value: src.slice(i, j), line });
      i = j;
    } else if (/[0-9]/.test(c)) {
      const m = /^[0-9]+(\.[0-9]+)?/.exec(src.slice(i))!;
      tokens.push({ type: "number", value: m[0], line });
      i += m[0].length;
    } else if (c in OPENERS) {
      open.push({ ch: c, line });
      tokens.push({ type: "punct", value: c as "(", line });
      i++;
    } else if (c in CLOSERS) {
      const top = open.pop();
      if (!top) throw new JenkinsfileSyntaxError(line, `unexpected '${c}': nothing is open`);
      if (top.ch !== CLOSERS[c]) throw new JenkinsfileSyntaxError(line, `'${c}' closes the '${top.ch}' opened on line ${top.line}`);
      tokens.push({ type: "punct", value: c as ")", line });
      i++;
    } else if (",:=;.".includes(c) && !(c === "=" && peek(1) === "=")) {
      tokens.push({ type: "punct", value: c as ",", line });
      i++;
    } else {
      tokens.push({ type: "other", value: c, line });
      i++;
    }
  }
  if (open.length > 0) {
    const top = open[open.length - 1];
    throw new JenkinsfileSyntaxError(top.line, `'${top.ch}' is never closed`);
  }
  tokens.push({ type: "eof", line });
  return tokens;
}

interface StringRead {
  value: string;
  quote: "'" | '"' | "'''" | '"""';
  interpolations: string[];
  end: number;
  endLine: number;
}

function readString(src: string, start: number, startLine: number): StringRead {
  const q = src[start];
  const triple = src.startsWith(q.repeat(3), start);
  const quote = (triple ? q.repeat(3) : q) as StringRead["quote"];
  const interpolating = q === '"';
  const kind = triple ? `${quote} string` : `${q === "'" ? "single" : "double"}-quoted string`;
  let i = start + quote.length;
  let line = startLine;
  let value = "";
  const interpolations: string[] = [];
  for (;;) {
    if (i >= src.length) throw new JenkinsfileSyntaxError(startLine, `unterminated ${kind}`);
    const c = src[i];
    if (src.startsWith(quote, i)) return { value, quote, interpolations, end: i + quote.length, endLine: line };
    if (c === "\n") {
      if (!triple) throw new JenkinsfileSyntaxError(startLine, `unterminated ${kind} (a newline before its closing ${quote})`);
      line++;
      value += c;
      i++;
    } else if (c === "\\") {
      const n = src[i + 1];
      if (n === undefined) throw new JenkinsfileSyntaxError(startLine, `unterminated ${kind}`);
      if (n === "\n") {
        // A line continuation: nothing is added.
        line++;
        i += 2;
      } else if (n === "u") {
        const hex = src.slice(i + 2, i + 6);
        if (!/^[0-9A-Fa-f]{4}$/.test(hex)) throw new JenkinsfileSyntaxError(line, `bad escape \\u${hex} in a string`);
        value += String.fromCharCode(parseInt(hex, 16));
        i += 6;
      } else if (n in ESCAPES) {
        value += ESCAPES[n];
        i += 2;
      } else {
        throw new JenkinsfileSyntaxError(line, `bad escape \\${n} in a string`);
      }
    } else if (interpolating && c === "$" && src[i + 1] === "{") {
      const r = readInterpolation(src, i + 2, line, startLine);
      interpolations.push(r.expr);
      value += "${" + r.expr + "}";
      line = r.endLine;
      i = r.end;
    } else if (interpolating && c === "$" && /[A-Za-z_]/.test(src[i + 1] ?? "")) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*/.exec(src.slice(i + 1))!;
      interpolations.push(m[0]);
      value += "$" + m[0];
      i += 1 + m[0].length;
    } else {
      value += c;
      i++;
    }
  }
}

/** From just after `${` to just after its `}`, skipping nested braces and quoted strings. */
function readInterpolation(src: string, start: number, line: number, stringLine: number): { expr: string; end: number; endLine: number } {
  let depth = 0;
  let i = start;
  while (i < src.length) {
    const c = src[i];
    if (c === "\n") line++;
    if (c === "'" || c === '"') {
      const r = readString(src, i, line);
      i = r.end;
      line = r.endLine;
      continue;
    }
    if (c === "{") depth++;
    if (c === "}") {
      if (depth === 0) {
        const expr = src.slice(start, i).trim();
        if (expr === "") throw new JenkinsfileSyntaxError(line, "empty ${} in a string");
        return { expr, end: i + 1, endLine: line };
      }
      depth--;
    }
    i++;
  }
  throw new JenkinsfileSyntaxError(stringLine, "unterminated ${ in a string");
}

/** The statements of a Jenkinsfile; throws a JenkinsfileSyntaxError on anything outside the subset. */
export function parseJenkinsfile(src: string): Statement[] {
  const toks = tokenize(src);
  let p = 0;
  const cur = () => toks[p];
  const describe = (t: Token) =>
    t.type === "eof" ? "end of file" : t.type === "newline" ? "end of line" : t.type === "string" ? `string ${t.quote}${t.value.slice(0, 20)}${t.quote}` : `'${t.value}'`;
  const unexpected = (t: Token, expected: string): never => {
    throw new JenkinsfileSyntaxError(t.line, `unexpected ${describe(t)}, expected ${expected}`);
  };
  const isPunct = (t: Token, v: string) => t.type === "punct" && t.value === v;
  const skipNewlines = () => {
    while (cur().type === "newline") p++;
  };
  const expectPunct = (v: string) => {
    const t = cur();
    if (!isPunct(t, v)) unexpected(t, `'${v}'`);
    p++;
  };

  /** `a.b.c`, from an identifier. */
  const dottedName = (): string => {
    const t = cur();
    if (t.type !== "ident") return unexpected(t, "a name");
    p++;
    let name = t.value;
    while (isPunct(cur(), ".")) {
      p++;
      const n = cur();
      if (n.type !== "ident") return unexpected(n, "a name after '.'");
      name += "." + n.value;
      p++;
    }
    return name;
  };

  const expression = (): Expr => {
    const t = cur();
    if (t.type === "string") {
      p++;
      return { kind: "string", value: t.value, quote: t.quote, interpolations: t.interpolations, line: t.line };
    }
    if (t.type === "number") {
      p++;
      return { kind: "number", value: Number(t.value), line: t.line };
    }
    if (t.type === "ident") {
      if (t.value === "true" || t.value === "false") {
        p++;
        return { kind: "boolean", value: t.value === "true", line: t.line };
      }
      if (t.value === "null") {
        p++;
        return { kind: "null", line: t.line };
      }
      const name = dottedName();
      if (isPunct(cur(), "(")) return { kind: "call", name, args: parenArgs(), line: t.line };
      return { kind: "name", name, line: t.line };
    }
    return unexpected(t, "a value");
  };

  /** `key: expr` or `expr`. */
  const argument = (): Arg => {
    const t = cur();
    if (t.type === "ident" && isPunct(toks[p + 1], ":")) {
      p += 2;
      return { name: t.value, value: expression() };
    }
    if (t.type === "string" && isPunct(toks[p + 1], ":")) {
      p += 2;
      return { name: t.value, value: expression() };
    }
    return { value: expression() };
  };

  /** `( args )`, newlines allowed inside. */
  const parenArgs = (): Arg[] => {
    expectPunct("(");
    const args: Arg[] = [];
    skipNewlines();
    if (isPunct(cur(), ")")) {
      p++;
      return args;
    }
    for (;;) {
      skipNewlines();
      args.push(argument());
      skipNewlines();
      if (isPunct(cur(), ",")) {
        p++;
        continue;
      }
      expectPunct(")");
      return args;
    }
  };

  /** A command's arguments without parentheses: on the statement's line, after a comma on the next ones. */
  const commandArgs = (): Arg[] => {
    const args: Arg[] = [argument()];
    while (isPunct(cur(), ",")) {
      p++;
      skipNewlines();
      args.push(argument());
    }
    return args;
  };

  const endOfStatement = () => {
    const t = cur();
    if (t.type === "newline" || isPunct(t, ";")) {
      p++;
      return;
    }
    if (t.type === "eof" || isPunct(t, "}")) return;
    unexpected(t, "the end of the statement");
  };

  const startsValue = (t: Token) => t.type === "string" || t.type === "number" || t.type === "ident";

  const statement = (): Statement => {
    const t = cur();
    if (t.type !== "ident") return unexpected(t, "a statement");
    const name = dottedName();
    if (isPunct(cur(), "=")) {
      p++;
      const value = expression();
      endOfStatement();
      return { kind: "assign", name, value, line: t.line };
    }
    let args: Arg[] = [];
    let block: Statement[] | undefined;
    if (isPunct(cur(), "(")) args = parenArgs();
    else if (startsValue(cur())) args = commandArgs();
    if (isPunct(cur(), "{")) block = blockBody();
    endOfStatement();
    return { kind: "call", name, args, block, line: t.line };
  };

  /** `{ statements }`. */
  const blockBody = (): Statement[] => {
    expectPunct("{");
    const body = statements();
    expectPunct("}");
    return body;
  };

  const statements = (): Statement[] => {
    const out: Statement[] = [];
    for (;;) {
      while (cur().type === "newline" || isPunct(cur(), ";")) p++;
      const t = cur();
      if (t.type === "eof" || isPunct(t, "}")) return out;
      out.push(statement());
    }
  };

  const tree = statements();
  if (cur().type !== "eof") unexpected(cur(), "a statement");
  return tree;
}

/** The calls named `name` directly in `body` (e.g. the `stage`s of `stages`). */
export function calls(body: Statement[] | undefined, name: string): Extract<Statement, { kind: "call" }>[] {
  return (body ?? []).filter((s): s is Extract<Statement, { kind: "call" }> => s.kind === "call" && s.name === name);
}

/** The one call named `name` in `body`, or an error naming what is there instead. */
export function block(body: Statement[] | undefined, name: string): Extract<Statement, { kind: "call" }> {
  const found = calls(body, name);
  if (found.length !== 1) {
    const names = (body ?? []).map((s) => s.name).join(", ");
    throw new Error(`expected one '${name}' in [${names}], found ${found.length}`);
  }
  return found[0];
}

/** Every call anywhere under `body`, depth first, with those in arguments (e.g. `credentials(...)` in an assignment). */
export function allCalls(body: Statement[] | undefined): { name: string; args: Arg[]; line: number }[] {
  const out: { name: string; args: Arg[]; line: number }[] = [];
  const fromExpr = (e: Expr) => {
    if (e.kind !== "call") return;
    out.push(e);
    e.args.forEach((a) => fromExpr(a.value));
  };
  for (const s of body ?? []) {
    if (s.kind === "assign") fromExpr(s.value);
    else {
      out.push(s);
      s.args.forEach((a) => fromExpr(a.value));
      out.push(...allCalls(s.block));
    }
  }
  return out;
}
