/**
 * Beyond one machine: `--shard i/n` takes every n-th stack of the stacks sorted by id (a stable choice that needs no
 * shared state), and `merge` puts shard reports back together into the report an unsharded run would have written.
 */
import { assembleReport } from "./assemble";
import { cmp } from "../report/text";
import type { DriftReport, ResolvedPath, StackReport } from "./report";

export interface Shard {
  index: number;
  count: number;
}

/** `i/n`, 1 ≤ i ≤ n; a clear error otherwise. */
export function parseShard(text: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!m) throw new Error(`--shard ${JSON.stringify(text)}: expected i/n, e.g. 1/4`);
  const [index, count] = [Number(m[1]), Number(m[2])];
  if (count < 1 || index < 1 || index > count) throw new Error(`--shard ${index}/${count} is outside its range: i goes from 1 to n (n ≥ 1)`);
  return { index, count };
}

export function shardOf<T extends { id: string }>(stacks: T[], shard: Shard | undefined): T[] {
  if (!shard) return stacks;
  return [...stacks].sort((a, b) => cmp(a.id, b.id)).filter((_, i) => i % shard.count === shard.index - 1);
}

/**
 * The shards' stacks and resolved paths in one report. Each shard carried firstSeen from the same previous report,
 * so the paths keep theirs; generatedAt is the earliest shard's (the run's start).
 */
export function mergeReports(reports: DriftReport[]): DriftReport {
  if (!reports.length) throw new Error("merge needs at least one report");
  const stacks = new Map<string, StackReport>();
  for (const r of reports) {
    for (const s of r.stacks) {
      if (stacks.has(s.id)) throw new Error(`stack ${JSON.stringify(s.id)} is in more than one of the reports`);
      stacks.set(s.id, structuredClone(s));
    }
  }
  // Status new/known as the shards judged it.
  const status = new Map<string, "new" | "known">();
  for (const s of stacks.values()) for (const r of s.resources ?? []) for (const p of r.paths) status.set(`${s.id}\n${r.urn}\n${p.path}`, p.status);
  const generatedAt = reports.map((r) => r.generatedAt).sort()[0]!;
  // History is already applied: rebuild it from the shards' own firstSeen (a "previous" of the merged paths).
  const merged = assembleReport([...stacks.values()], { generatedAt, toolVersion: reports[0]!.toolVersion, previous: asPrevious([...stacks.values()]) });
  const resolved: ResolvedPath[] = reports.flatMap((r) => r.resolved);
  merged.resolved = resolved.sort((a, b) => cmp(`${a.stack}\n${a.urn}\n${a.path}`, `${b.stack}\n${b.urn}\n${b.path}`));
  // New drift was first seen by this run: the run's start, whichever shard saw it.
  for (const s of merged.stacks) {
    for (const r of s.resources ?? []) {
      for (const p of r.paths) {
        p.status = status.get(`${s.id}\n${r.urn}\n${p.path}`)!;
        if (p.status === "new") p.firstSeen = generatedAt;
      }
    }
  }
  const paths = merged.stacks.flatMap((s) => (s.resources ?? []).flatMap((r) => r.paths));
  merged.summary.newPaths = paths.filter((p) => p.status === "new").length;
  merged.summary.resolvedPaths = merged.resolved.length;
  return merged;
}

function asPrevious(stacks: StackReport[]): DriftReport {
  return { stacks } as DriftReport;
}
