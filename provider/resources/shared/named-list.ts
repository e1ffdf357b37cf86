/**
 * Lists shared by a deployment's resources (the bundle list, the feature-flag lists), looked up and changed by name in
 * O(1): a deployment of thousands of resources looks itself up in, and changes, the same list once per resource, and a
 * scan and a copy of the list each time made it quadratic (issue 30).
 *
 * A list's positions by name are built at its first lookup, in one pass, and kept beside it (a WeakMap: they go with
 * the list). A list is always named the same way (a bundle or a flag by its name, a configuration by its flag), and
 * names are unique in it (the services key their items by them). Changes are made in place on a copy that the first
 * change of a list read from a server makes (ownCopy): a caller keeps the list it was given as it was read, and one
 * given a list already changed sees later changes, as a list read after them would show them.
 */
const positions = new WeakMap<readonly unknown[], Map<string, number>>();

/** Lists made by ownCopy: later changes are made in place. */
const owned = new WeakSet<unknown[]>();

/** The list itself when ownCopy made it, else a copy that later changes make in place (O(n) once per list read). */
export function ownCopy<T>(items: T[]): T[] {
  if (owned.has(items)) return items;
  const copy = items.slice();
  owned.add(copy);
  return copy;
}

/** Each name's position in the list (the first, should a name repeat). */
export function positionsOf<T>(list: readonly T[], nameOf: (x: T) => string): Map<string, number> {
  let at = positions.get(list);
  if (!at) {
    at = new Map();
    for (const [i, x] of list.entries()) if (!at.has(nameOf(x))) at.set(nameOf(x), i);
    positions.set(list, at);
  }
  return at;
}

/** The item of this name (what `list.find((x) => nameOf(x) === name)` finds). */
export function named<T>(list: readonly T[], name: string, nameOf: (x: T) => string): T | undefined {
  const i = positionsOf(list, nameOf).get(name);
  return i === undefined ? undefined : list[i];
}

/** Replaces the item of the same name with `item`, or appends it; in place. */
export function putNamed<T>(list: T[], item: T, nameOf: (x: T) => string): void {
  const at = positionsOf(list, nameOf);
  const i = at.get(nameOf(item));
  if (i === undefined) {
    at.set(nameOf(item), list.length);
    list.push(item);
  } else {
    list[i] = item;
  }
}

/** Replaces the item of this name with `change(item)` (same name), in place; false when there is none. */
export function replaceNamed<T>(list: T[], name: string, nameOf: (x: T) => string, change: (x: T) => T): boolean {
  const i = positionsOf(list, nameOf).get(name);
  if (i === undefined) return false;
  list[i] = change(list[i]!);
  return true;
}

/**
 * Removes the item of this name, in place. The items after it move up one place: a destroy deletes in the reverse
 * order of creation, so the item removed is mostly at the end of its list and the work is O(1).
 */
export function removeNamed<T>(list: T[], name: string, nameOf: (x: T) => string): void {
  const at = positionsOf(list, nameOf);
  const i = at.get(name);
  if (i === undefined) return;
  list.splice(i, 1);
  at.delete(name);
  for (let k = i; k < list.length; k++) at.set(nameOf(list[k]!), k);
}
