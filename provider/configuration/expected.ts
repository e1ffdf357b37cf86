import { isYamlName, parseYaml, type SectionKey } from "../bundle/descriptor";
import type { FileMap } from "../bundle/files";
import { readBundleTree } from "../bundle/files";
import { type BundleSource, inheritedProperty, levelSections, parentChain } from "../bundle/inheritance";
import { jcascStrategyOf, mergedJcascValue, mergeJcascFiles, mergeProblemText } from "../bundle/jcasc";
import { collectItems, itemStrategyOf, lastCatalog, mergeRbac, pluginIds } from "./documents";
import { BundleDescriptorError, BundleNotFoundError, JcascDocumentError, JcascMergeError, MissingParentError, ParentCycleError, UnreadableYamlError } from "./errors";
import type { ConfigurationView } from "./view";

// The configuration a controller should run: its bundle with the bundle's parents, from the local bundle tree (as the
// operations center checks it out), merged as the CasC plugin merges an effective bundle: every level's files,
// parents first; jcasc files merged by JCasC's rules under the inherited jcascMergeStrategy (provider/bundle/jcasc.ts);
// plugins of every level; the last catalog; RBAC roles and groups of every level; items of every level.

interface Level {
  source: BundleSource;
  sections: Map<SectionKey, string[]>;
}

function chainOf(tree: Map<string, BundleSource>, bundle: BundleSource): { levels: Level[]; descriptors: Record<string, unknown>[] } {
  const chain = parentChain(bundle, (parent) => tree.get(parent));
  if (!chain.ok) {
    // parentChain's sentences (provider/bundle/inheritance.ts) tell the kinds apart.
    const missing = /^Parent bundle '(.*)' of bundle '(.*)' not found$/s.exec(chain.error);
    if (missing) throw new MissingParentError(missing[2]!, missing[1]!);
    const cycle = /^Bundle '.*' has a parent cycle through '(.*)'$/s.exec(chain.error);
    if (cycle) throw new ParentCycleError(bundle.name, cycle[1]!);
    throw new BundleDescriptorError(chain.inOwnFilesOf ?? bundle.name, chain.error);
  }
  const levels = chain.chain.map(({ source, descriptor }) => {
    const sections = levelSections(source, descriptor);
    if (!sections.ok) throw new BundleDescriptorError(source.name, sections.error);
    return { source, sections: sections.sections };
  });
  return { levels, descriptors: chain.chain.map((l) => l.descriptor) };
}

/** Every level's YAML files of a section, parsed, parents first; an unreadable one throws. */
function sectionDocs(levels: readonly Level[], section: SectionKey): { declared: boolean; docs: unknown[] } {
  const docs: unknown[] = [];
  let declared = false;
  for (const { source, sections } of levels) {
    for (const file of sections.get(section)!.filter(isYamlName)) {
      declared = true;
      const parsed = parseYaml(source.files.get(file)!);
      if (!parsed.ok) throw new UnreadableYamlError(source.name, file, parsed.error, parsed.line);
      if (parsed.value !== null && parsed.value !== undefined) docs.push(parsed.value);
    }
  }
  return { declared, docs };
}

function mergedJcasc(levels: readonly Level[], descriptors: readonly Record<string, unknown>[], bundle: string): unknown {
  // The effective bundle's layout, as lint lays it out: each level's files under its name, parents first.
  const files: FileMap = new Map();
  const list: string[] = [];
  const owner = new Map<string, { bundle: string; file: string }>();
  for (const { source, sections } of levels) {
    for (const file of sections.get("jcasc")!.filter(isYamlName)) {
      const name = `${source.name}/${file}`;
      files.set(name, source.files.get(file)!);
      list.push(name);
      owner.set(name, { bundle: source.name, file });
    }
  }
  if (list.length === 0) return undefined;
  const merge = mergeJcascFiles(files, list, jcascStrategyOf(inheritedProperty(descriptors, "jcascMergeStrategy")));
  const unreadable = merge.unreadable[0];
  if (unreadable) {
    const at = owner.get(unreadable.name)!;
    throw new UnreadableYamlError(at.bundle, at.file, unreadable.error, unreadable.line);
  }
  const notMapping = merge.read.find((f) => f.node !== null && f.node.kind !== "map");
  if (notMapping) {
    const at = owner.get(notMapping.name)!;
    throw new JcascDocumentError(at.bundle, at.file);
  }
  if (merge.problems.length > 0) {
    const more = merge.problems.length > 1 ? ` (${merge.problems.length - 1} more)` : "";
    throw new JcascMergeError(bundle, `${mergeProblemText(merge.problems[0]!)}${more}`);
  }
  return mergedJcascValue(merge) ?? {};
}

/**
 * The bundle `bundleId` of the bundle tree at `treeRoot`, with its parents, as the view the comparison takes. Throws a
 * ConfigurationError (BundleNotFoundError, MissingParentError, ParentCycleError, BundleDescriptorError,
 * UnreadableYamlError, JcascDocumentError, JcascMergeError) naming the bundle or file and the way out.
 */
export function expectedView(treeRoot: string, bundleId: string): ConfigurationView {
  const tree = readBundleTree(treeRoot);
  const bundle = tree.get(bundleId);
  if (!bundle) throw new BundleNotFoundError(treeRoot, bundleId, [...tree.keys()]);
  return expectedViewOf(tree, bundle);
}

/** The same from bundles already read (a tree read once for many controllers). */
export function expectedViewOf(tree: Map<string, BundleSource>, bundle: BundleSource): ConfigurationView {
  const { levels, descriptors } = chainOf(tree, bundle);
  const view: ConfigurationView = {};
  const jenkins = mergedJcasc(levels, descriptors, bundle.name);
  if (jenkins !== undefined) view.jenkins = jenkins;
  const plugins = sectionDocs(levels, "plugins");
  if (plugins.declared) view.plugins = pluginIds(plugins.docs);
  const catalog = sectionDocs(levels, "catalog");
  if (catalog.declared) view.catalog = lastCatalog(catalog.docs) ?? {};
  const rbac = sectionDocs(levels, "rbac");
  if (rbac.declared) view.rbac = mergeRbac(rbac.docs);
  const items = sectionDocs(levels, "items");
  if (items.declared) view.items = collectItems(items.docs, itemStrategyOf(inheritedProperty(descriptors, "itemRemoveStrategy")) ?? "none");
  return view;
}
