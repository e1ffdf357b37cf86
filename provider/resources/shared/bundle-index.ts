import type { ListedBundle } from "../../clients/casc-types";
import { named, positionsOf, replaceNamed } from "./named-list";

/**
 * The shared bundle list by name (named-list.ts) and by controller: each assignment looks up the bundle its
 * controller uses, in O(1) through an index of the `usedBy` lists built at the first lookup and kept beside the list.
 * The changes below keep both right, and are the only way the kept list is changed (on BundleListCache.write's copy).
 */
const users = new WeakMap<readonly ListedBundle[], Map<string, number>>();

const nameOf = (b: ListedBundle) => b.name;

/** Position of the bundle each controller uses (the first bundle whose `usedBy` names it). */
function usersOf(bundles: readonly ListedBundle[]): Map<string, number> {
  let user = users.get(bundles);
  if (!user) {
    user = new Map();
    for (const [i, b] of bundles.entries()) for (const c of b.usedBy) if (!user.has(c)) user.set(c, i);
    users.set(bundles, user);
  }
  return user;
}

/** The bundle of this name (what `bundles.find((b) => b.name === name)` finds). */
export function bundleNamed(bundles: readonly ListedBundle[], name: string): ListedBundle | undefined {
  return named(bundles, name, nameOf);
}

/** The bundle whose `usedBy` holds the controller (what `bundles.find((b) => b.usedBy.includes(c))` finds). */
export function bundleUsedBy(bundles: readonly ListedBundle[], controllerPath: string): ListedBundle | undefined {
  const i = usersOf(bundles).get(controllerPath);
  return i === undefined ? undefined : bundles[i];
}

/**
 * Replaces the bundle of this name with `change(bundle)`, in place (same list, a new bundle object): false when the
 * list has no such bundle. `change` must keep the name and `usedBy`.
 */
export function replaceBundle(bundles: ListedBundle[], name: string, change: (b: ListedBundle) => ListedBundle): boolean {
  return replaceNamed(bundles, name, nameOf, change);
}

/**
 * The controller now uses `name` and no other bundle, in place: it leaves the `usedBy` of the bundle it used and
 * joins this one's (kept sorted: a binary search and one insertion, not a sort). New bundle objects with new `usedBy`
 * lists: the work is the length of those two lists, not of the whole list. False when the list has no such bundle.
 */
export function moveController(bundles: ListedBundle[], name: string, controllerPath: string): boolean {
  const i = positionsOf(bundles, nameOf).get(name);
  if (i === undefined) return false;
  const user = usersOf(bundles);
  const j = user.get(controllerPath);
  if (j === i) return true;
  if (j !== undefined) bundles[j] = { ...bundles[j]!, usedBy: bundles[j]!.usedBy.filter((c) => c !== controllerPath) };
  const usedBy = bundles[i]!.usedBy.slice();
  usedBy.splice(sortedPosition(usedBy, controllerPath), 0, controllerPath);
  bundles[i] = { ...bundles[i]!, usedBy };
  user.set(controllerPath, i);
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
