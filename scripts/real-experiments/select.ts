/**
 * A small corpus from every record the service wrote: records chosen until each form (shapes.ts) is held by one of
 * them, each trimmed to the parts that hold the forms it was chosen for. Records the service wrote itself come
 * first; a record edited by hand in Git is taken only for a form no record of the service holds.
 */
import { isObject, shapesOf, type Json, type JsonObject, type RecordKind } from "./shapes";

export interface Candidate {
  kind: RecordKind;
  record: JsonObject;
  /** Where it comes from. */
  commit: string;
  date: string;
  subject: string;
  path: string;
  /** "service": a commit of the service (its audit-log text); "git": a person's edit of the branch. */
  writer: "service" | "git";
  /** Length of the file's text: of two records with the same new forms, the shorter is kept. */
  size: number;
}

export interface CorpusItem {
  candidate: Candidate;
  /** Why a record is kept whole whatever forms it holds (see WholeRecord), for a record taken so. */
  whole?: string;
  /** The forms this item is in the corpus for (no item before it holds them). */
  shapes: string[];
  /** The record, trimmed. */
  record: JsonObject;
  /** The parts trimmed away, as paths of the original record (`conditions[2]`, `description`). */
  removed: string[];
}

function folderOf(path: string): string {
  return path.slice(0, path.lastIndexOf("/"));
}

export function shapesOfCandidate(c: Pick<Candidate, "kind" | "path">, record: Json): Set<string> {
  return shapesOf(c.kind, record, folderOf(c.path));
}

/**
 * A record taken whole, after the forms: one a report named as losing a field when declared with all its fields
 * (trimming would keep its forms but not that combination), so that it is declared and read back as written.
 */
export interface WholeRecord {
  commit: string;
  path: string;
  why: string;
}

/**
 * Greedy: the record with the most forms not held yet, the service's own before hand edits, shorter first; then the
 * `whole` records as written.
 */
export function selectCorpus(candidates: Candidate[], whole: WholeRecord[] = []): CorpusItem[] {
  const ordered = [...candidates].sort(
    (a, b) => a.size - b.size || a.date.localeCompare(b.date) || a.path.localeCompare(b.path) || a.commit.localeCompare(b.commit),
  );
  const shapes = new Map(ordered.map((c) => [c, shapesOfCandidate(c, c.record)]));
  const held = new Set<string>();
  const items: CorpusItem[] = [];
  for (const writer of ["service", "git"] as const) {
    const pool = ordered.filter((c) => c.writer === writer);
    for (;;) {
      let best: Candidate | undefined;
      let bestNew: string[] = [];
      for (const c of pool) {
        const fresh = [...shapes.get(c)!].filter((s) => !held.has(s));
        if (fresh.length > bestNew.length) {
          best = c;
          bestNew = fresh;
        }
      }
      if (!best) break;
      bestNew.sort();
      for (const s of bestNew) held.add(s);
      items.push({ candidate: best, shapes: bestNew, ...trim(best, new Set(bestNew)) });
    }
  }
  for (const w of whole) {
    const c = candidates.find((x) => x.commit.startsWith(w.commit) && x.path === w.path);
    if (!c) throw new Error(`no record at ${w.path} of commit ${w.commit} (kept whole: ${w.why})`);
    items.push({ candidate: c, shapes: [], whole: w.why, record: c.record, removed: [] });
  }
  return items;
}

/** A path into a record: keys and list indexes. */
type Path = (string | number)[];

function pathText(path: Path): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? p : `.${p}`)).join("");
}

/** The parts that may go: top-level fields but the identity and the values, then list items, last first. */
function removableParts(kind: RecordKind, record: JsonObject): Path[] {
  const fixed = kind === "experiment" ? ["type", "flag", "availableValues"] : ["type", "name"];
  const parts: Path[] = Object.keys(record)
    .filter((k) => !fixed.includes(k))
    .map((k) => [k]);
  const items = (list: Json | undefined, at: Path): Path[] => (Array.isArray(list) ? list.map((_, i) => [...at, i]).reverse() : []);
  parts.push(...items(record.conditions, ["conditions"]));
  if (kind === "experiment") {
    // A platform's conditions before the platforms themselves: removing a platform moves the ones after it.
    const platforms = Array.isArray(record.platforms) ? record.platforms : [];
    platforms.forEach((p, i) => {
      if (isObject(p)) parts.push(...items(p.conditions, ["platforms", i, "conditions"]));
    });
    parts.push(...items(record.platforms, ["platforms"]));
  }
  return parts;
}

function without(record: JsonObject, path: Path): JsonObject | undefined {
  const copy = structuredClone(record);
  let at: Json = copy;
  for (const step of path.slice(0, -1)) {
    if (at === null || typeof at !== "object") return undefined;
    at = (at as Record<string | number, Json>)[step as never] as Json;
  }
  const last = path[path.length - 1]!;
  if (Array.isArray(at) && typeof last === "number" && last < at.length) at.splice(last, 1);
  else if (isObject(at) && typeof last === "string" && last in at) delete at[last];
  else return undefined;
  return copy;
}

/**
 * The record without every part whose removal keeps the forms `keep` and adds none the record did not have (so
 * that trimming never invents a form the service did not write).
 */
export function trim(c: Candidate, keep: Set<string>): { record: JsonObject; removed: string[] } {
  const original = shapesOfCandidate(c, c.record);
  let record = c.record;
  const removed: string[] = [];
  for (const path of removableParts(c.kind, c.record)) {
    const next = without(record, path);
    if (!next) continue;
    const after = shapesOfCandidate(c, next);
    if ([...keep].every((s) => after.has(s)) && [...after].every((s) => original.has(s))) {
      record = next;
      removed.push(pathText(path));
    }
  }
  return { record, removed };
}
