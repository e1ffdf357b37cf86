import * as fs from "node:fs";
import * as path from "node:path";
import { checkBundleFiles, type PluginsWithoutList } from "./checks";
import { isYamlName, parseDescriptor } from "./descriptor";
import { DESCRIPTOR_FILE, type FileMap, readBundleFolder, readBundleTree } from "./files";
import { type BundleSource, inheritedProperty, levelSections, parentChain } from "./inheritance";
import { crossLevelConflicts, jcascStrategyOf } from "./jcasc";
import { applyQuiet, type BundleMessage, countLevels, formatMessage } from "./messages";
import { inheritedRbacStrategyProblem } from "./rbac-strategy";

export interface LintOptions {
  /**
   * The bundle location the bundle belongs to: its bundles are where `parent` is looked up, by name (posix path
   * below this folder). Default: the bundle folder's parent folder.
   */
  siblingsRoot?: string;
  /** A plugins.yaml with no `plugins` list: refused (default) or read as installing nothing (checks.ts). */
  pluginsWithoutList?: PluginsWithoutList;
}

export interface LintResult {
  /** Absolute path of the bundle folder. */
  dir: string;
  /** The bundle's name among its siblings (posix path below the siblings root). */
  name: string;
  /** Every message, INFO included, in the server's order. */
  messages: BundleMessage[];
  errors: number;
  warnings: number;
  /** No ERROR message (the server's `valid`). */
  valid: boolean;
  /** The messages as the server writes them, `<LEVEL> - [<CODE>] - <text>`; `quiet` leaves out INFO. */
  format(options?: { quiet?: boolean }): string[];
}

function result(dir: string, name: string, messages: BundleMessage[]): LintResult {
  const { errors, warnings } = countLevels(messages);
  return { dir, name, messages, errors, warnings, valid: errors === 0, format: (o = {}) => applyQuiet(messages, o.quiet ?? false).map(formatMessage) };
}

/**
 * What inheritance adds, as the server reports it: where the parent chain breaks (missing parent, cycle, unreadable
 * ancestor, an ancestor naming a missing file), else the jcasc merge problems between levels (the effective
 * bundle's jcascMergeStrategy) and an rbac section meeting another level's authorization strategy. Faults in the
 * bundle's own files are reported by its own checks already.
 */
function parentProblems(self: BundleSource, siblingsRoot: string): BundleMessage[] {
  const parsed = parseDescriptor(self.files);
  if (!parsed.ok || parsed.value["parent"] === undefined) return [];
  const siblings = fs.existsSync(siblingsRoot) ? readBundleTree(siblingsRoot) : new Map<string, BundleSource>();
  const chain = parentChain(self, (parent) => (parent === self.name ? self : siblings.get(parent)));
  const structure = (message: string): BundleMessage[] => [{ level: "ERROR", code: "STRUCTURE", message, file: DESCRIPTOR_FILE }];
  if (!chain.ok) return chain.inOwnFilesOf === self.name ? [] : structure(chain.error);
  // The effective bundle's layout: each level's jcasc files under `<level>/<file>`, parent first.
  const files: FileMap = new Map();
  const list: string[] = [];
  const rbacLevels: string[] = [];
  const folderOf = (source: BundleSource) => source.name.replace(/\//g, "___");
  for (const { source, descriptor } of chain.chain) {
    const level = levelSections(source, descriptor);
    if (!level.ok) return source === self ? [] : structure(level.error);
    for (const f of level.sections.get("jcasc")!.filter(isYamlName)) {
      const name = `${folderOf(source)}/${f}`;
      files.set(name, source.files.get(f)!);
      list.push(name);
    }
    if (level.sections.get("rbac")!.length > 0) rbacLevels.push(folderOf(source));
  }
  const strategy = jcascStrategyOf(inheritedProperty(chain.chain.map((l) => l.descriptor), "jcascMergeStrategy"));
  return [...crossLevelConflicts(files, list, strategy), ...inheritedRbacStrategyProblem(files, list, strategy, rbacLevels, folderOf(self))];
}

/**
 * The checks an operations center makes on a bundle of its bundle location, offline: those of the server's
 * validations (descriptor properties, section lists and files, YAML syntax, strategies, plugin catalogs,
 * unreferenced files) plus the parent chain among the sibling bundles. Throws only when `dir` is not a folder.
 */
export function lintBundle(dir: string, options: LintOptions = {}): LintResult {
  const abs = path.resolve(dir);
  const siblingsRoot = path.resolve(options.siblingsRoot ?? path.dirname(abs));
  const rel = path.relative(siblingsRoot, abs);
  const name = rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel.split(path.sep).join("/") : path.basename(abs);
  const { files, problems } = readBundleFolder(abs);
  const self: BundleSource = { name, files };
  const checks = checkBundleFiles(files, { folderProblems: problems, ...(options.pluginsWithoutList ? { pluginsWithoutList: options.pluginsWithoutList } : {}) });
  return result(abs, name, [...checks, ...parentProblems(self, siblingsRoot)]);
}
