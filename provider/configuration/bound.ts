import { ABSENT, shortHash } from "./canonical";
import { type Entry, sideDigest } from "./entry";
import { keyOf, pathText } from "./keys";

// The bound on compared paths: state keeps one digest per path, so a bundle with thousands of declared leaves must
// not make thousands of keys. Beyond MAX_CONFIGURATION_PATHS, the deepest paths are folded into their parent (one
// key standing for everything below it, its digest that of its children's paths and digests), the largest groups
// first, a whole depth at a time once groups of one are all that is left, until the keys fit. The folding depends
// only on the set of keys, so both sides of a comparison fold alike, and the same keys always fold the same way.

/** At most this many keys in a comparison. */
export const MAX_CONFIGURATION_PATHS = 1000;

function foldedDigest(children: readonly Entry[], side: "expected" | "running", parentDepth: number): string {
  if (children.every((c) => sideDigest(c, side) === ABSENT)) return ABSENT;
  const parts = children.map((c) => `${pathText(c.segments.slice(parentDepth))}=${sideDigest(c, side)}`).sort();
  return shortHash(parts.join("\n"));
}

function fold(children: readonly Entry[]): Entry {
  const { file, segments } = children[0]!;
  const parent = segments.slice(0, -1);
  const digests = { expected: foldedDigest(children, "expected", parent.length), running: foldedDigest(children, "running", parent.length) };
  return { file, segments: parent, expected: undefined, running: undefined, digests };
}

const parentKeyOf = (e: Entry): string => keyOf(e.file, e.segments.slice(0, -1));

/** `entries` folded until at most `max` remain (deterministic); entries already within the bound are returned as they are. */
export function boundEntries(entries: readonly Entry[], max = MAX_CONFIGURATION_PATHS): Entry[] {
  let list = [...entries];
  while (list.length > max) {
    let depth = 0;
    for (const e of list) depth = Math.max(depth, e.segments.length);
    if (depth === 0) break;
    const groups = new Map<string, Entry[]>();
    const parentKeys = new Map<Entry, string>();
    for (const e of list) {
      if (e.segments.length !== depth) continue;
      const key = parentKeyOf(e);
      parentKeys.set(e, key);
      const group = groups.get(key);
      if (group) group.push(e);
      else groups.set(key, [e]);
    }
    const ordered = [...groups.entries()].sort(([ka, a], [kb, b]) => b.length - a.length || (ka < kb ? -1 : ka > kb ? 1 : 0));
    let count = list.length;
    const folding = new Set<string>();
    for (const [key, group] of ordered) {
      if (count <= max || group.length < 2) break;
      folding.add(key);
      count -= group.length - 1;
    }
    if (count > max) for (const [key] of ordered) folding.add(key);
    const kept = list.filter((e) => e.segments.length !== depth || !folding.has(parentKeys.get(e)!));
    list = [...kept, ...[...folding].map((key) => fold(groups.get(key)!))];
  }
  return list;
}
