import YAML from "yaml";
import type { FileMap } from "./zip";

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

export type Descriptor = Record<string, unknown>;

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

export function parseYaml(content: Buffer | string): Parsed<unknown> {
  try {
    return { ok: true, value: YAML.parse(typeof content === "string" ? content : content.toString("utf8")) };
  } catch (e) {
    return { ok: false, error: (e instanceof Error ? e.message : String(e)).split("\n")[0]! };
  }
}

export function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Reads bundle.yaml; errors are sentences usable in messages. */
export function parseDescriptor(files: FileMap): Parsed<Descriptor> {
  const raw = files.get("bundle.yaml");
  if (raw === undefined) return { ok: false, error: "Missing bundle.yaml file." };
  const parsed = parseYaml(raw);
  if (!parsed.ok) return { ok: false, error: `The bundle.yaml file is not valid YAML: ${parsed.error}` };
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

/** Entries of a section; an absent or empty section is an empty list. */
export function sectionEntries(desc: Descriptor, key: SectionKey): Parsed<string[]> {
  const v = desc[key];
  if (v === undefined || v === null) return { ok: true, value: [] };
  if (!Array.isArray(v) || v.some((e) => typeof e !== "string" || e.trim() === "")) {
    return { ok: false, error: `The '${key}' property in the bundle.yaml file must be a list of file or folder names.` };
  }
  return { ok: true, value: v as string[] };
}

/** Files an entry stands for: the file itself, or every file below the folder (`items/` or `items`), sorted. */
export function resolveEntry(files: FileMap, entry: string): string[] | undefined {
  const clean = entry.replace(/^\.\//, "").replace(/\/+$/, "");
  if (!entry.endsWith("/") && files.has(clean)) return [clean];
  const below = [...files.keys()].filter((f) => f.startsWith(`${clean}/`)).sort();
  return below.length > 0 ? below : undefined;
}

export function isYamlName(name: string): boolean {
  return /\.ya?ml$/i.test(name);
}

/** Java's String.matches semantics: the pattern must match the whole input. */
export function compileAnchored(regex: string): Parsed<RegExp> {
  try {
    // Compile the bare pattern first: wrapping alone would make input like "a)(b" compile with another meaning.
    new RegExp(regex);
    return { ok: true, value: new RegExp(`^(?:${regex})$`) };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}
