import type { FileMap } from "./files";
import type { BundleMessage } from "./messages";
import { type CascNode, cascToJs, type DuplicateKey, type JcascMergeStrategy, mergeCascNodes, type MergeProblem, readYaml } from "./yaml-reader";

// A bundle's jcasc files merged as JCasC merges its sources (YamlUtils.loadFrom): in order, each merged into the
// result so far with the bundle's jcascMergeStrategy. The same merge applies to a key set twice in one file and,
// in an effective bundle, to the levels of an inheritance chain (their files are listed parent first).

export type { JcascMergeStrategy } from "./yaml-reader";

/** `jcascMergeStrategy` of a descriptor: override, else the default errorOnConflict. */
export function jcascStrategyOf(value: unknown): JcascMergeStrategy {
  return value === "override" ? "override" : "errorOnConflict";
}

export interface JcascFile {
  name: string;
  /** Null for an empty or comments-only file. */
  node: CascNode | null;
}

export interface JcascMerge {
  /** The merged configuration; null when no file holds anything. */
  node: CascNode | null;
  /** Files read, in order. */
  read: JcascFile[];
  /** Files that cannot be read as YAML, with the reason. */
  unreadable: { name: string; error: string; line?: number }[];
  duplicates: DuplicateKey[];
  problems: MergeProblem[];
}

export function mergeJcascFiles(files: FileMap, names: readonly string[], strategy: JcascMergeStrategy): JcascMerge {
  const out: JcascMerge = { node: null, read: [], unreadable: [], duplicates: [], problems: [] };
  for (const name of names) {
    const content = files.get(name);
    if (content === undefined) continue;
    const read = readYaml(content, { file: name, duplicateKeys: strategy });
    if (!read.ok) {
      out.unreadable.push(read.line === undefined ? { name, error: read.error } : { name, error: read.error, line: read.line });
      continue;
    }
    out.read.push({ name, node: read.node });
    out.duplicates.push(...read.duplicates);
    out.problems.push(...read.problems);
    // A file that is not a mapping is refused by the JCasC validator before any merge (the caller reports it).
    if (read.node === null || read.node.kind !== "map") continue;
    out.node = out.node === null ? read.node : mergeCascNodes(out.node, read.node, strategy, "", out.problems);
  }
  return out;
}

/** The merged configuration as plain values (mappings as objects). */
export function mergedJcascValue(merge: JcascMerge): unknown {
  return cascToJs(merge.node);
}

/** The text of a merge problem: where the two values are, and why JCasC refuses them. */
export function mergeProblemText(p: MergeProblem): string {
  const where = `'${p.first.file}' line ${p.first.line} and '${p.second.file}' line ${p.second.line}`;
  const path = p.path === "" ? "the top level" : `'${p.path}'`;
  return p.kind === "conflict"
    ? `Conflicting jcasc configuration at ${path}: set in ${where}; with jcascMergeStrategy errorOnConflict a value is set once (sequences concatenate, mappings merge; override lets the later value win).`
    : `Incompatible jcasc configuration at ${path}: ${where} give it different kinds of value (mapping, sequence or scalar), which JCasC cannot merge under any jcascMergeStrategy.`;
}

/**
 * Merge problems between the levels of an inheritance chain. `files` holds every level's jcasc files under a folder
 * named after its level (`<level>/<file>`, the effective bundle's layout), `list` them parent first; problems inside
 * one level are that bundle's own (its validation reports them).
 */
export function crossLevelConflicts(files: FileMap, list: readonly string[], strategy: JcascMergeStrategy): BundleMessage[] {
  const levelOf = (file: string): string => file.split("/")[0]!;
  return mergeJcascFiles(files, list, strategy)
    .problems.filter((p) => levelOf(p.first.file) !== levelOf(p.second.file))
    .map((p) => ({ level: "ERROR", code: "JCASCSTRATEGY", message: mergeProblemText(p), file: p.second.file, line: p.second.line }));
}
