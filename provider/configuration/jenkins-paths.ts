import { canonicalJson, EMPTY_MAPPING } from "./canonical";
import { type Entry, runningLeafValue } from "./entry";
import { identitySegment, indexSegment, keySegment } from "./keys";
import { CONFIGURATION_FILES, isMapping, ownValue } from "./view";

// jenkins.yaml compared path by path, the paths being those the expected side declares (a value the bundle does not
// declare is the controller's own: a default, or what an export adds). Each declared leaf is a key; a list is
//   - keyed per entry when every entry has an identity (id, name, or the id/name of the one mapping it wraps), so
//     that order does not matter and each credential, view or cloud has its own paths; the running side's entries
//     the expected side does not have are keys too (the whole entry), as they are drift under a declared list;
//   - keyed by position when its entries are mappings without identities (domainCredentials[0]);
//   - otherwise one leaf compared as a set (sorted, without duplicates: JCasC concatenates the sequences of merged
//     files, so a value listed by a parent and a child is there twice in the merge and once on the controller).

const FILE = CONFIGURATION_FILES.jenkins;

/** The identity of a list entry, or undefined. */
export function identityOf(entry: unknown): string | undefined {
  if (!isMapping(entry)) return undefined;
  const own = idOrName(entry);
  if (own !== undefined) return own;
  const keys = Object.keys(entry);
  return keys.length === 1 ? idOrName(entry[keys[0]!]) : undefined;
}

function idOrName(value: unknown): string | undefined {
  if (!isMapping(value)) return undefined;
  for (const field of ["id", "name"]) {
    const v = value[field];
    if (typeof v === "string" || typeof v === "number") return String(v);
  }
  return undefined;
}

/** Entries by identity (equal duplicates merged), or undefined when an entry has none or two differ under one. */
function byIdentity(list: readonly unknown[]): Map<string, unknown> | undefined {
  const out = new Map<string, unknown>();
  for (const entry of list) {
    const id = identityOf(entry);
    if (id === undefined) return undefined;
    const known = out.get(id);
    if (known !== undefined && canonicalJson(known) !== canonicalJson(entry)) return undefined;
    out.set(id, entry);
  }
  return out;
}

/** The running side's entries by identity (the last of a repeated identity), those without one left out. */
function runningByIdentity(list: unknown): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (Array.isArray(list)) for (const entry of list) {
    const id = identityOf(entry);
    if (id !== undefined) out.set(id, entry);
  }
  return out;
}

function leaf(out: Entry[], segments: string[], expected: unknown, running: unknown): void {
  out.push({ file: FILE, segments, expected, running });
}

function walkList(expected: unknown[], running: unknown, segments: string[], out: Entry[]): void {
  const identified = expected.length > 0 ? byIdentity(expected) : undefined;
  if (identified) {
    const others = runningByIdentity(running);
    for (const [id, entry] of identified) walk(entry, others.get(id), [...segments, identitySegment(id)], out);
    for (const [id, entry] of others) if (!identified.has(id)) leaf(out, [...segments, identitySegment(id)], undefined, entry);
    return;
  }
  if (expected.length > 0 && expected.every(isMapping)) {
    const others = Array.isArray(running) ? running : [];
    expected.forEach((entry, i) => walk(entry, others[i], [...segments, indexSegment(i)], out));
    for (let i = expected.length; i < others.length; i++) leaf(out, [...segments, indexSegment(i)], undefined, others[i]);
    return;
  }
  leaf(out, segments, expected, running);
}

function walk(expected: unknown, running: unknown, segments: string[], out: Entry[]): void {
  if (expected === undefined || expected === null) return; // declares nothing
  if (Array.isArray(expected)) return walkList(expected, running, segments, out);
  if (isMapping(expected)) {
    const keys = Object.keys(expected);
    if (keys.length === 0) return leaf(out, segments, EMPTY_MAPPING, runningLeafValue(EMPTY_MAPPING, running));
    const inner = isMapping(running) ? running : undefined;
    for (const key of keys) walk(expected[key], ownValue(inner, key), [...segments, keySegment(key)], out);
    return;
  }
  leaf(out, segments, expected, runningLeafValue(expected, running));
}

/** The compared paths of jenkins.yaml (both views normalized), declared by `expected`. */
export function jenkinsEntries(expected: unknown, running: unknown): Entry[] {
  const out: Entry[] = [];
  walk(expected, running, [], out);
  return out;
}
