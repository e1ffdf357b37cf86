/**
 * Values as they reach a dynamic provider: plain JSON, with the engine's placeholder for values not known yet
 * during preview. The placeholder is this string whatever the field's type (pulumi/pulumi#6310), so a boolean or
 * a list can arrive as a string: validation lets it through and diff counts it as a change.
 */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** The key under which the host keeps the serialized provider, in inputs and outputs. */
export const PROVIDER_KEY = "__provider";

export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN;
}

export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}

/** Sorted, without duplicates: the canonical form of a list compared as a set. */
export function uniqueSorted(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}

export function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const x = uniqueSorted(a);
  const y = uniqueSorted(b);
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

export function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === "string");
}

/**
 * A copy with every undefined-valued key dropped (and undefined list items turned to null): what the host can
 * put in a protobuf Struct. Outputs pass through this before they leave a controller.
 */
export function plain<T extends Record<string, unknown>>(value: T): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
}

/**
 * Deep equality of plain JSON values, object keys in any order (a protobuf Struct does not promise to keep the
 * order of keys). undefined and null are the same: a key the host dropped compares equal to a null one.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === undefined) a = null;
  if (b === undefined) b = null;
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  }
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
  return [...keys].every((k) => sameJson(x[k], y[k]));
}
