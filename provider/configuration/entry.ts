import { digestOf, EMPTY_MAPPING, PRESENT } from "./canonical";
import { isMapping } from "./view";

/**
 * One compared path: its file, its segments (keys.ts) and each side's value as compared (normalized; undefined or
 * null where the side lacks the key). A folded entry (bound.ts) stands for what is below it: it has `digests`.
 */
export interface Entry {
  file: string;
  segments: string[];
  expected: unknown;
  running: unknown;
  digests?: { expected: string; running: string };
}

/** A side's digest (ABSENT where it lacks the key). */
export function sideDigest(entry: Entry, side: "expected" | "running"): string {
  return entry.digests ? entry.digests[side] : digestOf(entry[side]);
}

/**
 * The running side's value of a leaf the expected side declares, as compared: a secret or variable the bundle
 * declares (PRESENT) is there when the controller has any non-empty value at that path (it shows the variable
 * resolved, the secret encrypted); anything else as it is.
 */
export function runningLeafValue(expected: unknown, running: unknown): unknown {
  if (expected === PRESENT && running !== undefined && running !== null && running !== "" && (typeof running !== "object" || running === PRESENT)) return PRESENT;
  if (expected === EMPTY_MAPPING && isMapping(running)) return EMPTY_MAPPING;
  // JCasC's export leaves an empty value out (bundleutils' fetch writes `value: ''` back: its missing-env-values test).
  if (expected === "" && (running === undefined || running === null)) return "";
  return running;
}

/**
 * A mapping entry compared on the properties the expected entry gives it: what the bundle does not declare is the
 * controller's own. Used for items, roles and groups.
 */
export function projectOnto(expected: unknown, running: unknown): unknown {
  if (!isMapping(expected) || !isMapping(running)) return running;
  // Built from entries: a key such as `__proto__` stays data.
  return Object.fromEntries(Object.keys(expected).filter((key) => Object.prototype.hasOwnProperty.call(running, key)).map((key) => [key, running[key]]));
}
