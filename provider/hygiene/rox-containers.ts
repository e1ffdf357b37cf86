/**
 * The vendor SDK's namespaced flag names, read from JavaScript and TypeScript sources (issue 64, code references).
 *
 * rox-node 6.0.16 (node_modules/rox-node/dist/rox-node.js, `register(name, container)` and RoxClassRegister's
 * `handleContainer`): `Rox.register(namespace, container)` names each own property `prop` of the container whose
 * value is a flag (an entity: Flag, RoxString, RoxNumber) `${namespace}.${prop}`, or `prop` alone when the namespace
 * is empty; `Rox.register(container)` is `register("", container)`. Its README registers an object literal
 * (`Rox.register('settingsNamespace', appSettingsContainer)`).
 *
 * Read here, token by token (comments skipped, strings kept), in linear time:
 * - registrations: `register("ns", {a, b: ...})` (the literal's own keys), `register("ns", name)` and
 *   `register("ns", new Class())`, and the same without a namespace;
 * - containers a registration may name: `name = {...}` (`const`, `let`, `var`, typed or not), `class Name {...}`
 *   (its fields `key = ...` / `key: Type = ...`, and `this.key = ...` in its body), and `name = new Class(...)`.
 * A registration by name is resolved in its own file first, then in every file read. A namespace that is not a
 * string literal is not resolved; a regular-expression literal holding a quote may hide the rest of its line.
 */

export interface ContainerKey {
  key: string;
  /** 1-based; the column counts UTF-16 code units, and points into the quotes of a quoted key. */
  line: number;
  column: number;
}

export type ContainerRef = { inline: ContainerKey[] } | { name: string } | { className: string };

export interface Registration {
  namespace: string;
  container: ContainerRef;
}

export interface Declaration {
  name: string;
  kind: "object" | "class";
  keys: ContainerKey[];
}

export interface RoxFacts {
  registrations: Registration[];
  declarations: Declaration[];
  /** `name = new Class(...)`: name -> Class. */
  instances: Map<string, string>;
}

interface Tok {
  t: "id" | "str" | "p";
  v: string;
  line: number;
  col: number;
}

/** Whether a file's bytes may hold a registration or a container: its text is read only then. */
export function mightHoldContainers(bytes: Buffer): boolean {
  return bytes.includes("register") || bytes.includes("Rox") || bytes.includes("Flag");
}

const isIdStart = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36 || c >= 128;
const isIdPart = (c: number) => isIdStart(c) || (c >= 48 && c <= 57);

/** Identifiers, strings (their raw text) and punctuation; comments, numbers and white space dropped. */
export function tokens(text: string): Tok[] {
  const out: Tok[] = [];
  const n = text.length;
  let line = 1;
  let lineStart = 0;
  let i = 0;
  const newline = (at: number) => {
    line++;
    lineStart = at + 1;
  };
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      newline(i);
      i++;
    } else if (c === 32 || c === 9 || c === 13) i++;
    else if (c === 47 && text.charCodeAt(i + 1) === 47) {
      while (i < n && text.charCodeAt(i) !== 10) i++;
    } else if (c === 47 && text.charCodeAt(i + 1) === 42) {
      const end = text.indexOf("*/", i + 2);
      const stop = end < 0 ? n : end + 2;
      for (let j = i; j < stop; j++) if (text.charCodeAt(j) === 10) newline(j);
      i = stop;
    } else if (c === 34 || c === 39 || c === 96) {
      // A quote or a template: to its unescaped end (a quote ends at its line's end as well).
      const startLine = line;
      const col = i - lineStart + 2;
      let j = i + 1;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === 92) j += 2;
        else if (d === c) break;
        else if (d === 10) {
          if (c !== 96) break;
          newline(j);
          j++;
        } else j++;
      }
      out.push({ t: "str", v: text.slice(i + 1, Math.min(j, n)), line: startLine, col });
      i = j + 1;
    } else if (isIdStart(c)) {
      let j = i + 1;
      while (j < n && isIdPart(text.charCodeAt(j))) j++;
      out.push({ t: "id", v: text.slice(i, j), line, col: i - lineStart + 1 });
      i = j;
    } else if (c >= 48 && c <= 57) {
      while (i < n && isIdPart(text.charCodeAt(i))) i++;
    } else {
      out.push({ t: "p", v: text[i]!, line, col: i - lineStart + 1 });
      i++;
    }
  }
  return out;
}

const OPEN = new Set(["{", "(", "["]);
const CLOSE = new Set(["}", ")", "]"]);
const MODIFIERS = new Set(["public", "private", "protected", "readonly", "static", "declare", "override", "accessor"]);

const is = (tok: Tok | undefined, t: Tok["t"], v?: string) => tok !== undefined && tok.t === t && (v === undefined || tok.v === v);

/**
 * The keys `keyAt` picks in the balanced body opening at `toks[at]` (`{`), up to its `}`: it is given each token
 * that is no bracket, with its depth (1: the body's own level).
 */
function bodyKeys(toks: Tok[], at: number, keyAt: (k: number, depth: number) => Tok | undefined): ContainerKey[] {
  const keys: ContainerKey[] = [];
  let depth = 0;
  for (let k = at; k < toks.length; k++) {
    const tok = toks[k]!;
    if (tok.t === "p" && OPEN.has(tok.v)) depth++;
    else if (tok.t === "p" && CLOSE.has(tok.v)) {
      if (--depth === 0) break;
    } else {
      const key = keyAt(k, depth);
      if (key) keys.push({ key: key.v, line: key.line, column: key.col });
    }
  }
  return keys;
}

/** The own keys of the object literal opening at `toks[at]`: `key:`, `"key":` and shorthand `key,` / `key }`. */
function objectKeys(toks: Tok[], at: number): ContainerKey[] {
  return bodyKeys(toks, at, (k, depth) => {
    const tok = toks[k]!;
    if (depth !== 1 || (tok.t !== "id" && tok.t !== "str") || !(is(toks[k - 1], "p", "{") || is(toks[k - 1], "p", ","))) return undefined;
    const next = toks[k + 1];
    return is(next, "p", ":") || is(next, "p", ",") || is(next, "p", "}") ? tok : undefined;
  });
}

/** The fields of the class body opening at `toks[at]`: `key = `, `key: Type`, `key!:`, and `this.key = ` inside it. */
function classKeys(toks: Tok[], at: number): ContainerKey[] {
  return bodyKeys(toks, at, (k, depth) => {
    const tok = toks[k]!;
    if (tok.t === "id" && tok.v === "this" && is(toks[k + 1], "p", ".") && is(toks[k + 2], "id") && is(toks[k + 3], "p", "=") && !is(toks[k + 4], "p", "=")) return toks[k + 2];
    if (depth !== 1 || (tok.t !== "id" && tok.t !== "str") || MODIFIERS.has(tok.v)) return undefined;
    // A field starts a member: after the body's `{`, a `;`, a member's `}`, a modifier, or on a line of its own.
    const prev = toks[k - 1]!;
    const starts = k - 1 === at || is(prev, "p", ";") || is(prev, "p", "}") || (prev.t === "id" && MODIFIERS.has(prev.v)) || prev.line < tok.line;
    let next = k + 1;
    if (is(toks[next], "p", "!") || is(toks[next], "p", "?")) next++;
    return starts && (is(toks[next], "p", "=") || is(toks[next], "p", ":") || is(toks[next], "p", ";")) ? tok : undefined;
  });
}

/** The name a `=` at `toks[at]` assigns: `const name: Type = ` or `name = ` (`a.b.name = ` too). */
function assignedName(toks: Tok[], at: number): string | undefined {
  // Back to `const`/`let`/`var` over a type annotation (whose `<...>` may hold commas), at most 32 tokens.
  let angles = 0;
  for (let k = at - 1; k >= Math.max(0, at - 32); k--) {
    const tok = toks[k]!;
    if (tok.t === "id" && (tok.v === "const" || tok.v === "let" || tok.v === "var")) return is(toks[k + 1], "id") ? toks[k + 1]!.v : undefined;
    if (tok.t !== "p") continue;
    if (tok.v === ">") angles++;
    else if (tok.v === "<") angles--;
    else if (tok.v === ";" || tok.v === "{" || tok.v === "}" || tok.v === "(" || tok.v === "=" || (tok.v === "," && angles <= 0)) break;
  }
  return is(toks[at - 1], "id") ? toks[at - 1]!.v : undefined;
}

/** The registrations, containers and instances of a source text. */
export function roxFacts(text: string): RoxFacts {
  const toks = tokens(text);
  const facts: RoxFacts = { registrations: [], declarations: [], instances: new Map() };
  for (let k = 0; k < toks.length; k++) {
    const tok = toks[k]!;
    if (tok.t === "id" && tok.v === "register" && is(toks[k + 1], "p", "(")) {
      let at = k + 2;
      let namespace = "";
      if (is(toks[at], "str") && is(toks[at + 1], "p", ",")) {
        namespace = toks[at]!.v;
        at += 2;
      }
      const target = toks[at];
      if (is(target, "p", "{")) facts.registrations.push({ namespace, container: { inline: objectKeys(toks, at) } });
      else if (is(target, "id", "new") && is(toks[at + 1], "id")) facts.registrations.push({ namespace, container: { className: toks[at + 1]!.v } });
      else if (is(target, "id")) {
        // `register(a.b.flags)`: the last name before `)`.
        while (is(toks[at + 1], "p", ".") && is(toks[at + 2], "id")) at += 2;
        if (is(toks[at + 1], "p", ")")) facts.registrations.push({ namespace, container: { name: toks[at]!.v } });
      }
    } else if (tok.t === "id" && tok.v === "class" && is(toks[k + 1], "id")) {
      let open = k + 2;
      while (open < toks.length && open < k + 64 && !is(toks[open], "p", "{")) open++;
      if (is(toks[open], "p", "{")) facts.declarations.push({ name: toks[k + 1]!.v, kind: "class", keys: classKeys(toks, open) });
    } else if (is(tok, "p", "=") && !is(toks[k - 1], "p", "=") && !is(toks[k - 1], "p", "!")) {
      const next = toks[k + 1];
      const name = is(next, "p", "{") || is(next, "id", "new") ? assignedName(toks, k) : undefined;
      if (name === undefined) continue;
      if (is(next, "p", "{")) facts.declarations.push({ name, kind: "object", keys: objectKeys(toks, k + 1) });
      else if (is(toks[k + 2], "id")) facts.instances.set(name, toks[k + 2]!.v);
    }
  }
  return facts;
}

/** One container key that a registration makes a flag: the file it stands in (an index into the facts read). */
export interface NamespacedKey {
  file: number;
  flag: string;
  key: ContainerKey;
}

/**
 * The keys the registrations of every file make flags, and the container names they register (name -> namespaces,
 * for `flags.newFlow` outside the container). A name or class is looked for in the registration's own file first,
 * then in every file.
 */
export function resolveContainers(files: readonly RoxFacts[]): { keys: NamespacedKey[]; registeredNames: Map<string, Set<string>> } {
  const keys: NamespacedKey[] = [];
  const registeredNames = new Map<string, Set<string>>();
  const declared = new Map<string, Array<{ file: number; declaration: Declaration }>>();
  /** Every file's instances, for a registration whose container is made in another file. */
  const instances = new Map<string, string>();
  files.forEach((facts, file) => {
    for (const declaration of facts.declarations) {
      const list = declared.get(declaration.name) ?? [];
      list.push({ file, declaration });
      declared.set(declaration.name, list);
    }
    for (const [name, className] of facts.instances) if (!instances.has(name)) instances.set(name, className);
  });
  const find = (name: string, file: number, kind?: Declaration["kind"]) => {
    const all = (declared.get(name) ?? []).filter((d) => kind === undefined || d.declaration.kind === kind);
    const own = all.filter((d) => d.file === file);
    return own.length > 0 ? own : all;
  };
  const add = (file: number, namespace: string, list: readonly ContainerKey[]) => {
    for (const key of list) keys.push({ file, flag: namespace === "" ? key.key : `${namespace}.${key.key}`, key });
  };
  files.forEach((facts, file) => {
    for (const { namespace, container } of facts.registrations) {
      if ("inline" in container) add(file, namespace, container.inline);
      else if ("className" in container) for (const d of find(container.className, file, "class")) add(d.file, namespace, d.declaration.keys);
      else {
        const names = registeredNames.get(container.name) ?? new Set<string>();
        names.add(namespace);
        registeredNames.set(container.name, names);
        const className = facts.instances.get(container.name) ?? (find(container.name, file, "object").length > 0 ? undefined : instances.get(container.name));
        const found = className !== undefined ? find(className, file, "class") : find(container.name, file, "object");
        for (const d of found) add(d.file, namespace, d.declaration.keys);
      }
    }
  });
  return { keys, registeredNames };
}
