import { ABSENT, digestOf, EMPTY_MAPPING, PRESENT } from "./canonical";
import { isMapping } from "./view";

/** One compared path: its file, its segments (keys.ts) and the digest of each side (ABSENT where missing). */
export interface Entry {
  file: string;
  segments: string[];
  expected: string;
  running: string;
}

/**
 * The running side's digest of a leaf the expected side declares: a secret or variable the bundle declares
 * (PRESENT) is there when the controller has any non-empty value at that path (it shows the variable resolved, the
 * secret encrypted); anything else by value.
 */
export function runningLeafDigest(expected: unknown, running: unknown): string {
  if (expected === PRESENT && running !== undefined && running !== null && running !== "" && (typeof running !== "object" || running === PRESENT)) return digestOf(PRESENT);
  if (expected === EMPTY_MAPPING && isMapping(running)) return digestOf(EMPTY_MAPPING);
  return digestOf(running);
}

/**
 * A mapping entry compared on the properties the expected entry gives it: what the bundle does not declare is the
 * controller's own. Used for items, roles and groups.
 */
export function projectOnto(expected: unknown, running: unknown): unknown {
  if (!isMapping(expected) || !isMapping(running)) return running;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(expected)) if (key in running) out[key] = running[key];
  return out;
}
