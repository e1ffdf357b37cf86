import YAML from "yaml";
import { jcascStrategyOf, mergedJcascValue, mergeJcascFiles } from "../provider/bundle/jcasc";
import { Descriptor, isMapping, parseYaml } from "./descriptor";
import type { EffectiveBundle } from "./effective-bundle";
import { ItemNode, itemToYamlObject, ItemTree } from "./item-tree";
import { deepMerge } from "./yaml-merge";
import type { FileMap } from "./zip";

/**
 * The Jenkins configuration file of every export: `jenkins.yaml`, as the CasC client plugin's BundleResponse writes it
 * and a real export shows (tsmp-falcon-platform/ci-bundle-utils examples/offline-test-run/bundlecontent.yaml:
 * `jcasc: ["jenkins.yaml"]`); bundleutils refuses an export without it. The spec's section name `core.yaml` selects
 * it in an item export.
 */
export const JENKINS_FILE_NAME = "jenkins.yaml";

/** Sections of item export, in the spec's order (`core.yaml` is read as jenkins.yaml: see itemSection). */
export const ITEM_EXPORT_SECTIONS = [
  "bundle.yaml",
  JENKINS_FILE_NAME,
  "plugins.yaml",
  "plugin-catalog.yaml",
  "rbac.yaml",
  "items.yaml",
] as const;

const dump = (value: unknown): Buffer => Buffer.from(YAML.stringify(value));

/** core-casc-export's text: every file as its own YAML document, headed by its name. */
export function concatenateYaml(files: FileMap): string {
  return [...files.entries()].map(([name, content]) => `---\n# ${name}\n${content.toString("utf8").replace(/\n*$/, "\n")}`).join("");
}

function sectionDocs(applied: EffectiveBundle | null, section: string): unknown[] {
  if (!applied) return [];
  const list = applied.descriptor[section];
  if (!Array.isArray(list)) return [];
  return list.flatMap((name) => {
    const parsed = parseYaml(applied.files.get(String(name)) ?? "");
    return parsed.ok && parsed.value !== null && parsed.value !== undefined ? [parsed.value] : [];
  });
}

function pluginIds(docs: unknown[]): { id: string }[] {
  const ids: string[] = [];
  for (const doc of docs) {
    const list = isMapping(doc) && Array.isArray(doc["plugins"]) ? doc["plugins"] : [];
    for (const p of list) if (isMapping(p) && typeof p["id"] === "string" && !ids.includes(p["id"])) ids.push(p["id"]);
  }
  return ids.map((id) => ({ id }));
}

function jcascConfiguration(applied: EffectiveBundle): unknown {
  const list = Array.isArray(applied.descriptor["jcasc"]) ? applied.descriptor["jcasc"].map(String) : [];
  return mergedJcascValue(mergeJcascFiles(applied.files, list, jcascStrategyOf(applied.descriptor["jcascMergeStrategy"])));
}

/**
 * The instance's current configuration as a bundle: the applied effective bundle's sections merged into one file
 * each (jcasc as JCasC merges it; for the others later files override earlier ones), plus the current items.
 */
export function exportConfiguration(instanceId: string, instanceUrl: string, applied: EffectiveBundle | null, items: ItemTree): FileMap {
  const defaults = {
    jenkins: { systemMessage: `CloudBees CI emulator: ${instanceId}` },
    unclassified: { location: { url: instanceUrl } },
  };
  // The jcasc files merged as JCasC merges them (sequences of every level concatenated), over the instance's defaults.
  const jcasc = applied ? jcascConfiguration(applied) : null;
  const core = deepMerge(defaults, jcasc);
  const descriptor: Descriptor = {
    apiVersion: "1",
    id: instanceId,
    description: `Configuration exported from ${instanceId}`,
    version: applied ? applied.version : "1",
    jcasc: [JENKINS_FILE_NAME],
    plugins: ["plugins.yaml"],
  };
  const files: FileMap = new Map();
  files.set(JENKINS_FILE_NAME, dump(core));
  files.set("plugins.yaml", dump({ plugins: pluginIds(sectionDocs(applied, "plugins")) }));
  const catalogs = sectionDocs(applied, "catalog");
  if (catalogs.length > 0) {
    descriptor["catalog"] = ["plugin-catalog.yaml"];
    files.set("plugin-catalog.yaml", dump(catalogs[catalogs.length - 1]));
  }
  const rbac = sectionDocs(applied, "rbac");
  if (rbac.length > 0) {
    descriptor["rbac"] = ["rbac.yaml"];
    files.set("rbac.yaml", dump(rbac.reduce<unknown>((acc, doc) => deepMerge(acc, doc), undefined)));
  }
  descriptor["items"] = ["items.yaml"];
  files.set("items.yaml", dump({ removeStrategy: { rbac: "SYNC", items: "NONE" }, items: items.toYamlObjects() }));
  const variables = sectionDocs(applied, "variables");
  if (variables.length > 0) {
    descriptor["variables"] = ["variables.yaml"];
    files.set("variables.yaml", dump(variables.reduce<unknown>((acc, doc) => deepMerge(acc, doc), undefined)));
  }
  return new Map([["bundle.yaml", dump(descriptor)], ...files]);
}

/** Plugins an item kind needs, so an item export is a usable bundle on its own. */
function pluginsFor(node: ItemNode, into: string[] = []): string[] {
  const byKind: Record<string, string[]> = {
    folder: ["cloudbees-folder"],
    pipeline: ["workflow-job", "workflow-cps"],
    multibranch: ["workflow-multibranch"],
    organizationFolder: ["branch-api"],
  };
  for (const id of byKind[node.kind] ?? []) if (!into.includes(id)) into.push(id);
  for (const child of node.children?.values() ?? []) pluginsFor(child, into);
  return into;
}

/** One item exported as a CasC bundle, section by section. */
export function exportItem(node: ItemNode, fullName: string): FileMap {
  return new Map<string, Buffer>([
    [
      "bundle.yaml",
      dump({
        apiVersion: "1",
        id: node.name,
        description: `Export of item ${fullName}`,
        version: "1",
        jcasc: [JENKINS_FILE_NAME],
        plugins: ["plugins.yaml"],
        catalog: ["plugin-catalog.yaml"],
        rbac: ["rbac.yaml"],
        items: ["items.yaml"],
      }),
    ],
    [JENKINS_FILE_NAME, dump({ jenkins: {} })],
    ["plugins.yaml", dump({ plugins: pluginsFor(node).map((id) => ({ id })) })],
    ["plugin-catalog.yaml", dump({ type: "plugin-catalog", version: "1", name: `${node.name}-catalog`, configurations: [] })],
    ["rbac.yaml", dump({ removeStrategy: { rbac: "SYNC" }, roles: [], groups: [] })],
    ["items.yaml", dump({ removeStrategy: { rbac: "SYNC", items: "NONE" }, items: [itemToYamlObject(node)] })],
  ]);
}
