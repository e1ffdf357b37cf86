import { type Entry, projectOnto } from "./entry";
import { namedSegment, pluginSegment } from "./keys";
import { CONFIGURATION_FILES, isMapping } from "./view";

// The compared entries of plugins.yaml, plugin-catalog.yaml, rbac.yaml and items.yaml (both views normalized). Each
// file is compared only when the expected side declares it. Names come from both sides where the file decides the
// whole set (plugins, the catalog, RBAC under its sync strategy, items under sync or remove-all); an entry is compared
// on the properties the expected entry gives it (projectOnto), a running-only entry as a whole.

const INSTALLED = "installed";

/** plugins.yaml: one key per plugin id of either side, "installed" or absent. */
export function pluginEntries(expected: readonly string[] | undefined, running: readonly string[] | undefined): Entry[] {
  if (expected === undefined) return [];
  const mine = new Set(expected);
  const theirs = new Set(running ?? []);
  return [...new Set([...mine, ...theirs])].map((id) => ({
    file: CONFIGURATION_FILES.plugins,
    segments: [pluginSegment(id)],
    expected: mine.has(id) ? INSTALLED : undefined,
    running: theirs.has(id) ? INSTALLED : undefined,
  }));
}

/** The plugins a catalog includes (every configuration's includePlugins), id to its version/url mapping. */
export function catalogPlugins(catalog: unknown): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const configurations = isMapping(catalog) && Array.isArray(catalog["configurations"]) ? catalog["configurations"] : [];
  for (const configuration of configurations) {
    const include = isMapping(configuration) ? configuration["includePlugins"] : undefined;
    if (isMapping(include)) for (const [id, spec] of Object.entries(include)) out.set(id, spec ?? {});
  }
  return out;
}

/** plugin-catalog.yaml: one key per included plugin of either side, its version (or url). */
export function catalogEntries(expected: unknown, running: unknown): Entry[] {
  if (expected === undefined) return [];
  const mine = catalogPlugins(expected);
  const theirs = catalogPlugins(running);
  return [...new Set([...mine.keys(), ...theirs.keys()])].map((id) => ({
    file: CONFIGURATION_FILES.catalog,
    segments: [pluginSegment(id)],
    expected: mine.get(id),
    running: theirs.get(id),
  }));
}

/** Entries of a list by their `name` (the last of a repeated name wins, as a later file's role replaces one). */
export function byName(list: unknown): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  if (Array.isArray(list)) for (const entry of list) if (isMapping(entry) && typeof entry["name"] === "string") out.set(entry["name"], entry);
  return out;
}

function namedEntries(file: string, kind: "role" | "group", expected: unknown, running: unknown, withExtras: boolean): Entry[] {
  const mine = byName(expected);
  const theirs = byName(running);
  const names = withExtras ? new Set([...mine.keys(), ...theirs.keys()]) : mine.keys();
  return [...names].map((name) => {
    const own = mine.get(name);
    const other = theirs.get(name);
    return {
      file,
      segments: [namedSegment(kind, name)],
      expected: own,
      running: own === undefined ? other : projectOnto(own, other),
    };
  });
}

/** The RBAC remove strategy of an rbac.yaml document, lower case; sync when unsaid (an export writes SYNC). */
export function rbacRemoveStrategy(rbac: unknown): string {
  const strategy = isMapping(rbac) && isMapping(rbac["removeStrategy"]) ? rbac["removeStrategy"]["rbac"] : undefined;
  return typeof strategy === "string" ? strategy.toLowerCase() : "sync";
}

/**
 * rbac.yaml: one key per role and per group, the whole entry. Roles and groups the controller has beyond the bundle's
 * are keys too, unless the bundle's strategy is update (which keeps them: a reload would not remove them).
 */
export function rbacEntries(expected: unknown, running: unknown): Entry[] {
  if (expected === undefined) return [];
  const extras = rbacRemoveStrategy(expected) !== "update";
  const doc = (d: unknown, field: string) => (isMapping(d) ? d[field] : undefined);
  return [
    ...namedEntries(CONFIGURATION_FILES.rbac, "role", doc(expected, "roles"), doc(running, "roles"), extras),
    ...namedEntries(CONFIGURATION_FILES.rbac, "group", doc(expected, "groups"), doc(running, "groups"), extras),
  ];
}

/** Items by full name (`team/deploy`), each without its children; the last of a repeated name wins (an upsert). */
export function itemsByFullName(items: readonly unknown[]): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  const visit = (list: readonly unknown[], prefix: string, depth: number): void => {
    if (depth > 64) return;
    for (const item of list) {
      if (!isMapping(item) || typeof item["name"] !== "string") continue;
      const fullName = `${prefix}${item["name"]}`;
      const { items: children, ...own } = item;
      out.set(fullName, own);
      if (Array.isArray(children)) visit(children, `${fullName}/`, depth + 1);
    }
  };
  visit(items, "", 0);
  return out;
}

/** Item remove strategies under which the bundle decides the whole set of items (others keep items made by hand). */
export const ITEM_STRATEGIES_WITH_EXTRAS: readonly string[] = ["sync", "remove-all"];

/** items.yaml: one key per item (full name), the item without its children. */
export function itemEntries(expected: ConfigurationItems | undefined, running: ConfigurationItems | undefined): Entry[] {
  if (expected === undefined) return [];
  const mine = itemsByFullName(expected.items);
  const theirs = itemsByFullName(running?.items ?? []);
  const extras = ITEM_STRATEGIES_WITH_EXTRAS.includes(expected.removeStrategy.toLowerCase());
  const names = extras ? new Set([...mine.keys(), ...theirs.keys()]) : mine.keys();
  return [...names].map((name) => {
    const own = mine.get(name);
    const other = theirs.get(name);
    return {
      file: CONFIGURATION_FILES.items,
      segments: [namedSegment("item", name)],
      expected: own,
      running: own === undefined ? other : projectOnto(own, other),
    };
  });
}

type ConfigurationItems = { removeStrategy: string; items: unknown[] };
