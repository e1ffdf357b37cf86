import { isMapping } from "./view";

// The documents of plugins.yaml, plugin-catalog.yaml, rbac.yaml and items.yaml turned into a view's fields, the same
// way for a bundle (expected.ts) and an export (exported.ts). Documents are given in order: parents first, then each
// bundle's files in its descriptor's order.

/** Plugin ids of plugins.yaml documents (`plugins: [{id: x}]`), each once, in order. */
export function pluginIds(docs: readonly unknown[]): string[] {
  const ids = new Set<string>();
  for (const doc of docs) {
    const list = isMapping(doc) && Array.isArray(doc["plugins"]) ? doc["plugins"] : [];
    for (const p of list) if (isMapping(p) && typeof p["id"] === "string" && p["id"] !== "") ids.add(p["id"]);
  }
  return [...ids];
}

/** The catalog in force: the last plugin-catalog document (a bundle has one; a child's replaces its parent's). */
export function lastCatalog(docs: readonly unknown[]): unknown {
  for (let i = docs.length - 1; i >= 0; i--) if (isMapping(docs[i])) return docs[i];
  return undefined;
}

/** rbac.yaml documents merged: roles and groups of every document (a later one of a name replaces an earlier), the last remove strategy. */
export function mergeRbac(docs: readonly unknown[]): { removeStrategy?: unknown; roles: unknown[]; groups: unknown[] } {
  const roles = new Map<string, unknown>();
  const groups = new Map<string, unknown>();
  let removeStrategy: unknown;
  const add = (into: Map<string, unknown>, list: unknown): void => {
    if (!Array.isArray(list)) return;
    list.forEach((entry, i) => into.set(isMapping(entry) && typeof entry["name"] === "string" ? `n:${entry["name"]}` : `i:${into.size}:${i}`, entry));
  };
  for (const doc of docs) {
    if (!isMapping(doc)) continue;
    if (doc["removeStrategy"] !== undefined) removeStrategy = doc["removeStrategy"];
    add(roles, doc["roles"]);
    add(groups, doc["groups"]);
  }
  return { ...(removeStrategy === undefined ? {} : { removeStrategy }), roles: [...roles.values()], groups: [...groups.values()] };
}

/** The item remove strategy a document sets (`removeStrategy: {items: NONE}`), lower case. */
export function itemStrategyOf(value: unknown): string | undefined {
  const items = isMapping(value) ? value["items"] : undefined;
  return typeof items === "string" ? items.toLowerCase() : undefined;
}

/** items.yaml documents: their items in order and the last remove strategy they set (else `fallback`). */
export function collectItems(docs: readonly unknown[], fallback: string): { removeStrategy: string; items: unknown[] } {
  let removeStrategy = fallback;
  const items: unknown[] = [];
  for (const doc of docs) {
    if (!isMapping(doc)) continue;
    removeStrategy = itemStrategyOf(doc["removeStrategy"]) ?? removeStrategy;
    if (Array.isArray(doc["items"])) items.push(...doc["items"]);
  }
  return { removeStrategy, items };
}
