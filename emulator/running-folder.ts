import { readBundleFolder } from "../provider/bundle/files";
import { quoted } from "../provider/text/printable";
import { isMapping, parseYaml } from "./descriptor";
import { ItemNode, ItemsYamlError, sectionFileItems } from "./item-tree";
import { bundlePluginVersion, bundleSections, sectionDocs, type RunningConfiguration } from "./running-configuration";

/** A running configuration folder the emulator cannot start a controller with; the message says why. */
export class RunningFolderError extends Error {
  override name = "RunningFolderError";
}

/** One caret less before each `${`: an export's escaping undone (bundleutils, handle_unwanted_escape_characters). */
function unescapeVariables(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unescapeVariables);
  if (isMapping(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, unescapeVariables(v)]));
  return typeof value === "string" ? value.replace(/\^\$\{/g, "${") : value;
}

/**
 * A controller's running configuration from a folder holding YAML as core-casc-export/zipExport returns it:
 * bundle.yaml lists the files of each section (jcasc, plugins, catalog, rbac, items, variables). Encrypted secrets
 * stay as they are (exports show them as they were); `^${X}` is read back as `${X}`. Every listed file must be
 * there and be YAML: anything else is a RunningFolderError naming the file.
 */
export function readRunningFolder(folder: string): { running: RunningConfiguration; items: ItemNode[] } {
  let content;
  try {
    content = readBundleFolder(folder);
  } catch (e) {
    throw new RunningFolderError(`${quoted(folder)} is not a readable folder (${e instanceof Error ? e.message : String(e)})`);
  }
  const raw = content.files.get("bundle.yaml");
  if (!raw) throw new RunningFolderError(`${quoted(folder)} has no bundle.yaml (the folder holds an export: bundle.yaml lists its files)`);
  const parsedDescriptor = parseYaml(raw);
  if (!parsedDescriptor.ok || !isMapping(parsedDescriptor.value)) throw new RunningFolderError(`bundle.yaml in ${quoted(folder)} is not a YAML mapping`);
  const descriptor = parsedDescriptor.value;
  for (const section of ["jcasc", "plugins", "catalog", "rbac", "items", "variables"]) {
    const list = descriptor[section];
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list)) throw new RunningFolderError(`bundle.yaml in ${quoted(folder)}: ${section} is not a list of files`);
    for (const name of list) {
      const file = content.files.get(String(name));
      if (!file) throw new RunningFolderError(`${quoted(folder)} has no ${quoted(String(name))}, which bundle.yaml lists under ${section}`);
      const parsed = parseYaml(file);
      if (!parsed.ok) throw new RunningFolderError(`${quoted(String(name))} in ${quoted(folder)} is not valid YAML: ${parsed.error}`);
    }
  }
  const bundle = { descriptor, files: content.files };
  const sections = bundleSections(bundle);
  const plugins = new Map(sections.plugins.map((entry) => [entry.id, bundlePluginVersion(sections, entry)] as const));
  const jenkins = unescapeVariables(sections.jenkins);
  const running: RunningConfiguration = { apiVersion: sections.apiVersion, jenkins: isMapping(jenkins) ? jenkins : {}, plugins };
  if (sections.catalog !== undefined) running.catalog = sections.catalog;
  if (sections.rbac !== undefined) running.rbac = sections.rbac;
  if (sections.variables !== undefined) running.variables = sections.variables;
  const items: ItemNode[] = [];
  for (const doc of sectionDocs(bundle, "items")) {
    try {
      items.push(...sectionFileItems(unescapeVariables(doc)));
    } catch (e) {
      if (e instanceof ItemsYamlError) throw new RunningFolderError(`the items of ${quoted(folder)} are not valid: ${e.message}`);
      throw e;
    }
  }
  return { running, items };
}
