/**
 * Since when: each drifted path keeps the `firstSeen` of the previous report (known) or gets this run's time (new);
 * paths the previous report had that no longer drift are resolved. Only a stack read this time (clean or drifted)
 * resolves anything: one in error, locked or timed out has drift unknown, not gone, and one not in this run (another
 * shard's, or no longer given) was not looked at.
 */
import { cmp } from "../report/text";
import type { DriftReport, ResolvedPath, StackReport } from "./report";

const keyOf = (stack: string, urn: string, path: string) => `${stack}\n${urn}\n${path}`;

export function applyHistory(stacks: StackReport[], previous: DriftReport | undefined, now: string): ResolvedPath[] {
  const before = new Map<string, string>();
  for (const s of previous?.stacks ?? []) for (const r of s.resources ?? []) for (const p of r.paths) before.set(keyOf(s.id, r.urn, p.path), p.firstSeen);
  const current = new Set<string>();
  for (const s of stacks) {
    for (const r of s.resources ?? []) {
      for (const p of r.paths) {
        const key = keyOf(s.id, r.urn, p.path);
        current.add(key);
        const first = before.get(key);
        p.firstSeen = first ?? now;
        p.status = first ? "known" : "new";
      }
    }
  }
  const read = new Set(stacks.filter((s) => s.status === "clean" || s.status === "drifted").map((s) => s.id));
  const resolved: ResolvedPath[] = [];
  for (const [key, firstSeen] of before) {
    const [stack, urn, path] = key.split("\n") as [string, string, string];
    if (!current.has(key) && read.has(stack)) resolved.push({ stack, urn, path, firstSeen });
  }
  return resolved.sort((a, b) => cmp(keyOf(a.stack, a.urn, a.path), keyOf(b.stack, b.urn, b.path)));
}
