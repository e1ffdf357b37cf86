import { Descriptor, parseDescriptor, resolveEntry, SECTION_KEYS, type SectionKey, sectionEntries } from "./descriptor";
import type { FileMap } from "./files";
import type { BundleMessage } from "./messages";

/** A raw bundle: its name (folder path in a bundle location, or branch/path inside an uploaded zip) and files. */
export interface BundleSource {
  name: string;
  files: FileMap;
  /** What the folder reader could not read (a bundle read from disk only). */
  problems?: BundleMessage[];
}

/** Finds the parent named in a child's bundle.yaml; the child tells where to look first (same zip, same branch). */
export type ParentResolver<T extends BundleSource = BundleSource> = (parentName: string, child: T) => T | undefined;

export interface ChainLink<T extends BundleSource> {
  source: T;
  descriptor: Descriptor;
}

/**
 * The bundle's ancestry, or why it cannot be followed (the spec's "inconsistency": no effective bundle can be
 * built). `inOwnFilesOf` names the bundle whose own files are at fault, when one is.
 */
export type ChainResult<T extends BundleSource> =
  | { ok: true; chain: ChainLink<T>[] }
  | { ok: false; error: string; inOwnFilesOf?: string };

/** Follows `parent` properties from `bundle` up to its root ancestor; the chain is returned root ancestor first. */
export function parentChain<T extends BundleSource>(bundle: T, resolveParent: ParentResolver<T>): ChainResult<T> {
  const chain: ChainLink<T>[] = [];
  const seen = new Set<string>();
  let current: T | undefined = bundle;
  while (current) {
    if (seen.has(current.name)) return { ok: false, error: `Bundle '${bundle.name}' has a parent cycle through '${current.name}'` };
    seen.add(current.name);
    const parsed = parseDescriptor(current.files);
    if (!parsed.ok) return { ok: false, error: `Bundle '${current.name}': ${parsed.error}`, inOwnFilesOf: current.name };
    chain.push({ source: current, descriptor: parsed.value });
    const parent = parsed.value["parent"];
    if (parent === undefined || parent === null) break;
    if (typeof parent !== "string" || parent.trim() === "") {
      return { ok: false, error: `Bundle '${current.name}': the 'parent' property must be a bundle folder name`, inOwnFilesOf: current.name };
    }
    const found = resolveParent(parent, current);
    if (!found) return { ok: false, error: `Parent bundle '${parent}' of bundle '${current.name}' not found` };
    current = found;
  }
  return { ok: true, chain: chain.reverse() };
}

/** Nearest declaration of a property in a chain (root ancestor first): strategies are inherited unless redeclared. */
export function inheritedProperty(descriptors: readonly Descriptor[], key: string): unknown {
  for (let i = descriptors.length - 1; i >= 0; i--) {
    const v = descriptors[i]![key];
    if (v !== undefined && v !== null) return v;
  }
  return undefined;
}

/**
 * The files each section of one level stands for (folder entries expanded), or the inconsistency that stops an
 * effective bundle from being built: a section that is not a list, an entry naming nothing.
 */
export function levelSections(source: BundleSource, descriptor: Descriptor): { ok: true; sections: Map<SectionKey, string[]> } | { ok: false; error: string } {
  const sections = new Map<SectionKey, string[]>();
  for (const section of SECTION_KEYS) {
    const entries = sectionEntries(descriptor, section);
    if (!entries.ok) return { ok: false, error: `Bundle '${source.name}': ${entries.error}` };
    const files: string[] = [];
    for (const entry of entries.value) {
      const resolved = resolveEntry(source.files, entry);
      if (!resolved) return { ok: false, error: `Bundle '${source.name}' references the missing file '${entry}' in section '${section}'` };
      files.push(...resolved);
    }
    sections.set(section, files);
  }
  return { ok: true, sections };
}
