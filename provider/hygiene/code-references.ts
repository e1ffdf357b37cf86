/**
 * Code references (issue 64): where the source trees a user names spell each flag's name, in one pass over each
 * file whatever the number of flags (token-matcher.ts).
 *
 * A flag is found as its name or an alias (aliases.ts) between two delimiters (`"`, `'` and a backtick by default,
 * as LaunchDarkly's ld-find-code-refs looks for keys), or, for a spelling that is an identifier, as an identifier.
 * The vendor SDK's namespaced names (rox-containers.ts): a property key of a container registered under a namespace
 * counts for `<namespace>.<key>` and no other flag, and so does `name.key` where `name` is a registered container.
 *
 * Each hit names the file (relative to its root), line, column, the spelling and what made it; with
 * `contextLines` (0 to 5; 0 by default, so that no source leaves the machine) the lines around it, bounded and kept
 * as data. What is not read is listed with its reason (source-tree.ts), and the rest is still scanned.
 *
 * Synchronous: the files are read one after another into one buffer (on two cores, faster than overlapping reads
 * through the thread pool).
 */
import { quoted } from "../text/printable";
import { aliasesOf, type Alias, type AliasKind, type AliasOptions } from "./aliases";
import { contextOf, lineStarts, MAX_CONTEXT_LINES, offsetOfColumn, type ContextLine } from "./context-lines";
import { mightHoldContainers, resolveContainers, roxFacts, type ContainerKey, type RoxFacts } from "./rox-containers";
import { walkSourceTree, type SkipReason, type Skipped } from "./source-tree";
import { TokenMatcher, type TokenHit } from "./token-matcher";

export interface CodeReferenceOptions {
  /** The folders (or files) to scan; each hit names its root as given here. */
  roots: readonly string[];
  /** The flags' names, as the service knows them (`checkout.newFlow`). */
  flags: readonly string[];
  aliases?: AliasOptions;
  /** One character each; default `"`, `'` and a backtick. */
  delimiters?: readonly string[];
  /** Lines of context before and after each hit, 0 to 5; default 0 (no source text in the result). */
  contextLines?: number;
  /** The longest context line kept, in UTF-16 units; default 200. */
  maxLineLength?: number;
  /** Files larger than this are skipped (`too-large`); default 1 MiB. */
  maxFileBytes?: number;
  /** Hits kept per file; the rest are counted (`too-many-references`); default 1,000. */
  maxReferencesPerFile?: number;
  /** Folder names never entered; default `.git` and `node_modules`. */
  skipDirectories?: readonly string[];
  /** Whether `.gitignore` files are honoured; default true. */
  gitignore?: boolean;
}

export interface CodeReference {
  flag: string;
  /** The root as given in the options. */
  root: string;
  /** Relative to the root, `/`-separated. */
  file: string;
  /** 1-based; the column counts UTF-16 code units. */
  line: number;
  column: number;
  /** The spelling found. */
  alias: string;
  /** What made the spelling: the name, an alias, or a key of a registered container (`container`). */
  aliasKind: AliasKind | "container";
  /** Only with `contextLines` above 0. */
  context?: ContextLine[];
}

export interface CodeReferenceScan {
  /** In the order of the roots, the files as read (by folder and name, links last), lines, columns, flags, spellings. */
  references: CodeReference[];
  skipped: Skipped[];
  counts: { files: number; bytes: number; skipped: Partial<Record<SkipReason, number>> };
  /** Spellings that can never be found (they hold a delimiter or a line break). */
  unmatchable: Alias[];
}

export const DEFAULT_DELIMITERS = ['"', "'", "`"] as const;
export const DEFAULT_SKIP_DIRECTORIES = [".git", "node_modules"] as const;
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;

interface FileRef {
  root: number;
  path: string;
}

/** The hits of every file, before the registrations of every file are known (parallel arrays: one hit each). */
interface Found {
  references: CodeReference[];
  /** The file (an index into the files read) of each reference. */
  files: number[];
  /** The references found as `name.key` (indexes), with the key and the name, for a registered `name`. */
  qualified: Array<{ index: number; token: string; qualifier: string }>;
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** By line, column, flag and spelling. */
function inFileOrder(a: CodeReference, b: CodeReference): number {
  return a.line - b.line || a.column - b.column || cmp(a.flag, b.flag) || cmp(a.alias, b.alias);
}

function checkedOptions(o: CodeReferenceOptions) {
  const contextLines = o.contextLines ?? 0;
  if (!Number.isInteger(contextLines) || contextLines < 0 || contextLines > MAX_CONTEXT_LINES) throw new Error(`contextLines is a whole number from 0 to ${MAX_CONTEXT_LINES}, not ${quoted(String(o.contextLines))}`);
  const positive = (name: string, value: number | undefined, fallback: number) => {
    const v = value ?? fallback;
    if (!Number.isInteger(v) || v < 1) throw new Error(`${name} is a whole number above 0, not ${quoted(String(value))}`);
    return v;
  };
  return {
    contextLines,
    maxLineLength: positive("maxLineLength", o.maxLineLength, 200),
    maxFileBytes: positive("maxFileBytes", o.maxFileBytes, DEFAULT_MAX_FILE_BYTES),
    maxReferences: positive("maxReferencesPerFile", o.maxReferencesPerFile, 1000),
  };
}

/** Scans `options.roots` for every spelling of `options.flags`. Bad options throw; bad paths are listed as skipped. */
export function scanCodeReferences(options: CodeReferenceOptions): CodeReferenceScan {
  const { contextLines, maxLineLength, maxFileBytes, maxReferences } = checkedOptions(options);
  const flags = new Set(options.flags);
  const matcher = new TokenMatcher(aliasesOf([...flags], options.aliases), options.delimiters ?? DEFAULT_DELIMITERS);
  const tree = { maxFileBytes, skipDirectories: options.skipDirectories ?? DEFAULT_SKIP_DIRECTORIES, gitignore: options.gitignore ?? true };
  const skipped: Skipped[] = [];
  const counts: CodeReferenceScan["counts"] = { files: 0, bytes: 0, skipped: {} };
  const skip = (s: Skipped) => {
    skipped.push(s);
    counts.skipped[s.reason] = (counts.skipped[s.reason] ?? 0) + 1;
  };
  const files: FileRef[] = [];
  const found: Found = { references: [], files: [], qualified: [] };
  const facts: RoxFacts[] = [];
  const factsFile: number[] = [];
  /** Context of the container keys, by file and position, read while the file's bytes are at hand. */
  const keyContext = new Map<string, ContextLine[]>();
  const buffer = { bytes: Buffer.allocUnsafe(64 * 1024) };

  options.roots.forEach((root, rootIndex) => {
    const walked = walkSourceTree(
      root,
      tree,
      ({ path, bytes }) => {
        const file = files.push({ root: rootIndex, path }) - 1;
        const hits: TokenHit[] = [];
        let dropped = 0;
        matcher.scan(bytes, bytes.length, (h) => (hits.length < maxReferences ? hits.push(h) : dropped++));
        if (dropped > 0) skip({ root, path, reason: "too-many-references", detail: `${hits.length + dropped} spellings found, the first ${hits.length} kept` });
        const fileFacts = mightHoldContainers(bytes) ? roxFacts(bytes.toString("utf8")) : undefined;
        const starts = contextLines > 0 && (hits.length > 0 || fileFacts !== undefined) ? lineStarts(bytes) : [];
        const own: Array<{ reference: CodeReference; qualified?: { token: string; qualifier: string } }> = [];
        for (const h of hits) {
          const context = contextLines > 0 ? contextOf(bytes, starts, h, contextLines, maxLineLength) : undefined;
          for (const alias of h.spelling.aliases) {
            const reference: CodeReference = { flag: alias.flag, root, file: path, line: h.line, column: h.column, alias: alias.text, aliasKind: alias.kind };
            if (context) reference.context = context;
            own.push(h.qualifier === undefined ? { reference } : { reference, qualified: { token: h.spelling.text, qualifier: h.qualifier } });
          }
        }
        // In the order of the file: a delimited hit is found at its closing delimiter, after what it holds.
        own.sort((a, b) => inFileOrder(a.reference, b.reference));
        for (const { reference, qualified } of own) {
          if (qualified) found.qualified.push({ index: found.references.length, ...qualified });
          found.references.push(reference);
          found.files.push(file);
        }
        if (fileFacts !== undefined) {
          facts.push(fileFacts);
          factsFile.push(file);
          if (contextLines > 0) {
            const keys: ContainerKey[] = [...fileFacts.declarations.flatMap((d) => d.keys), ...fileFacts.registrations.flatMap((r) => ("inline" in r.container ? r.container.inline : []))];
            for (const k of keys) {
              const start = starts[k.line - 1] ?? 0;
              const offset = offsetOfColumn(bytes, start, starts[k.line] ?? bytes.length, k.column);
              keyContext.set(`${file}:${k.line}:${k.column}`, contextOf(bytes, starts, { line: k.line, column: k.column, offset }, contextLines, maxLineLength));
            }
          }
        }
      },
      skip,
      buffer,
    );
    counts.files += walked.files;
    counts.bytes += walked.bytes;
  });

  const references = namespaced(found, facts, factsFile, files, flags, options.roots, keyContext);
  return { references, skipped, counts, unmatchable: matcher.unmatchable };
}

/**
 * The hits once every file's registrations are known: a registered container's key counts for its namespaced flag
 * only (found there even if no alias spells it), and `name.key` for a registered `name` counts for `<namespace>.key`
 * only. In the order of the roots, the files as read, lines, columns and flags.
 */
function namespaced(found: Found, facts: RoxFacts[], factsFile: number[], files: FileRef[], flags: Set<string>, roots: readonly string[], keyContext: Map<string, ContextLine[]>): CodeReference[] {
  const { keys, registeredNames } = resolveContainers(facts);
  // The files' hits are in order already, and stay so unless a container changes them.
  if (keys.length === 0 && registeredNames.size === 0) return found.references;
  const at = (file: number, line: number, column: number) => `${file}:${line}:${column}`;
  const containerAt = new Set(keys.map((k) => at(factsFile[k.file]!, k.key.line, k.key.column)));
  const containerFiles = new Set(keys.map((k) => factsFile[k.file]!));
  const dropped = new Set<number>();
  for (const q of found.qualified) {
    const namespaces = registeredNames.get(q.qualifier);
    const flag = found.references[q.index]!.flag;
    if (namespaces !== undefined && ![...namespaces].some((ns) => (ns === "" ? q.token : `${ns}.${q.token}`) === flag)) dropped.add(q.index);
  }
  const kept: Array<{ file: number; reference: CodeReference }> = [];
  found.references.forEach((reference, i) => {
    const file = found.files[i]!;
    if (dropped.has(i) || (containerFiles.has(file) && containerAt.has(at(file, reference.line, reference.column)))) return;
    kept.push({ file, reference });
  });
  const added = new Set<string>();
  for (const k of keys) {
    const file = factsFile[k.file]!;
    const pos = at(file, k.key.line, k.key.column);
    if (!flags.has(k.flag) || added.has(`${pos}:${k.flag}`)) continue;
    added.add(`${pos}:${k.flag}`);
    const reference: CodeReference = { flag: k.flag, root: roots[files[file]!.root]!, file: files[file]!.path, line: k.key.line, column: k.key.column, alias: k.key.key, aliasKind: "container" };
    const context = keyContext.get(pos);
    if (context) reference.context = context;
    kept.push({ file, reference });
  }
  kept.sort((a, b) => a.file - b.file || inFileOrder(a.reference, b.reference));
  return kept.map((k) => k.reference);
}
