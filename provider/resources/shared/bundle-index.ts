import type { ListedBundle } from "../../clients/casc-types";

/**
 * Lookups in a bundle list by name and by controller in O(1): a deployment of thousands of bundle resources looks
 * up, and updates, one shared list once per resource, and a scan of the list each time made the deployment
 * quadratic (issue 30). The index of a list is built at its first lookup, in one pass, and kept beside it (a
 * WeakMap: it goes with the list); the changes below keep it right, and are the only way the kept list is changed.
 */
interface BundleIndex {
  /** Position of each bundle in the list, by name (the first, should a name repeat). */
  at: Map<string, number>;
  /** Position of the bundle each controller uses, by the `usedBy` lists (the first bundle that names it). */
  user: Map<string, number>;
}

const indexes = new WeakMap<readonly ListedBundle[], BundleIndex>();

/** Lists made by BundleListCache.write's first change of a list read from the server: later changes are made in place. */
const owned = new WeakSet<ListedBundle[]>();

/**
 * The list itself when a change made it, else a copy that later changes make in place (O(n) once per list read, not
 * per change): a caller keeps the list it was given as it was read, and one given a list already changed sees later
 * changes, as a list read after them would show them. Its index is carried over (positions do not change).
 */
export function ownCopy(bundles: ListedBundle[]): ListedBundle[] {
  if (owned.has(bundles)) return bundles;
  const copy = bundles.slice();
  owned.add(copy);
  const index = indexes.get(bundles);
  if (index) indexes.set(copy, { at: index.at, user: new Map(index.user) });
  return copy;
}

function indexOf(bundles: readonly ListedBundle[]): BundleIndex {
  let index = indexes.get(bundles);
  if (!index) {
    index = { at: new Map(), user: new Map() };
    for (const [i, b] of bundles.entries()) {
      if (!index.at.has(b.name)) index.at.set(b.name, i);
      for (const c of b.usedBy) if (!index.user.has(c)) index.user.set(c, i);
    }
    indexes.set(bundles, index);
  }
  return index;
}

/** The bundle of this name (what `bundles.find((b) => b.name === name)` finds). */
export function bundleNamed(bundles: readonly ListedBundle[], name: string): ListedBundle | undefined {
  const i = indexOf(bundles).at.get(name);
  return i === undefined ? undefined : bundles[i];
}

/** The bundle whose `usedBy` holds the controller (what `bundles.find((b) => b.usedBy.includes(c))` finds). */
export function bundleUsedBy(bundles: readonly ListedBundle[], controllerPath: string): ListedBundle | undefined {
  const i = indexOf(bundles).user.get(controllerPath);
  return i === undefined ? undefined : bundles[i];
}

/**
 * Replaces the bundle of this name with `change(bundle)`, in place (same list, a new bundle object): false when the
 * list has no such bundle. `change` must keep the name and `usedBy`.
 */
export function replaceBundle(bundles: ListedBundle[], name: string, change: (b: ListedBundle) => ListedBundle): boolean {
  const i = indexOf(bundles).at.get(name);
  if (i === undefined) return false;
  bundles[i] = change(bundles[i]!);
  return true;
}

/**
 * The controller now uses `name` and no other bundle, in place: it leaves the `usedBy` of the bundle it used and
 * joins this one's (kept sorted: a binary search and one insertion, not a sort). New bundle objects with new `usedBy`
 * lists: the work is the length of those two lists, not of the whole list. False when the list has no such bundle.
 */
export function moveController(bundles: ListedBundle[], name: string, controllerPath: string): boolean {
  const index = indexOf(bundles);
  const i = index.at.get(name);
  if (i === undefined) return false;
  const j = index.user.get(controllerPath);
  if (j === i) return true;
  if (j !== undefined) bundles[j] = { ...bundles[j]!, usedBy: bundles[j]!.usedBy.filter((c) => c !== controllerPath) };
  const usedBy = bundles[i]!.usedBy.slice();
  usedBy.splice(sortedPosition(usedBy, controllerPath), 0, controllerPath);
  bundles[i] = { ...bundles[i]!, usedBy };
  index.user.set(controllerPath, i);
  return true;
}

/** Where `item` goes in the sorted list (`<` orders strings by UTF-16 code units, as Array.prototype.sort does). */
function sortedPosition(list: string[], item: string): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < item) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
