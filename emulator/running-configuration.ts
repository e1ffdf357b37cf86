import { jcascStrategyOf, mergedJcascValue, mergeJcascFiles } from "../provider/bundle/jcasc";
import { isMapping, parseYaml } from "./descriptor";
import type { EffectiveBundle } from "./effective-bundle";
import { deepMerge } from "./yaml-merge";

/**
 * What a controller runs, as its exports show it: its Jenkins configuration, installed plugins, plugin catalog,
 * RBAC and variables (its items live in the instance's ItemTree). Set from the effective bundle by a reload or a
 * restart, from a folder at start (runningConfigurations), and changed "in the UI" by changeConfiguration.
 * Secrets are kept as given; only exports encrypt them.
 */
export interface RunningConfiguration {
  apiVersion: string;
  /** jenkins.yaml as JCasC applied it (every jcasc file merged) over the emulator's defaults. */
  jenkins: Record<string, unknown>;
  /** Installed plugins: id -> version (null: the version the envelope ships; the emulator has no update center). */
  plugins: Map<string, string | null>;
  catalog?: unknown;
  rbac?: Record<string, unknown>;
  variables?: unknown;
}

/** The files changeConfiguration changes. items.yaml is the instance's item tree (by full name). */
export const CHANGEABLE_FILES = ["jenkins.yaml", "plugins.yaml", "items.yaml", "rbac.yaml"] as const;
export type ChangeableFile = (typeof CHANGEABLE_FILES)[number];

/** The configuration of a controller nothing has configured yet. */
export function defaultRunning(instanceId: string, instanceUrl: string): RunningConfiguration {
  return { apiVersion: "1", jenkins: defaultJenkins(instanceId, instanceUrl), plugins: new Map() };
}

/** The emulator's own Jenkins settings, under every applied bundle (a bundle may override them). */
export function defaultJenkins(instanceId: string, instanceUrl: string): Record<string, unknown> {
  return { jenkins: { systemMessage: `CloudBees CI emulator: ${instanceId}` }, unclassified: { location: { url: instanceUrl } } };
}

export function copyRunning(r: RunningConfiguration): RunningConfiguration {
  return structuredClone(r);
}

/** A bundle's descriptor and files: an effective bundle, or a running configuration folder. */
export type BundleContent = Pick<EffectiveBundle, "descriptor" | "files">;

/** The parsed documents of one bundle section, in the descriptor's order. */
export function sectionDocs(bundle: BundleContent, section: string): unknown[] {
  const list = bundle.descriptor[section];
  if (!Array.isArray(list)) return [];
  return list.flatMap((name) => {
    const parsed = parseYaml(bundle.files.get(String(name)) ?? "");
    return parsed.ok && parsed.value !== null && parsed.value !== undefined ? [parsed.value] : [];
  });
}

export interface PluginEntry {
  id: string;
  version?: string;
}

/** plugins.yaml entries (`plugins: [{id, version?}]`), first one of an id wins. */
export function pluginEntries(docs: unknown[]): PluginEntry[] {
  const out = new Map<string, PluginEntry>();
  for (const doc of docs) {
    const list = isMapping(doc) && Array.isArray(doc["plugins"]) ? doc["plugins"] : [];
    for (const p of list) {
      if (!isMapping(p) || typeof p["id"] !== "string" || out.has(p["id"])) continue;
      out.set(p["id"], typeof p["version"] === "string" ? { id: p["id"], version: p["version"] } : { id: p["id"] });
    }
  }
  return [...out.values()];
}

/** Plugin versions a plugin catalog includes: `configurations[].includePlugins.<id>.version`. */
export function catalogVersions(catalog: unknown): Map<string, string> {
  const out = new Map<string, string>();
  const configurations = isMapping(catalog) && Array.isArray(catalog["configurations"]) ? catalog["configurations"] : [];
  for (const c of configurations) {
    const include = isMapping(c) && isMapping(c["includePlugins"]) ? c["includePlugins"] : {};
    for (const [id, spec] of Object.entries(include)) {
      if (isMapping(spec) && typeof spec["version"] === "string") out.set(id, spec["version"]);
    }
  }
  return out;
}

/** What a bundle asks a controller to run, section by section. */
export interface BundleSections {
  apiVersion: string;
  jenkins: unknown;
  plugins: PluginEntry[];
  catalog?: unknown;
  rbac?: Record<string, unknown>;
  rbacStrategy: string;
  variables?: unknown;
}

export function bundleSections(bundle: BundleContent): BundleSections {
  const jcascList = Array.isArray(bundle.descriptor["jcasc"]) ? bundle.descriptor["jcasc"].map(String) : [];
  const jenkins = mergedJcascValue(mergeJcascFiles(bundle.files, jcascList, jcascStrategyOf(bundle.descriptor["jcascMergeStrategy"])));
  const catalogs = sectionDocs(bundle, "catalog");
  const rbacDocs = sectionDocs(bundle, "rbac");
  const variables = sectionDocs(bundle, "variables");
  const rbac = rbacDocs.reduce<unknown>((acc, doc) => deepMerge(acc, doc), undefined);
  const strategy = bundle.descriptor["itemRemoveStrategy"];
  const fromDoc = isMapping(rbac) && isMapping(rbac["removeStrategy"]) ? rbac["removeStrategy"]["rbac"] : undefined;
  const rbacStrategy = isMapping(strategy) && typeof strategy["rbac"] === "string" ? strategy["rbac"] : typeof fromDoc === "string" ? fromDoc : "sync";
  return {
    apiVersion: String(bundle.descriptor["apiVersion"] ?? "1"),
    jenkins,
    plugins: pluginEntries(sectionDocs(bundle, "plugins")),
    // The first catalog file only, as the CasC validator warns: "More than one plugin catalog file used in <id>.
    // Using only first read file." (provider/bundle/checks.ts).
    ...(catalogs.length > 0 ? { catalog: catalogs[0] } : {}),
    ...(isMapping(rbac) ? { rbac } : {}),
    rbacStrategy: rbacStrategy.toLowerCase(),
    ...(variables.length > 0 ? { variables: variables.reduce<unknown>((acc, doc) => deepMerge(acc, doc), undefined) } : {}),
  };
}

/**
 * The version a bundle installs a plugin at: its plugins.yaml `version` (apiVersion 2 only, as
 * ConfigurationBundleService.pluginsConfigAreHotReloadable reads it), else its catalog's, else the envelope's (null).
 */
export function bundlePluginVersion(sections: BundleSections, entry: PluginEntry): string | null {
  if (sections.apiVersion === "2" && entry.version !== undefined) return entry.version;
  return catalogVersions(sections.catalog).get(entry.id) ?? null;
}

/** Roles and groups merged by name (rbac removeStrategy UPDATE): the bundle's entries replace same-named ones. */
function mergeRbac(running: Record<string, unknown> | undefined, bundle: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...(running ?? {}), ...bundle };
  for (const key of ["roles", "groups"]) {
    const byName = new Map<string, unknown>();
    for (const list of [running?.[key], bundle[key]]) {
      for (const e of Array.isArray(list) ? list : []) byName.set(isMapping(e) ? String(e["name"]) : JSON.stringify(e), e);
    }
    if (byName.size > 0) out[key] = [...byName.values()];
  }
  return out;
}

/**
 * The configuration after a bundle is applied: jcasc replaces the Jenkins configuration (over the defaults), the
 * bundle's plugins are installed (a reload cannot uninstall: plugins installed by hand stay; a restart also brings
 * installed ones to the bundle's version), catalog and variables are the bundle's, RBAC per its remove strategy
 * (sync replaces, update merges by name).
 */
export function applyBundle(running: RunningConfiguration, bundle: EffectiveBundle, defaults: Record<string, unknown>, restart: boolean): RunningConfiguration {
  const sections = bundleSections(bundle);
  const plugins = new Map(running.plugins);
  for (const entry of sections.plugins) {
    if (!plugins.has(entry.id) || restart) plugins.set(entry.id, bundlePluginVersion(sections, entry));
  }
  const jenkins = deepMerge(defaults, sections.jenkins);
  const next: RunningConfiguration = { apiVersion: sections.apiVersion, jenkins: isMapping(jenkins) ? jenkins : { ...defaults }, plugins };
  if (sections.catalog !== undefined) next.catalog = structuredClone(sections.catalog);
  if (sections.rbac) next.rbac = sections.rbacStrategy === "update" ? mergeRbac(running.rbac, sections.rbac) : structuredClone(sections.rbac);
  else if (running.rbac) next.rbac = structuredClone(running.rbac);
  if (sections.variables !== undefined) next.variables = structuredClone(sections.variables);
  return structuredClone(next);
}
