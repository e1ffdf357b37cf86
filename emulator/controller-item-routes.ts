/**
 * The operations center's endpoints for controllers as items (controller-items.ts): the Controllers view, and the
 * stop and delete of an item as deleteManagedController.sh (cb-ci/ci-casc-api-samples) sends them, body-less POSTs
 * of `<oc>job/<name>/stopAction` then `<oc>job/<name>/doDelete`. Jenkins answers both with a redirect (302): to the
 * item, and to the folder that held it.
 */
import { controllersView, fullNameOfJobPath, isControllerItem, itemUrl } from "./controller-items";
import { EmulatorRequest, json, notFoundPage, Reply } from "./http";
import type { ItemNode, ItemTree } from "./item-tree";

const redirect = (location: string): Reply => ({ status: 302, headers: { location }, body: Buffer.alloc(0) });

export class ControllerItemRoutes {
  constructor(
    private readonly ocUrl: string,
    private readonly items: ItemTree,
    /** Told the full names of the controllers a delete removed. */
    private readonly removed: (fullNames: string[]) => void,
  ) {}

  /** undefined when the path is none of these endpoints. */
  handle(req: EmulatorRequest, subPath: string): Reply | undefined {
    // The samples add ?depth=2&pretty=true: a flat list of every controller serves any depth.
    if (req.method === "GET" && subPath === "view/Controllers/api/json") return json(200, controllersView(this.ocUrl, this.items));
    const m = /^((?:job\/[^/]+\/)+)(stopAction|doDelete)$/.exec(subPath);
    if (!m || req.method !== "POST") return undefined;
    const fullName = fullNameOfJobPath(m[1]!);
    const node = fullName === undefined ? undefined : this.items.find(fullName);
    if (fullName === undefined || !node) return notFoundPage(req.path);
    if (m[2] === "stopAction") return isControllerItem(node) ? redirect(itemUrl(this.ocUrl, fullName)) : notFoundPage(req.path);
    const controllers = controllersIn(node, fullName);
    this.items.removeAt(fullName);
    this.removed(controllers);
    const parent = fullName.split("/").slice(0, -1).join("/");
    return redirect(parent === "" ? this.ocUrl : itemUrl(this.ocUrl, parent));
  }
}

/** The full names of the controllers an item is or holds. */
function controllersIn(node: ItemNode, fullName: string): string[] {
  const own = isControllerItem(node) ? [fullName] : [];
  return [...own, ...[...(node.children?.values() ?? [])].flatMap((child) => controllersIn(child, `${fullName}/${child.name}`))];
}
