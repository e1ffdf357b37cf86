import { ABSENT, shortHash } from "./canonical";
import { boundEntries } from "./bound";
import type { Entry } from "./entry";
import { jenkinsEntries } from "./jenkins-paths";
import { keyOf } from "./keys";
import { isIgnored, normalizeView } from "./normalize";
import { catalogEntries, itemEntries, pluginEntries, rbacEntries } from "./section-entries";
import type { ConfigurationView } from "./view";

// The comparison of two views: the keys the expected side declares (plus what the running side has under a set the
// expected side decides), a digest per key and side, ignore paths left out, bounded (bound.ts).

export interface ConfigurationDigests {
  /** Key to digest of the expected side (ABSENT where it does not have the key). */
  expected: Record<string, string>;
  /** Key to digest of the running side, over the same keys. */
  running: Record<string, string>;
}

/** The compared entries of two views, keys decided by `expected`, before the bound. */
export function comparedEntries(expected: ConfigurationView, running: ConfigurationView | undefined, ignore: readonly string[] = []): Entry[] {
  const mine = normalizeView(expected);
  const theirs = normalizeView(running ?? {});
  const entries = [
    ...jenkinsEntries(mine.jenkins, theirs.jenkins),
    ...pluginEntries(mine.plugins, theirs.plugins),
    ...catalogEntries(mine.catalog, theirs.catalog),
    ...rbacEntries(mine.rbac, theirs.rbac),
    ...itemEntries(mine.items, theirs.items),
  ];
  return entries.filter((e) => !isIgnored(keyOf(e.file, e.segments), ignore));
}

/** Entries as records sorted by key; a key met twice (a folded parent equal to a kept path) combines its digests. */
export function recordsOf(entries: readonly Entry[]): ConfigurationDigests {
  const byKey = new Map<string, { expected: string; running: string }>();
  for (const e of entries) {
    const key = keyOf(e.file, e.segments);
    const known = byKey.get(key);
    if (!known) byKey.set(key, { expected: e.expected, running: e.running });
    else byKey.set(key, { expected: combine(known.expected, e.expected), running: combine(known.running, e.running) });
  }
  const expected: Record<string, string> = {};
  const running: Record<string, string> = {};
  for (const key of [...byKey.keys()].sort()) {
    expected[key] = byKey.get(key)!.expected;
    running[key] = byKey.get(key)!.running;
  }
  return { expected, running };
}

const combine = (a: string, b: string): string => (a === ABSENT && b === ABSENT ? ABSENT : shortHash(`${a}\n${b}`));

/**
 * The digests of both sides over the keys the expected side declares ("<file>: <path>", keys.ts), secrets compared by
 * presence, ignore paths left out, at most MAX_CONFIGURATION_PATHS keys. `running` undefined: every key ABSENT there
 * (the expected side alone, as a program's check computes it).
 */
export function configurationDigests(expected: ConfigurationView, running: ConfigurationView | undefined, ignore: readonly string[] = []): ConfigurationDigests {
  return recordsOf(boundEntries(comparedEntries(expected, running, ignore)));
}
