import { isMapping } from "./descriptor";

/** Kinds whose items.yaml entries hold child `items`. */
const FOLDER_KINDS = ["folder"];

export interface ItemNode {
  kind: string;
  name: string;
  /** Every other property of the items.yaml entry, kept as given. */
  definition: Record<string, unknown>;
  /** Present for folders. */
  children?: Map<string, ItemNode>;
}

export class ItemsYamlError extends Error {
  override name = "ItemsYamlError";
}

export type FolderLookup =
  | { ok: true; children: Map<string, ItemNode>; fullName: string }
  | { ok: false; reason: "missing" | "not-folder" };

function parseItem(raw: unknown, where: string): ItemNode {
  if (!isMapping(raw)) throw new ItemsYamlError(`${where} must be a mapping`);
  const { kind, name, items, ...definition } = raw;
  if (typeof kind !== "string" || kind.trim() === "") throw new ItemsYamlError(`${where} needs a 'kind'`);
  if (typeof name !== "string" || name.trim() === "" || name.includes("/")) {
    throw new ItemsYamlError(`${where} needs a 'name' without '/'`);
  }
  const node: ItemNode = { kind, name, definition };
  if (FOLDER_KINDS.includes(kind)) {
    node.children = new Map();
    if (items !== undefined && items !== null) {
      if (!Array.isArray(items)) throw new ItemsYamlError(`${where}.items must be a list`);
      items.forEach((child, i) => {
        const c = parseItem(child, `${where}.items[${i}]`);
        node.children!.set(c.name, c);
      });
    }
  } else if (items !== undefined) {
    definition["items"] = items;
  }
  return node;
}

/** Items of an items.yaml document (`items` list, optional removeStrategy). Throws ItemsYamlError. */
export function parseItemsDocument(doc: unknown): ItemNode[] {
  if (!isMapping(doc) || !Array.isArray(doc["items"])) {
    throw new ItemsYamlError("The items YAML must be a mapping with an 'items' list");
  }
  return (doc["items"] as unknown[]).map((raw, i) => parseItem(raw, `items[${i}]`));
}

/**
 * Items of an items.yaml a bundle or an export lists: present, possibly empty. A controller with no items exports
 * only `removeStrategy` (issue 52, measured), and the plugin's exporter writes an empty file when there is nothing
 * (BundleExporter.ItemsExporter in pankajy-dev/cloudbees-casc-client-workshop); both hold no items. create-items
 * keeps parseItemsDocument's stricter rule: a request must carry the list.
 */
export function sectionFileItems(doc: unknown): ItemNode[] {
  if (doc === null || doc === undefined) return [];
  if (isMapping(doc) && (doc["items"] === undefined || doc["items"] === null)) return [];
  return parseItemsDocument(doc);
}

/** items.yaml `removeStrategy.items` of a document, if any. */
export function removeStrategyOf(doc: unknown): string | undefined {
  const rs = isMapping(doc) ? doc["removeStrategy"] : undefined;
  return isMapping(rs) && typeof rs["items"] === "string" ? rs["items"] : undefined;
}

export function itemToYamlObject(node: ItemNode): Record<string, unknown> {
  const out: Record<string, unknown> = { kind: node.kind, name: node.name, ...node.definition };
  if (node.children) out["items"] = [...node.children.values()].map(itemToYamlObject);
  return out;
}

function upsertInto(target: Map<string, ItemNode>, node: ItemNode): void {
  const existing = target.get(node.name);
  if (existing && existing.children && node.children && existing.kind === node.kind) {
    existing.definition = node.definition;
    for (const child of node.children.values()) upsertInto(existing.children, child);
  } else {
    target.set(node.name, node);
  }
}

/** The items of one instance, created by create-items and by applied bundles. */
export class ItemTree {
  private readonly root = new Map<string, ItemNode>();

  /** Folder by Jenkins full name ("" = root). */
  folder(fullName: string): FolderLookup {
    const parts = fullName.split("/").filter((p) => p !== "");
    let children = this.root;
    for (const part of parts) {
      const node = children.get(part);
      if (!node) return { ok: false, reason: "missing" };
      if (!node.children) return { ok: false, reason: "not-folder" };
      children = node.children;
    }
    return { ok: true, children, fullName: parts.join("/") };
  }

  find(fullName: string): ItemNode | undefined {
    const parts = fullName.split("/").filter((p) => p !== "");
    let node: ItemNode | undefined;
    let children: Map<string, ItemNode> | undefined = this.root;
    for (const part of parts) {
      node = children?.get(part);
      if (!node) return undefined;
      children = node.children;
    }
    return node;
  }

  /** Creates the items, or updates same-named ones (folders merge their children). */
  upsert(children: Map<string, ItemNode>, nodes: ItemNode[]): void {
    for (const node of nodes) upsertInto(children, node);
  }

  rootChildren(): Map<string, ItemNode> {
    return this.root;
  }

  topLevelNames(): string[] {
    return [...this.root.keys()];
  }

  remove(name: string): void {
    this.root.delete(name);
  }

  /** Removes the item of this full name (with what a folder holds); false when there is none. */
  removeAt(fullName: string): boolean {
    const parts = fullName.split("/");
    const parent = this.folder(parts.slice(0, -1).join("/"));
    return parent.ok && parent.children.delete(parts[parts.length - 1]!);
  }

  fullNames(): string[] {
    const out: string[] = [];
    const walk = (children: Map<string, ItemNode>, prefix: string): void => {
      for (const node of children.values()) {
        const full = prefix === "" ? node.name : `${prefix}/${node.name}`;
        out.push(full);
        if (node.children) walk(node.children, full);
      }
    };
    walk(this.root, "");
    return out.sort();
  }

  toYamlObjects(): Record<string, unknown>[] {
    return [...this.root.values()].map(itemToYamlObject);
  }
}
