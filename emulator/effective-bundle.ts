import { createHash } from "node:crypto";
import YAML from "yaml";
import { updateHashWithFiles } from "../provider/bundle/hash";
import { type BundleSource, type ChainLink, inheritedProperty, levelSections, parentChain, type ParentResolver } from "../provider/bundle/inheritance";
import { crossLevelConflicts, jcascStrategyOf } from "../provider/bundle/jcasc";
import { inheritedRbacStrategyProblem } from "../provider/bundle/rbac-strategy";
import { countLevels, Finding, validateBundle } from "./bundle-validation";
import { Descriptor, isYamlName, scalarProp, SECTION_KEYS, SectionKey } from "./descriptor";
import { EFFECTIVE_VERSION_HEX_DIGITS, effectiveFolderName } from "./undocumented-behaviour";
import type { FileMap } from "./zip";

export type { BundleSource, ParentResolver } from "../provider/bundle/inheritance";

/** The bundle cannot be turned into an effective bundle (the spec's "inconsistency"): no zip is produced. */
export class BundleInconsistencyError extends Error {
  override name = "BundleInconsistencyError";
  /** Set when the fault lies in this bundle's own files (its raw validation reports it already). */
  constructor(message: string, readonly inOwnFilesOf?: string) {
    super(message);
  }
}

export interface EffectiveBundle {
  name: string;
  /** Checksum of the effective content, also written as bundle.yaml `version`. */
  version: string;
  /** Bundle names from the root ancestor to the bundle itself. */
  chain: string[];
  /** Effective files, bundle.yaml included. */
  files: FileMap;
  descriptor: Descriptor;
  /** Validation of the effective bundle, jcasc merge conflicts included. */
  findings: Finding[];
  /** What only the levels together show (a raw validation cannot see it): jcasc merge conflicts, RBAC strategy. */
  conflicts: Finding[];
  errors: number;
  warnings: number;
}

interface Level {
  source: BundleSource;
  descriptor: Descriptor;
  folder: string;
  sections: Map<SectionKey, string[]>;
}

function resolveChain(bundle: BundleSource, resolveParent: ParentResolver): ChainLink<BundleSource>[] {
  const result = parentChain(bundle, resolveParent);
  if (!result.ok) throw new BundleInconsistencyError(result.error, result.inOwnFilesOf);
  return result.chain;
}

function collectLevel(source: BundleSource, descriptor: Descriptor, folder: string): Level {
  const level = levelSections(source, descriptor);
  if (!level.ok) throw new BundleInconsistencyError(level.error, source.name);
  return { source, descriptor, folder, sections: level.sections };
}

const inherited = (levels: Level[], key: string): unknown => inheritedProperty(levels.map((l) => l.descriptor), key);

function checksum(descriptor: Descriptor, files: FileMap): string {
  const hash = createHash("sha256").update(JSON.stringify(descriptor));
  return updateHashWithFiles(hash, files).digest("hex").slice(0, EFFECTIVE_VERSION_HEX_DIGITS);
}

/**
 * Applies inheritance: every level's referenced files go under a folder named after its bundle, sections list the
 * ancestors' files first (JCasC merges them in that order), strategies are inherited, `parent` and
 * `availabilityPattern` are dropped, and `version` becomes a checksum of the result.
 */
export function buildEffectiveBundle(bundle: BundleSource, resolveParent: ParentResolver): EffectiveBundle {
  const chain = resolveChain(bundle, resolveParent);
  const usedFolders = new Set<string>();
  const levels = chain.map(({ source, descriptor }) => {
    let folder = effectiveFolderName(source.name);
    for (let n = 2; usedFolders.has(folder); n++) folder = `${effectiveFolderName(source.name)}-${n}`;
    usedFolders.add(folder);
    return collectLevel(source, descriptor, folder);
  });
  const child = levels[levels.length - 1]!;

  const files: FileMap = new Map();
  const descriptor: Descriptor = {
    apiVersion: child.descriptor["apiVersion"] ?? "1",
    id: scalarProp(child.descriptor, "id") ?? child.source.name,
    description: inherited(levels, "description") ?? "",
    version: "",
  };
  for (const section of SECTION_KEYS) {
    const list: string[] = [];
    for (const level of levels) {
      for (const f of level.sections.get(section)!) {
        const target = `${level.folder}/${f}`;
        files.set(target, level.source.files.get(f)!);
        list.push(target);
      }
    }
    if (list.length > 0) descriptor[section] = list;
  }
  for (const key of ["jcascMergeStrategy", "itemRemoveStrategy", "allowCapExceptions"]) {
    const v = inherited(levels, key);
    if (v !== undefined) descriptor[key] = v;
  }
  const { version: _ignored, ...withoutVersion } = descriptor;
  const version = checksum(withoutVersion, files);
  descriptor["version"] = version;
  files.set("bundle.yaml", Buffer.from(YAML.stringify(descriptor)));

  // Problems inside one level are in that bundle's own validation; those between levels only appear here.
  const jcascList = Array.isArray(descriptor["jcasc"]) ? (descriptor["jcasc"] as string[]).filter(isYamlName) : [];
  const strategy = jcascStrategyOf(descriptor["jcascMergeStrategy"]);
  const rbacLevels = levels.filter((l) => l.sections.get("rbac")!.length > 0).map((l) => l.folder);
  const conflicts = [
    ...crossLevelConflicts(files, jcascList, strategy),
    ...inheritedRbacStrategyProblem(files, jcascList, strategy, rbacLevels, child.folder),
  ];
  const findings = validateBundle(files, { uploaded: false, folderProblems: levels.flatMap((l) => l.source.problems ?? []) });
  const { errors, warnings } = countLevels(findings);
  const chainNames = levels.map((l) => l.source.name);
  return { name: bundle.name, version, chain: chainNames, files, descriptor, findings, conflicts, errors, warnings };
}
