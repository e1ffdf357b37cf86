/**
 * `.gitignore` files, as the code-reference scan honours them (issue 64): a subset of gitignore(5) that covers what
 * repositories write.
 *
 * Supported: blank lines and `#` comments; `\#` and `\!` for a leading `#` or `!`; trailing spaces dropped unless
 * escaped (`\ `); `!` negation (the last matching rule wins, a deeper file over a shallower one); a trailing `/`
 * (directories only); a leading or middle `/` (anchored to the file's folder; without one the pattern matches a name
 * at any depth below it); `*` and `?` (never across `/`); `[...]` classes with ranges, `!`/`^` negation and the
 * POSIX classes alpha, digit, alnum, upper, lower, space, xdigit; a `**` segment at the start (any folders), at the
 * end (everything inside) and in the middle (zero or more folders); `\x` for a literal x. As in git, a file below an ignored folder cannot be re-included (the folder is
 * never read).
 *
 * Not read: `.git/info/exclude`, `core.excludesFile`, and `.gitignore` files above the scanned folder.
 */

export interface IgnoreRule {
  /** The line as written (without its trailing spaces), for a reader. */
  pattern: string;
  negate: boolean;
  /** A trailing `/`: the rule matches directories only. */
  dirOnly: boolean;
  /** No `/` but a trailing one: the rule matches an entry's name at any depth. */
  basename: boolean;
  regex: RegExp;
}

/** The rules of one `.gitignore`, and its folder relative to the scanned root (`""` or `"a/b/"`). */
export interface IgnoreFile {
  base: string;
  rules: IgnoreRule[];
}

/** The `.gitignore` files that apply in a folder, from the root's down to the folder's own. */
export type IgnoreStack = readonly IgnoreFile[];

const POSIX_CLASSES: Record<string, string> = {
  alpha: "A-Za-z",
  digit: "0-9",
  alnum: "A-Za-z0-9",
  upper: "A-Z",
  lower: "a-z",
  space: " \\t\\n\\r\\f\\v",
  xdigit: "0-9A-Fa-f",
};

const regexEscape = (c: string) => c.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");

/** A `[...]` class starting at `glob[start]`: its regex and the index after it, or undefined if it never closes. */
function bracket(glob: string, start: number): { re: string; end: number } | undefined {
  let i = start + 1;
  let negate = false;
  if (glob[i] === "!" || glob[i] === "^") {
    negate = true;
    i++;
  }
  let body = "";
  let first = true;
  for (; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "]" && !first) return { re: negate ? `[^/${body}]` : `[${body}]`, end: i + 1 };
    first = false;
    if (c === "[" && glob[i + 1] === ":") {
      const close = glob.indexOf(":]", i + 2);
      const cls = close < 0 ? undefined : POSIX_CLASSES[glob.slice(i + 2, close)];
      if (cls !== undefined) {
        body += cls;
        i = close + 1;
        continue;
      }
    }
    if (c === "\\" && i + 1 < glob.length) body += regexEscape(glob[++i]!);
    else if (c === "-" && body !== "" && glob[i + 1] !== "]") body += "-";
    else body += regexEscape(c);
  }
  return undefined;
}

/** One path segment of a glob (no `/` in it) as a regex: `*`, `?`, classes and escapes. */
function segmentRegex(seg: string): string {
  let re = "";
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i]!;
    if (c === "*") {
      while (seg[i + 1] === "*") i++;
      re += "[^/]*";
    } else if (c === "?") re += "[^/]";
    else if (c === "[") {
      const b = bracket(seg, i);
      if (b) {
        re += b.re;
        i = b.end - 1;
      } else re += "\\[";
    } else if (c === "\\" && i + 1 < seg.length) re += regexEscape(seg[++i]!);
    else re += regexEscape(c);
  }
  return re;
}

/** A glob's regex source (anchored at both ends), matched against a path relative to the rule's folder. */
export function globToRegExpSource(glob: string): string {
  const segs = glob.split("/");
  let re = "";
  let sep = false;
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i]!;
    if (seg === "**" && segs.length > 1) {
      if (i === 0) re += "(?:.*/)?";
      else if (i === segs.length - 1) re += "/.*";
      else re += "(?:/.*)?";
      continue;
    }
    re += (sep ? "/" : "") + segmentRegex(seg);
    sep = true;
  }
  return `^${re}$`;
}

/** One line of a `.gitignore` as a rule, or undefined for a blank line or a comment. */
export function parseIgnoreLine(raw: string): IgnoreRule | undefined {
  let line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
  // Trailing spaces go, unless the last is escaped.
  line = line.replace(/(?<!\\) +$/, "");
  if (line === "" || line.startsWith("#")) return undefined;
  let body = line;
  const negate = body.startsWith("!");
  if (negate) body = body.slice(1);
  else if (body.startsWith("\\!") || body.startsWith("\\#")) body = body.slice(1);
  const dirOnly = body.endsWith("/") && !body.endsWith("\\/");
  if (dirOnly) body = body.slice(0, -1);
  const anchored = body.includes("/");
  if (body.startsWith("/")) body = body.slice(1);
  if (body === "") return undefined;
  return { pattern: line, negate, dirOnly, basename: !anchored, regex: new RegExp(globToRegExpSource(body)) };
}

/** The rules of a `.gitignore`'s text, in order. */
export function parseGitignore(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const raw of text.split("\n")) {
    const rule = parseIgnoreLine(raw);
    if (rule) rules.push(rule);
  }
  return rules;
}

/**
 * Whether the entry at `rel` (relative to the scanned root, `/`-separated; `name` its last segment) is ignored under
 * `stack`: the last rule that matches decides, the deepest file's rules after its parents'.
 */
export function isIgnored(stack: IgnoreStack, rel: string, name: string, isDir: boolean): boolean {
  for (let f = stack.length - 1; f >= 0; f--) {
    const file = stack[f]!;
    const sub = rel.slice(file.base.length);
    for (let r = file.rules.length - 1; r >= 0; r--) {
      const rule = file.rules[r]!;
      if (rule.dirOnly && !isDir) continue;
      if (rule.regex.test(rule.basename ? name : sub)) return !rule.negate;
    }
  }
  return false;
}
