import { isMapping } from "./descriptor";

/** Overlay of two YAML documents (exports): mappings merge key by key, anything else in `over` replaces `base`. */
export function deepMerge(base: unknown, over: unknown): unknown {
  if (over === undefined || over === null) return base;
  if (!isMapping(base) || !isMapping(over)) return over;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = deepMerge(base[k], v);
  return out;
}
