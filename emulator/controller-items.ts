/**
 * Controllers as items of the operations center, as real clients use them: created and updated by create-items
 * (cb-ci/ci-casc-api-samples createManagedController.sh with templates/create-mm.yaml), exported one item at a time
 * (casc-getCjocControllerItemsYaml.sh), listed by the Controllers view (getConnectedControllers.sh reads
 * `.jobs[].name` and `.jobs[].url`), stopped and deleted (deleteManagedController.sh: `stopAction`, then `doDelete`).
 * A controller item names its bundle in `properties: [{configurationAsCode: {bundle: <id>}}]`, as create-mm.yaml and
 * the real export kept in tsmp-falcon-platform/ci-bundle-utils (examples/offline-test-run/bundlecontent.yaml) do.
 */
import { CONTROLLER_ITEM_KINDS } from "../provider/bundle/item-kinds";
import { isMapping } from "./descriptor";
import type { ItemNode, ItemTree } from "./item-tree";

/** Jenkins' `_class` of each kind in api/json (no client reads it; for the shape). */
const CLASS_OF: Record<string, string> = {
  managedController: "com.cloudbees.opscenter.server.model.ManagedMaster",
  clientController: "com.cloudbees.opscenter.server.model.ClientMaster",
};

export function isControllerItem(node: ItemNode): boolean {
  return CONTROLLER_ITEM_KINDS.includes(node.kind);
}

/**
 * The bundle a controller item names: the id, null for `configurationAsCode: {}` (none), undefined when the item has
 * no configurationAsCode property (it says nothing about the bundle).
 */
export function bundleOfItem(node: ItemNode): string | null | undefined {
  const properties = node.definition["properties"];
  if (!Array.isArray(properties)) return undefined;
  for (const p of properties) {
    if (!isMapping(p) || !("configurationAsCode" in p)) continue;
    const casc = p["configurationAsCode"];
    const bundle = isMapping(casc) ? casc["bundle"] : undefined;
    return typeof bundle === "string" && bundle.trim() !== "" ? bundle : null;
  }
  return undefined;
}

/** Writes `bundle` into the item's configurationAsCode property (so that its export says what is assigned). */
export function setBundleOfItem(node: ItemNode, bundle: string | null): void {
  const properties = Array.isArray(node.definition["properties"]) ? [...(node.definition["properties"] as unknown[])] : [];
  const value = { configurationAsCode: bundle === null ? {} : { bundle } };
  const at = properties.findIndex((p) => isMapping(p) && "configurationAsCode" in p);
  if (at >= 0) properties[at] = value;
  else properties.unshift(value);
  node.definition["properties"] = properties;
}

/** Every controller item of the tree with its full name, folders walked. */
export function controllerItems(tree: ItemTree): { fullName: string; node: ItemNode }[] {
  const out: { fullName: string; node: ItemNode }[] = [];
  const walk = (children: Map<string, ItemNode>, prefix: string): void => {
    for (const node of children.values()) {
      const fullName = prefix === "" ? node.name : `${prefix}/${node.name}`;
      if (isControllerItem(node)) out.push({ fullName, node });
      if (node.children) walk(node.children, fullName);
    }
  };
  walk(tree.rootChildren(), "");
  return out;
}

/** Adds the items of controllers given at start: folders for their parents, a managedController for each. */
export function seedControllerItems(tree: ItemTree, fullPaths: string[]): void {
  for (const fullPath of fullPaths) {
    const parts = fullPath.split("/");
    let children: Map<string, ItemNode> | undefined = tree.rootChildren();
    for (const folder of parts.slice(0, -1)) {
      let node: ItemNode | undefined = children?.get(folder);
      if (children && !node) children.set(folder, (node = { kind: "folder", name: folder, definition: {}, children: new Map() }));
      children = node?.children; // none under a controller named like a folder: the first one is kept
    }
    const name = parts[parts.length - 1]!;
    if (children && !children.has(name)) children.set(name, { kind: "managedController", name, definition: {} });
  }
}

/** The item's URL below the operations center: `<oc>job/team-a/job/controller-a/`. */
export function itemUrl(ocUrl: string, fullName: string): string {
  return `${ocUrl}${fullName.split("/").map((s) => `job/${encodeURIComponent(s)}/`).join("")}`;
}

/** `GET <oc>view/Controllers/api/json`: every controller item, folders walked, as Jenkins lists a view's jobs. */
export function controllersView(ocUrl: string, tree: ItemTree): Record<string, unknown> {
  return {
    _class: "hudson.model.ListView",
    name: "Controllers",
    url: `${ocUrl}view/Controllers/`,
    jobs: controllerItems(tree).map(({ fullName, node }) => ({
      _class: CLASS_OF[node.kind],
      name: node.name,
      fullName,
      url: itemUrl(ocUrl, fullName),
    })),
  };
}

/** The full name of `job/a/job/b/` (percent-decoded segments), or undefined when the path is not of that form. */
export function fullNameOfJobPath(jobPath: string): string | undefined {
  const segments = jobPath.split("/").filter((s) => s !== "");
  if (segments.length === 0 || segments.length % 2 !== 0 || segments.some((s, i) => i % 2 === 0 && s !== "job")) return undefined;
  try {
    return segments.filter((_, i) => i % 2 === 1).map(decodeURIComponent).join("/");
  } catch {
    return undefined;
  }
}
