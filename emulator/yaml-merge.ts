import { isMapping } from "./descriptor";

/** CasC merge of two YAML documents: mappings merge key by key, anything else in `over` replaces `base`. */
export function deepMerge(base: unknown, over: unknown): unknown {
  if (over === undefined || over === null) return base;
  if (!isMapping(base) || !isMapping(over)) return over;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = deepMerge(base[k], v);
  return out;
}

/** Dotted paths and values of every non-mapping value (lists count as leaves). */
export function leaves(doc: unknown, prefix = ""): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (!isMapping(doc)) {
    if (prefix !== "" && doc !== undefined && doc !== null) out.set(prefix, doc);
    return out;
  }
  for (const [k, v] of Object.entries(doc)) {
    for (const [p, leaf] of leaves(v, prefix === "" ? k : `${prefix}.${k}`)) out.set(p, leaf);
  }
  return out;
}

export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
