import { ABSENT } from "./canonical";
import { boundEntries } from "./bound";
import { comparedEntries, recordsOf } from "./digests";
import type { Entry } from "./entry";
import { keyOf } from "./keys";
import { CONFIGURATION_FILES, type ConfigurationView } from "./view";

// Lines for people, one per differing key, sorted by key: "<key> changed", "<key> missing" / "<key> added" (drift: the
// bundle declares it and the controller lacks it / the controller has it and the bundle does not declare it;
// effect: the new bundle drops it / brings it). plugins.yaml says it as "plugins.yaml: +id" and "plugins.yaml: -id".

const PLUGIN_PREFIX = `${CONFIGURATION_FILES.plugins}: `;

function line(key: string, from: string, to: string, gone: string, came: string): string | undefined {
  if (from === to) return undefined;
  if (key.startsWith(PLUGIN_PREFIX) && (from === ABSENT || to === ABSENT)) {
    return `${PLUGIN_PREFIX}${from === ABSENT ? "+" : "-"}${key.slice(PLUGIN_PREFIX.length)}`;
  }
  if (from === ABSENT) return `${key} ${came}`;
  if (to === ABSENT) return `${key} ${gone}`;
  return `${key} changed`;
}

/** What differs between a controller and its bundle, from configurationDigests' two records. */
export function describeDrift(expected: Record<string, string>, running: Record<string, string>): string[] {
  const keys = [...new Set([...Object.keys(expected), ...Object.keys(running)])].sort();
  return keys.flatMap((key) => line(key, expected[key] ?? ABSENT, running[key] ?? ABSENT, "missing", "added") ?? []);
}

/**
 * What a bundle change does to a controller's effective configuration (gains, loses, changes), over the keys either
 * version declares: `plugins.yaml: +ssh-agent`, `jenkins.yaml: jenkins.systemMessage changed`, `items.yaml: item
 * "deploy" removed`.
 */
export function effectOfChange(before: ConfigurationView, after: ConfigurationView, ignore: readonly string[] = []): string[] {
  const byKey = new Map<string, Entry>();
  // Keys declared by the new version (the old one's digests read as the running side), then those only the old one declares.
  for (const e of comparedEntries(after, before, ignore)) byKey.set(keyOf(e.file, e.segments), { ...e, expected: e.running, running: e.expected });
  for (const e of comparedEntries(before, after, ignore)) if (!byKey.has(keyOf(e.file, e.segments))) byKey.set(keyOf(e.file, e.segments), e);
  const { expected: was, running: is } = recordsOf(boundEntries([...byKey.values()]));
  return Object.keys(was).flatMap((key) => line(key, was[key]!, is[key]!, "removed", "added") ?? []);
}
