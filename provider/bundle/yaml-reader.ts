import type { Document, LineCounter, Node as YamlNode } from "yaml";
import { yaml } from "../libraries";

// The yaml library loads on the first read, not with the provider (see ../libraries.ts): a `check` reads no YAML.
type Yaml = typeof import("yaml");
const isAlias = ((node: unknown) => yaml().isAlias(node)) as Yaml["isAlias"];
const isMap = ((node: unknown) => yaml().isMap(node)) as Yaml["isMap"];
const isPair = ((node: unknown) => yaml().isPair(node)) as Yaml["isPair"];
const isScalar = ((node: unknown) => yaml().isScalar(node)) as Yaml["isScalar"];
const isSeq = ((node: unknown) => yaml().isSeq(node)) as Yaml["isSeq"];

// YAML read as the CasC server reads it (SnakeYAML, YAML 1.1), in the one place lint, loadBundle and the emulator
// share. Values keep where they came from (file, line), as SnakeYAML's nodes do, so that JCasC's merge can say where
// two values clash. Sources: README.md beside this file ("YAML and merging").

/** SnakeYAML's default `maxAliasesForCollections`, which the CasC plugin keeps (CASC_YAML_MAX_ALIASES raises it). */
export const DEFAULT_MAX_ALIASES = 50;

/** The variable the CasC plugin reads the alias limit from (YamlClientUtils.createDefault, JCasC ConfigurationContext). */
export const MAX_ALIASES_VARIABLE = "CASC_YAML_MAX_ALIASES";

/**
 * The alias limit as the plugin reads it: the variable trimmed, taken when it is a Java int, else the default
 * (commons-lang NumberUtils.toInt(value, 50)). Read on each call, so a process that sets it applies it at once.
 */
export function maxAliasesFromEnvironment(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[MAX_ALIASES_VARIABLE]?.trim() ?? "";
  if (!/^[+-]?\d{1,10}$/.test(raw)) return DEFAULT_MAX_ALIASES;
  const n = Number(raw);
  return n >= -(2 ** 31) && n < 2 ** 31 ? n : DEFAULT_MAX_ALIASES;
}

/** Bound on a document's size once its aliases are expanded (aliases to scalars are not limited by count). */
export const MAX_EXPANDED_VALUES = 200_000;

export type JcascMergeStrategy = "errorOnConflict" | "override";

/** How a key set twice in one mapping is resolved: JCasC's merge (jcasc files), or SnakeYAML's last-wins (others). */
export type DuplicateKeys = JcascMergeStrategy | "lastWins";

interface Origin {
  file: string;
  line: number;
}

/** A YAML value and where it starts: the tree JCasC merges (SnakeYAML's nodes). Never mutated once built. */
export type CascNode = Origin &
  (
    | { kind: "map"; entries: ReadonlyMap<string, CascNode> }
    | { kind: "seq"; items: readonly CascNode[] }
    | { kind: "scalar"; value: unknown }
  );

export interface DuplicateKey {
  file: string;
  /** Dotted path of the key (`unclassified`, `jenkins.numExecutors`). */
  path: string;
  firstLine: number;
  secondLine: number;
}

/** Two values JCasC cannot merge: a scalar set twice under errorOnConflict, or values of different kinds. */
export interface MergeProblem {
  kind: "conflict" | "incompatible";
  path: string;
  first: Origin;
  second: Origin;
}

export type YamlRead =
  | { ok: true; node: CascNode | null; duplicates: DuplicateKey[]; problems: MergeProblem[] }
  /** `bound`: the text is YAML, but its aliases pass a limit (count, expansion, recursion). */
  | { ok: false; error: string; line?: number; bound?: true };

export interface YamlReadOptions {
  /** Name of the file in messages. */
  file?: string;
  /** Default lastWins. */
  duplicateKeys?: DuplicateKeys;
  /** Default: CASC_YAML_MAX_ALIASES, else DEFAULT_MAX_ALIASES (maxAliasesFromEnvironment). */
  maxAliases?: number;
}

class ReadFailure extends Error {
  constructor(
    message: string,
    readonly line?: number,
    /** An alias limit, not a syntax fault. */
    readonly bound = false,
  ) {
    super(message);
  }
}

const pathOf = (prefix: string, key: string): string => (prefix === "" ? key : `${prefix}.${key}`);

/**
 * JCasC's merge of two values (YamlUtils, ErrorOnConflictMergeStrategy, OverrideMergeStrategy): mappings merge key by
 * key, sequences concatenate (under both strategies), a scalar set again is a conflict under errorOnConflict (even
 * when equal) and replaces the first under override; values of different kinds are incompatible under both.
 * Problems are appended to `problems`; the first value is kept where the merge fails.
 */
export function mergeCascNodes(a: CascNode, b: CascNode, strategy: JcascMergeStrategy, path: string, problems: MergeProblem[]): CascNode {
  const at = (n: CascNode): Origin => ({ file: n.file, line: n.line });
  if (a.kind !== b.kind) {
    problems.push({ kind: "incompatible", path, first: at(a), second: at(b) });
    return a;
  }
  if (a.kind === "seq" && b.kind === "seq") return { ...at(a), kind: "seq", items: [...a.items, ...b.items] };
  if (a.kind === "map" && b.kind === "map") {
    const entries = new Map(a.entries);
    for (const [key, value] of b.entries) {
      const existing = entries.get(key);
      entries.set(key, existing === undefined ? value : mergeCascNodes(existing, value, strategy, pathOf(path, key), problems));
    }
    return { ...at(a), kind: "map", entries };
  }
  if (strategy === "override") return b;
  problems.push({ kind: "conflict", path, first: at(a), second: at(b) });
  return a;
}

/** Plain JSON-like value of a node (mappings as objects in YAML order). */
export function cascToJs(node: CascNode | null): unknown {
  if (node === null) return null;
  switch (node.kind) {
    case "map":
      return Object.fromEntries([...node.entries].map(([k, v]) => [k, cascToJs(v)]));
    case "seq":
      return node.items.map(cascToJs);
    default:
      return node.value;
  }
}

/** A mapping key as JCasC sees it: the scalar's text (`on:` is the key "on", not the boolean). */
function keyText(key: unknown): string {
  if (isScalar(key)) {
    if (typeof key.value === "string") return key.value;
    if (typeof key.source === "string") return key.source;
    return String(key.value);
  }
  return JSON.stringify(key);
}

const isMergeKey = (key: unknown): boolean => isScalar(key) && (typeof key.value === "symbol" || (key.type === "PLAIN" && key.source === "<<"));

/** Scalars as SnakeYAML's SafeConstructor types them (YAML 1.1); timestamps and binaries keep their text. */
export function scalarValue(node: { value: unknown; source?: string }): unknown {
  const v = node.value;
  if (v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean") return v;
  if (typeof v === "bigint") return Number(v);
  return node.source ?? String(v);
}

class Builder {
  private collectionAliases = 0;
  /** Values below each node once aliases are expanded (aliases share nodes; the count does not). */
  private readonly sizes = new WeakMap<CascNode, number>();
  private readonly memo = new Map<YamlNode, CascNode>();
  private readonly building = new Set<YamlNode>();
  /** Anchored nodes by name, in document order (an anchor may be redefined; an alias takes the last one before it). */
  private readonly anchors = new Map<string, YamlNode[]>();
  readonly duplicates: DuplicateKey[] = [];
  readonly problems: MergeProblem[] = [];

  constructor(
    doc: Document,
    private readonly lines: LineCounter,
    private readonly file: string,
    private readonly duplicateKeys: DuplicateKeys,
    private readonly maxAliases: number,
  ) {
    // One walk instead of Alias.resolve, which walks the whole document for every alias.
    yaml().visit(doc, (_key, node) => {
      const anchor = (node as { anchor?: string }).anchor;
      if (anchor && (isMap(node) || isSeq(node) || isScalar(node))) this.anchors.set(anchor, [...(this.anchors.get(anchor) ?? []), node]);
    });
  }

  private anchored(name: string, before: number): YamlNode | undefined {
    const candidates = (this.anchors.get(name) ?? []).filter((n) => (n.range?.[0] ?? 0) < before);
    return candidates[candidates.length - 1];
  }

  private lineOf(node: { range?: readonly number[] | null } | null | undefined): number {
    const offset = node?.range?.[0];
    return offset === undefined ? 1 : this.lines.linePos(offset).line;
  }

  private resolveAlias(alias: YamlNode): YamlNode {
    if (!isAlias(alias)) return alias;
    const target = this.anchored(alias.source, alias.range?.[0] ?? Number.MAX_SAFE_INTEGER);
    if (target === undefined) throw new ReadFailure(`found undefined alias ${alias.source}`, this.lineOf(alias));
    if (isMap(target) || isSeq(target)) {
      this.collectionAliases += 1;
      if (this.collectionAliases > this.maxAliases) {
        throw new ReadFailure(`Number of aliases for non-scalar nodes exceeds the specified max=${this.maxAliases}`, this.lineOf(alias), true);
      }
    }
    return target;
  }

  build(raw: YamlNode | null | undefined, path: string): CascNode {
    const node = raw === null || raw === undefined ? null : this.resolveAlias(raw);
    if (node === null) return { file: this.file, line: this.lineOf(raw), kind: "scalar", value: null };
    if (this.building.has(node)) throw new ReadFailure("recursive alias: a node cannot hold itself", this.lineOf(raw), true);
    const known = this.memo.get(node);
    if (known) return known;
    const built = this.buildFresh(node, path);
    this.memo.set(node, built);
    const children = built.kind === "map" ? [...built.entries.values()] : built.kind === "seq" ? built.items : [];
    const size = children.reduce((n, child) => n + (this.sizes.get(child) ?? 1), 1);
    if (size > MAX_EXPANDED_VALUES) {
      throw new ReadFailure(`the document holds more than ${MAX_EXPANDED_VALUES} values once its aliases are expanded`, undefined, true);
    }
    this.sizes.set(built, size);
    return built;
  }

  private buildFresh(node: YamlNode, path: string): CascNode {
    const origin = { file: this.file, line: this.lineOf(node) };
    this.building.add(node);
    try {
      if (isSeq(node)) return { ...origin, kind: "seq", items: node.items.map((item) => this.build(item as YamlNode, path)) };
      if (isMap(node)) return { ...origin, kind: "map", entries: this.mapEntries(node.items, path) };
      if (isScalar(node)) return { ...origin, kind: "scalar", value: scalarValue(node) };
      throw new ReadFailure("unsupported YAML node", origin.line);
    } finally {
      this.building.delete(node);
    }
  }

  /** Explicit keys, then the keys of `<<` merges they do not set (SnakeYAML's flattenMapping: explicit keys win). */
  private mapEntries(pairs: readonly unknown[], path: string): Map<string, CascNode> {
    const explicit = new Map<string, CascNode>();
    const keyLines = new Map<string, number>();
    const merged: CascNode[] = [];
    for (const pair of pairs) {
      if (!isPair(pair)) continue;
      if (isMergeKey(pair.key)) {
        const value = pair.value as YamlNode | null;
        const sources = value !== null && isSeq(value) ? (value.items as YamlNode[]) : [value];
        for (const source of sources) {
          const built = this.build(source, path);
          if (built.kind !== "map") throw new ReadFailure("expected a mapping or list of mappings for merging", this.lineOf(source));
          merged.push(built);
        }
        continue;
      }
      const key = keyText(pair.key);
      const keyPath = pathOf(path, key);
      const value = this.build(pair.value as YamlNode | null, keyPath);
      const line = this.lineOf(pair.key as YamlNode);
      const existing = explicit.get(key);
      if (existing === undefined) {
        explicit.set(key, value);
        keyLines.set(key, line);
        continue;
      }
      this.duplicates.push({ file: this.file, path: keyPath, firstLine: keyLines.get(key)!, secondLine: line });
      explicit.set(key, this.duplicateKeys === "lastWins" ? value : mergeCascNodes(existing, value, this.duplicateKeys, keyPath, this.problems));
    }
    if (merged.length === 0) return explicit;
    const entries = new Map<string, CascNode>();
    for (const source of merged) {
      for (const [key, value] of source.kind === "map" ? source.entries : []) {
        if (!explicit.has(key) && !entries.has(key)) entries.set(key, value);
      }
    }
    for (const [key, value] of explicit) entries.set(key, value);
    return entries;
  }
}

/** The first line of a parser message (what follows is a source excerpt), without its trailing colon. */
function firstLine(message: string): string {
  return message.split("\n")[0]!.replace(/[:.]\s*$/, "");
}

/**
 * Reads one YAML file as SnakeYAML reads it: YAML 1.1 scalars (`yes`/`no`/`on`/`off` are booleans), merge keys,
 * duplicate keys accepted (reported; resolved by `duplicateKeys`), at most `maxAliases` aliases to collections,
 * exactly one document (an empty or comments-only file reads as null). Never throws.
 */
export function readYaml(content: Buffer | string, options: YamlReadOptions = {}): YamlRead {
  const text = typeof content === "string" ? content : content.toString("utf8");
  const lines = new (yaml().LineCounter)();
  const docs = yaml().parseAllDocuments(text, { version: "1.1", uniqueKeys: false, merge: false, lineCounter: lines });
  const all = Array.isArray(docs) ? docs : [];
  for (const doc of all) {
    const error = doc.errors[0];
    if (error) {
      const line = error.linePos?.[0]?.line;
      // The library's composer recursing out of stack on a document nested a thousand levels deep: a bound, said so.
      const failure = error.code === "RESOURCE_EXHAUSTION"
        ? { ok: false as const, error: `the document is nested too deeply to be read (${firstLine(error.message)})`, bound: true as const }
        : { ok: false as const, error: firstLine(error.message) };
      return line === undefined ? failure : { ...failure, line };
    }
  }
  if (all.length > 1) {
    const line = lines.linePos(all[1]!.range[0]).line;
    return { ok: false, error: "expected a single document in the stream but found another document", line };
  }
  const doc = all[0];
  if (doc === undefined || doc.contents === null) return { ok: true, node: null, duplicates: [], problems: [] };
  const maxAliases = options.maxAliases ?? maxAliasesFromEnvironment();
  const builder = new Builder(doc, lines, options.file ?? "", options.duplicateKeys ?? "lastWins", maxAliases);
  try {
    const node = builder.build(doc.contents as YamlNode, "");
    return { ok: true, node, duplicates: builder.duplicates, problems: builder.problems };
  } catch (e) {
    if (!(e instanceof ReadFailure)) throw e;
    const failure = { ok: false as const, error: e.message, ...(e.bound ? { bound: true as const } : {}) };
    return e.line === undefined ? failure : { ...failure, line: e.line };
  }
}
