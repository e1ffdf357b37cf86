import { quoted } from "../provider/text/printable";
import { isMapping } from "./descriptor";
import { ItemNode, ItemsYamlError, ItemTree, parseItemsDocument } from "./item-tree";
import type { RunningConfiguration } from "./running-configuration";

/** A change "in the UI" the emulator cannot make: names what was asked and why. */
export class ConfigurationChangeError extends Error {
  override name = "ConfigurationChangeError";
}

type Segment = string | number;

/**
 * A dotted path: `unclassified.location.adminAddress`; a list element by index:
 * `credentials.system.domainCredentials[0].credentials[1].usernamePassword.description`. An index one past the end
 * appends. Keys holding "." or "[" cannot be named.
 */
export function parseDottedPath(path: string): Segment[] {
  const out: Segment[] = [];
  for (const part of path.split(".")) {
    const m = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part);
    if (!m || (m[1] === "" && m[2] === "")) throw new ConfigurationChangeError(`invalid path ${quoted(path)}: use key.key[index].key`);
    if (m[1] !== "") out.push(m[1]!);
    for (const index of m[2]!.matchAll(/\[(\d+)\]/g)) out.push(Number(index[1]));
  }
  return out;
}

/** Sets (or, value undefined, removes) the value at path in doc, creating the mappings on the way. */
export function changeAtPath(doc: Record<string, unknown>, path: string, value: unknown): void {
  const segments = parseDottedPath(path);
  let node: unknown = doc;
  for (let i = 0; i < segments.length - 1; i++) {
    const seg = segments[i]!;
    const container = node as Record<string, unknown> & unknown[];
    // Own properties only: a path never reaches a prototype ("__proto__", "constructor").
    let next = Object.hasOwn(container, seg) ? (container as Record<Segment, unknown>)[seg] : undefined;
    if (next === undefined || next === null) {
      if (value === undefined) return; // nothing there to remove
      next = typeof segments[i + 1] === "number" ? [] : {};
      setIn(container, seg, next, path);
    }
    if (!isMapping(next) && !Array.isArray(next)) {
      throw new ConfigurationChangeError(`cannot change ${quoted(path)}: ${quoted(segments.slice(0, i + 1).join("."))} is not a mapping or a list`);
    }
    node = next;
  }
  const last = segments[segments.length - 1]!;
  if (value === undefined) {
    if (Array.isArray(node) && typeof last === "number") node.splice(last, 1);
    else if (isMapping(node) && typeof last === "string" && Object.hasOwn(node, last)) delete node[last];
    return;
  }
  setIn(node as Record<string, unknown>, last, structuredClone(value), path);
}

function setIn(container: unknown, seg: Segment, value: unknown, path: string): void {
  if (Array.isArray(container) && typeof seg === "number" && seg <= container.length) {
    container[seg] = value;
  } else if (isMapping(container) && typeof seg === "string") {
    Object.defineProperty(container, seg, { value, writable: true, enumerable: true, configurable: true });
  } else {
    throw new ConfigurationChangeError(`cannot change ${quoted(path)}: ${quoted(String(seg))} does not fit (a key in a mapping, an index up to a list's length)`);
  }
}

/**
 * plugins.yaml: path is a plugin id; a string value installs it at that version, any other value installs it at
 * the envelope's version, undefined uninstalls it.
 */
export function changePlugin(running: RunningConfiguration, id: string, value: unknown): void {
  if (id.trim() === "") throw new ConfigurationChangeError("a plugins.yaml change needs a plugin id as its path");
  if (value === undefined) running.plugins.delete(id);
  else running.plugins.set(id, typeof value === "string" ? value : null);
}

/** items.yaml: creates or updates the item of this full name (value: a mapping as items.yaml writes an item; a folder keeps its children), undefined removes it. */
export function changeItem(items: ItemTree, fullName: string, value: unknown): void {
  const parts = fullName.split("/");
  if (parts.some((p) => p === "")) throw new ConfigurationChangeError(`invalid item full name ${quoted(fullName)}`);
  if (value === undefined) {
    items.removeAt(fullName);
    return;
  }
  if (!isMapping(value)) throw new ConfigurationChangeError(`cannot change item ${quoted(fullName)}: the value must be a mapping such as {kind: "folder"}`);
  const folder = items.folder(parts.slice(0, -1).join("/"));
  if (!folder.ok) throw new ConfigurationChangeError(`cannot change item ${quoted(fullName)}: its folder does not exist`);
  let nodes: ItemNode[];
  try {
    nodes = parseItemsDocument({ items: [{ ...value, name: parts[parts.length - 1] }] });
  } catch (e) {
    if (e instanceof ItemsYamlError) throw new ConfigurationChangeError(`cannot change item ${quoted(fullName)}: ${e.message}`);
    throw e;
  }
  items.upsert(folder.children, nodes);
}
