import { DESCRIPTOR_FILE, type FileMap } from "./files";
import { cascToJs, readYaml } from "./yaml-reader";
import { trimCharacter } from "../text/trim";

// Reading bundle.yaml and its section entries, and the rules on its values. Shared by the local toolkit (lint,
// load) and the emulator's server-side validation, so that both judge a bundle alike. Texts returned here are
// the sentences that messages carry.

/** bundle.yaml keys that list files or folders of the bundle, in the order effective bundles write them. */
export const SECTION_KEYS = ["jcasc", "plugins", "catalog", "rbac", "items", "variables"] as const;
export type SectionKey = (typeof SECTION_KEYS)[number];

export const KNOWN_DESCRIPTOR_KEYS: readonly string[] = [
  "apiVersion",
  "id",
  "description",
  "version",
  ...SECTION_KEYS,
  "parent",
  "availabilityPattern",
  "allowCapExceptions",
  "jcascMergeStrategy",
  "itemRemoveStrategy",
];

export const SUPPORTED_API_VERSIONS: readonly number[] = [1, 2];
export const JCASC_MERGE_STRATEGIES = ["errorOnConflict", "override"] as const;
/** Remove strategies, compared case-insensitively (exports write them in upper case). */
export const ITEMS_REMOVE_STRATEGIES: readonly string[] = ["none", "sync", "remove-supported", "remove-all"];
export const RBAC_REMOVE_STRATEGIES: readonly string[] = ["update", "sync"];

/** The operations center's answer to a bundle zip without bundle.yaml, also the lint text for a folder without it. */
export const MISSING_DESCRIPTOR = "Invalid bundle - Missing descriptor";

export type Descriptor = Record<string, unknown>;

/** A failure may point at a line (1-based) of the file it is about. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string; line?: number };

/** A YAML file as the server reads it (see yaml-reader.ts): YAML 1.1, a key set twice keeps its last value. */
export function parseYaml(content: Buffer | string): Parsed<unknown> {
  const read = readYaml(content);
  return read.ok ? { ok: true, value: cascToJs(read.node) } : read;
}

export function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Reads bundle.yaml (with `read`: an export's is read within its bounds); errors are sentences usable in messages. */
export function parseDescriptor(files: FileMap, read: (content: Buffer) => Parsed<unknown> & { bound?: true } = parseYaml): Parsed<Descriptor> {
  const raw = files.get(DESCRIPTOR_FILE);
  if (raw === undefined) return { ok: false, error: MISSING_DESCRIPTOR };
  const parsed = read(raw);
  if (!parsed.ok) return { ...parsed, error: `The bundle.yaml file ${parsed.bound ? "cannot be read within its bounds" : "is not valid YAML"}: ${parsed.error}.` };
  if (!isMapping(parsed.value)) return { ok: false, error: "The bundle.yaml file must hold a YAML mapping." };
  return { ok: true, value: parsed.value };
}

/** A scalar descriptor property as text (real bundles write `version: 1` as often as `version: "1"`). */
export function scalarProp(desc: Descriptor, key: string): string | undefined {
  const v = desc[key];
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return undefined;
}

/** "Integer" in the product means "reads as an integer": `1` and `"1"` both pass. */
export function isIntegerLike(v: unknown): boolean {
  if (typeof v === "number") return Number.isInteger(v);
  return typeof v === "string" && /^\s*[+-]?\d+\s*$/.test(v);
}

/** Why an apiVersion value is refused, or undefined when it is 1 or 2. */
export function apiVersionProblem(v: unknown): string | undefined {
  if (v === undefined || v === null) return "Missing apiVersion property in the bundle.yaml file.";
  if (!isIntegerLike(v)) return "'apiVersion' property in the bundle.yaml file must be an integer.";
  if (!SUPPORTED_API_VERSIONS.includes(Number(v))) return "'apiVersion' property in the bundle.yaml file must be 1 or 2.";
  return undefined;
}

/** allowCapExceptions is read as a boolean; YAML 1.1 writes it true/false, yes/no or on/off. */
export function allowCapExceptionsProblem(v: unknown): string | undefined {
  return v === undefined || v === null || typeof v === "boolean" ? undefined : "The 'allowCapExceptions' property in the bundle.yaml file must be true or false.";
}

export function jcascMergeStrategyProblem(v: unknown): string | undefined {
  if (v === undefined || (typeof v === "string" && (JCASC_MERGE_STRATEGIES as readonly string[]).includes(v))) return undefined;
  return `Invalid jcascMergeStrategy '${String(v)}': use errorOnConflict or override.`;
}

const REMOVE_STRATEGY_RULE =
  "items must be none, sync, remove-supported or remove-all; rbac must be update or sync.";

/**
 * Why a remove strategy (`itemRemoveStrategy` of bundle.yaml, `removeStrategy` of items.yaml and rbac.yaml) is
 * refused, or undefined. `what` names it in the text.
 */
export function removeStrategyProblem(v: unknown, what: string): string | undefined {
  if (v === undefined) return undefined;
  const known = (value: unknown, allowed: readonly string[]) =>
    value === undefined || (typeof value === "string" && allowed.includes(value.toLowerCase()));
  if (isMapping(v) && known(v["items"], ITEMS_REMOVE_STRATEGIES) && known(v["rbac"], RBAC_REMOVE_STRATEGIES)) return undefined;
  return `Invalid ${what}: ${REMOVE_STRATEGY_RULE}`;
}

export function sectionListProblem(key: SectionKey): string {
  return `The '${key}' property in the bundle.yaml file must be a list of file or folder names.`;
}

/** Entries of a section; an absent or empty section is an empty list. */
export function sectionEntries(desc: Descriptor, key: SectionKey): Parsed<string[]> {
  const v = desc[key];
  if (v === undefined || v === null) return { ok: true, value: [] };
  if (!Array.isArray(v) || v.some((e) => typeof e !== "string" || e.trim() === "")) {
    return { ok: false, error: sectionListProblem(key) };
  }
  return { ok: true, value: v as string[] };
}

/** Files an entry stands for: the file itself, or every file below the folder (`items/` or `items`), sorted. */
export function resolveEntry(files: FileMap, entry: string): string[] | undefined {
  const clean = trimCharacter(entry.replace(/^\.\//, ""), "/", { start: false });
  if (!entry.endsWith("/") && files.has(clean)) return [clean];
  const below = [...files.keys()].filter((f) => f.startsWith(`${clean}/`)).sort();
  return below.length > 0 ? below : undefined;
}

/** Text for a section entry that names nothing in the bundle (a folder entry ends with `/`). */
export function missingEntryProblem(entry: string, section: SectionKey): string {
  const kind = entry.endsWith("/") ? "folder" : "file";
  return `The ${kind} '${entry}' referenced in section '${section}' does not exist in the bundle.`;
}

export function isYamlName(name: string): boolean {
  return /\.ya?ml$/i.test(name);
}

/** Java's String.matches semantics: the pattern must match the whole input. */
export function compileAnchored(regex: string): Parsed<RegExp> {
  // The operations center is Java: java.util.regex writes flags for the whole pattern as a leading group, (?i)
  // being the common one in availability patterns. JavaScript takes them as flags. Other Java-only syntax
  // (possessive quantifiers, atomic groups) still fails here.
  const leadingFlags = /^\(\?([ims]+)\)/.exec(regex);
  const body = leadingFlags ? regex.slice(leadingFlags[0].length) : regex;
  const flags = leadingFlags ? [...new Set(leadingFlags[1])].join("") : "";
  try {
    // Compile the bare pattern first: wrapping alone would make input like "a)(b" compile with another meaning.
    new RegExp(body, flags);
    return { ok: true, value: new RegExp(`^(?:${body})$`, flags) };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}
