import { ABSENT, shortHash } from "./canonical";
import { boundEntries } from "./bound";
import { type Entry, sideDigest } from "./entry";
import { jenkinsEntries } from "./jenkins-paths";
import { keyOf } from "./keys";
import { isIgnored, normalizeView } from "./normalize";
import { catalogEntries, itemEntries, pluginEntries, rbacEntries } from "./section-entries";
import { formOf, hiddenForm, hiddenReason, type Secrecy } from "./shown";
import type { ConfigurationView } from "./view";

// The comparison of two views: the keys the expected side declares (plus what the running side has under a set the
// expected side decides), a value per key and side written as shown.ts writes it (the value, or its digest and why),
// ignore paths left out, bounded (bound.ts).

export interface ConfigurationDigests {
  /** Key to the expected side's value as shown.ts writes it (ABSENT where it does not have the key). */
  expected: Record<string, string>;
  /** Key to the running side's, over the same keys. */
  running: Record<string, string>;
}

/** Why a folded path shows digests: it stands for the paths below it. */
const FOLDED = "folded: it stands for the paths below it";

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
  return ignore.length === 0 ? entries : entries.filter((e) => !isIgnored(keyOf(e.file, e.segments), ignore));
}

/**
 * Entries as records sorted by key, each value as shown.ts writes it (kept as a digest where it can hold a secret, and
 * everywhere when `secrecy` says the program marks the values secret); a key met twice (a folded parent equal to a
 * kept path) combines its digests.
 */
export function recordsOf(entries: readonly Entry[], secrecy: Secrecy = {}): ConfigurationDigests {
  const byKey = new Map<string, Entry>();
  for (const e of entries) {
    const key = keyOf(e.file, e.segments);
    const known = byKey.get(key);
    if (!known) byKey.set(key, e);
    else {
      const digests = { expected: combine(sideDigest(known, "expected"), sideDigest(e, "expected")), running: combine(sideDigest(known, "running"), sideDigest(e, "running")) };
      byKey.set(key, { ...e, expected: undefined, running: undefined, digests });
    }
  }
  const expected: Record<string, string> = {};
  const running: Record<string, string> = {};
  for (const key of [...byKey.keys()].sort()) {
    const e = byKey.get(key)!;
    if (e.digests) {
      const reason = secrecy.programSecret === undefined ? FOLDED : hiddenReason(e.file, e.segments, undefined, undefined, secrecy)!;
      expected[key] = hiddenForm(e.digests.expected, reason);
      running[key] = hiddenForm(e.digests.running, reason);
      continue;
    }
    const reason = hiddenReason(e.file, e.segments, e.expected, e.running, secrecy);
    expected[key] = formOf(e.expected, reason);
    running[key] = formOf(e.running, reason);
  }
  return { expected, running };
}

const combine = (a: string, b: string): string => (a === ABSENT && b === ABSENT ? ABSENT : shortHash(`${a}\n${b}`));

/**
 * Both sides over the keys the expected side declares ("<file>: <path>", keys.ts), each value as shown.ts writes it,
 * secrets compared by presence, ignore paths left out, at most MAX_CONFIGURATION_PATHS keys. `running` undefined:
 * every key ABSENT there (the expected side alone, as a program's check computes it).
 */
export function configurationDigests(expected: ConfigurationView, running: ConfigurationView | undefined, ignore: readonly string[] = [], secrecy: Secrecy = {}): ConfigurationDigests {
  return recordsOf(boundEntries(comparedEntries(expected, running, ignore)), secrecy);
}
