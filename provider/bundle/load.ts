import * as path from "node:path";
import type { BundleDescriptor } from "./bundle-descriptor";
import { bundleDescriptorSchema } from "./descriptor-schema";
import { isYamlName, missingEntryProblem, parseDescriptor, resolveEntry, SECTION_KEYS, type SectionKey } from "./descriptor";
import { readBundleFolder } from "./files";

export interface LoadedBundle {
  /** Absolute path of the bundle folder. */
  dir: string;
  descriptor: BundleDescriptor;
  /** Each section's files (posix paths in the bundle), in descriptor order; a folder entry stands for the YAML files below it, sorted. */
  sections: Record<SectionKey, string[]>;
  /** Every section file once, in section order (jcasc, plugins, catalog, rbac, items, variables). */
  sectionFiles: string[];
}

/** A bundle that cannot be loaded: every problem found, as sentences. */
export class BundleLoadError extends Error {
  override name = "BundleLoadError";
  constructor(
    readonly dir: string,
    readonly problems: string[],
  ) {
    super(`Cannot load the bundle in ${dir}:\n${problems.map((p) => `- ${p}`).join("\n")}`);
  }
}

/**
 * Reads a bundle folder's bundle.yaml, validates it (zod) and lists the files of its sections. Throws
 * BundleLoadError when the descriptor is missing or invalid or a section entry names nothing; lintBundle reports
 * the same faults, and more, as messages instead.
 */
export function loadBundle(dir: string): LoadedBundle {
  const abs = path.resolve(dir);
  const { files, problems: unreadable } = readBundleFolder(abs);
  const doc = parseDescriptor(files);
  if (!doc.ok) throw new BundleLoadError(abs, [doc.error, ...unreadable.map((p) => p.message)]);
  const parsed = bundleDescriptorSchema().safeParse(doc.value);
  if (!parsed.success) throw new BundleLoadError(abs, parsed.error.issues.map((i) => i.message));
  const descriptor = parsed.data;

  const problems: string[] = unreadable.map((p) => p.message);
  const sections = {} as Record<SectionKey, string[]>;
  for (const section of SECTION_KEYS) {
    sections[section] = [];
    for (const entry of descriptor[section] ?? []) {
      const resolved = resolveEntry(files, entry);
      if (resolved === undefined) problems.push(missingEntryProblem(entry, section));
      else sections[section].push(...resolved.filter(isYamlName));
    }
  }
  if (problems.length > 0) throw new BundleLoadError(abs, problems);
  const sectionFiles = [...new Set(SECTION_KEYS.flatMap((s) => sections[s]))];
  return { dir: abs, descriptor, sections, sectionFiles };
}
