/**
 * Who changed a drifted path, and when, from the controller's configuration history (the Job Configuration History
 * plugin's system entries: provider/clients/config-history-types.ts). Never a wrong name: a person is named only when
 * the history decides it, else the answer is `unknown` and says why.
 *
 * For the file a path lives in (history-files.ts), its entries newest first:
 * - the newest is `SYSTEM`'s: configuration as code wrote the file last (a bundle applied at start or by a reload), so
 *   the drift came with a bundle: `SYSTEM`, at that time (who changed the bundle, the history cannot tell);
 * - otherwise the entries after the newest `SYSTEM` one (the bundle's last apply to that file) are the changes since:
 *   when one person made them all, that person, at the newest one; when several did, or one the history does not
 *   name (`unknown`, an empty id), which of them changed this path cannot be told;
 * - the file has no entry, an entry of it cannot be read or has a date in another form, the list was cut before the
 *   bundle's last apply, or the list is empty (the plugin shows no system entry to a user without Overall/Administer):
 *   unknown, saying which.
 * The dates are the controller's local time, whose zone the answer does not tell: shown as written, marked so.
 */
import type { ConfigHistoryRead } from "../../clients/config-history-types";
import { bounded } from "../../http/response-text";
import { quoted } from "../../text/printable";
import { historyFileOf } from "./history-files";

/** What the history says of one drifted path. */
export interface ChangedBy {
  /** The login (`alice`), `SYSTEM` (configuration as code), or `unknown`. */
  by: string;
  /** Their display name, when the history gives one other than the login. */
  name?: string;
  /** When: `2026-11-30T14:02:33 (controller time)`, the controller's local time. */
  at?: string;
  /** Why it is unknown, or what SYSTEM means. */
  note?: string;
}

export const SYSTEM_USER = "SYSTEM";
export const UNKNOWN = "unknown";

/** How a time of the history is shown: the controller's wall clock, whose zone the answer does not tell. */
export const atText = (localTime: string): string => `${localTime} (controller time)`;

const unknown = (note: string): ChangedBy => ({ by: UNKNOWN, note });

/** A login the history names a person by (not SYSTEM, not unknown or anonymous, not empty). */
function isPerson(userID: string): boolean {
  return userID !== "" && userID !== SYSTEM_USER && userID !== UNKNOWN && userID !== "anonymous";
}

/** Who changed the file `file` last since the bundle's last apply to it, by the rules above. */
export function changedByOfFile(file: string, read: ConfigHistoryRead): ChangedBy {
  const name = `${file}.xml`;
  if (read.entries.length === 0 && read.unreadable.length === 0) {
    return unknown("the configuration history lists no system change (the plugin shows none to a user without Overall/Administer)");
  }
  if (read.unreadable.some((u) => u.name === file)) return unknown(`an entry of ${name} in the configuration history cannot be read`);
  const entries = read.entries.filter((e) => e.job === file);
  const undated = entries.find((e) => e.localTime === undefined);
  if (undated) return unknown(`the configuration history writes the date of a change of ${name} as ${quoted(bounded(undated.date, 40))}, not yyyy-MM-dd_HH-mm-ss, so its changes cannot be ordered`);
  if (entries.length === 0) {
    return unknown(read.cut ? `the newest entries of the configuration history read hold none of ${name}` : `the configuration history has no entry of ${name} (a change written to the file directly is not recorded)`);
  }
  // Newest first; entries of one file never share a second (the plugin waits for the next), equal ones keep their order.
  const sorted = entries.map((e, i) => ({ e, i })).sort((a, b) => (a.e.localTime! < b.e.localTime! ? 1 : a.e.localTime! > b.e.localTime! ? -1 : a.i - b.i)).map((x) => x.e);
  const newest = sorted[0]!;
  if (newest.userID === SYSTEM_USER) {
    return { by: SYSTEM_USER, at: atText(newest.localTime!), note: "configuration as code applied a bundle (at start or by a reload): who changed the bundle, the history cannot tell" };
  }
  const lastApply = sorted.findIndex((e) => e.userID === SYSTEM_USER);
  if (lastApply < 0 && read.cut) return unknown(`the newest entries of the configuration history read do not reach the bundle's last apply to ${name}`);
  const since = lastApply < 0 ? sorted : sorted.slice(0, lastApply);
  if (!since.every((e) => isPerson(e.userID))) return unknown(`${name} was changed since the bundle's last apply by someone the history does not name`);
  const people = [...new Set(since.map((e) => e.userID))];
  if (people.length > 1) {
    const named = people.slice(0, 5).map((p) => quoted(bounded(p, 100))).join(", ");
    return unknown(`${name} was changed since the bundle's last apply by ${named}${people.length > 5 ? " and others" : ""}: which of them changed this path, the history cannot tell`);
  }
  const changes = since.length > 1 ? ` (${since.length} changes of ${name} since the bundle's last apply)` : "";
  return { by: newest.userID, ...(newest.user !== "" && newest.user !== newest.userID ? { name: newest.user } : {}), at: atText(newest.localTime!), ...(changes ? { note: changes.slice(2, -1) } : {}) };
}

/** Who changed each of `keys` (drifted paths), from one history read. */
export function changedByOf(keys: readonly string[], read: ConfigHistoryRead): Map<string, ChangedBy> {
  const byFile = new Map<string, ChangedBy>();
  const out = new Map<string, ChangedBy>();
  for (const key of keys) {
    const where = historyFileOf(key);
    if ("none" in where) {
      out.set(key, unknown(where.none));
      continue;
    }
    let found = byFile.get(where.file);
    if (!found) byFile.set(where.file, (found = changedByOfFile(where.file, read)));
    out.set(key, found);
  }
  return out;
}
