import type { ListedBundle } from "../../clients/casc-types";
import { operationsCenter, type OperationsCenterConnection } from "../../config/clients";
import { bundleNamed, bundleUsedBy } from "./bundle-index";
import { bundleListOf, type BundleListCache } from "./bundle-list-cache";
import { accessProblem, messageOf, operationFailed } from "./errors";
import { quoted } from "../../text/printable";
import { unreadableItemError } from "../../clients/readable-items";
import { readableEntries } from "./unreadable-entries";

const LISTING = "listing bundles";

/** What every CasC resource needs for one call: the connection and the shared bundle list. */
export interface Casc {
  oc: OperationsCenterConnection;
  bundles: BundleListCache;
}

/**
 * The connection of the current settings. A missing setting fails here, before any request, with an error that
 * names the key and the command to set it.
 */
export function casc(operation: string, id: string | undefined): Casc {
  let oc: OperationsCenterConnection;
  try {
    oc = operationsCenter();
  } catch (e) {
    throw operationFailed(operation, id, accessProblem(e) ?? messageOf(e), e);
  }
  return { oc, bundles: bundleListOf(oc) };
}

/**
 * Every bundle, from the shared list, read bundle by bundle: one in a form this version cannot read is left out,
 * said once per deployment (a warning naming it), and kept apart (BundleListCache.unreadable) for the lookups below.
 */
export function listBundles(c: Casc): Promise<ListedBundle[]> {
  return c.bundles.list(async () => {
    const list = await c.oc.client.readBundleList();
    c.bundles.unreadable = list.unreadable;
    return readableEntries(list, "bundle", LISTING);
  });
}

/**
 * The bundle named `name`, or undefined when the operations center has none (find-by-id, as terraform-provider-aws).
 * A bundle listed in a form this version cannot read is not missing: that fails, naming it.
 */
export async function findBundle(c: Casc, name: string): Promise<ListedBundle | undefined> {
  const found = bundleNamed(await listBundles(c), name);
  const unread = found ? undefined : c.bundles.unreadable.find((u) => u.name === name);
  if (unread) throw unreadableItemError(LISTING, "bundle", unread);
  return found;
}

/** listBundles, with a failure phrased as the resource's error: "<operation> (<id>): <cause>". */
export async function listBundlesOrFail(c: Casc, operation: string, id: string): Promise<ListedBundle[]> {
  try {
    return await listBundles(c);
  } catch (e) {
    throw callFailed(c, operation, id, e);
  }
}

/** findBundle, with a failure phrased as the resource's error: "<operation> (<id>): <cause>". */
export async function findBundleOrFail(c: Casc, name: string, operation: string, id: string): Promise<ListedBundle | undefined> {
  try {
    return await findBundle(c, name);
  } catch (e) {
    throw callFailed(c, operation, id, e);
  }
}

/**
 * The bundle a controller is assigned to (the one whose `usedBy` holds it), or undefined. When no bundle read holds
 * it and one could not be read, that one may: it fails, naming it, rather than find the controller unassigned.
 */
export async function findBundleUsedBy(c: Casc, controllerPath: string): Promise<ListedBundle | undefined> {
  const found = bundleUsedBy(await listBundles(c), controllerPath);
  const [unread] = found ? [] : c.bundles.unreadable;
  if (unread) throw unreadableItemError(LISTING, "bundle", unread, `no bundle read lists controller ${quoted(controllerPath)}, and this one may`);
  return found;
}

/** "base, team-a, team-b", or a note that there are none: for "unknown bundle" messages. */
export function bundleNamesText(bundles: ListedBundle[]): string {
  if (bundles.length === 0) return "the operations center lists no bundle at all (check out the bundle location first)";
  const names = bundles.map((b) => quoted(b.name));
  return `the operations center lists ${names.length > 20 ? `${names.slice(0, 20).join(", ")}, ...` : names.join(", ")}`;
}

/**
 * Turns a failed call into the resource's error: credentials problems name the settings to fix; anything else
 * keeps the client's message (operation, method, path, status, the server's words).
 */
export function callFailed(c: Casc | undefined, operation: string, id: string | undefined, error: unknown): Error {
  const access = accessProblem(error, c?.oc);
  return operationFailed(operation, id, access ?? messageOf(error), access ? error : undefined);
}
