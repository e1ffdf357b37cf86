/**
 * A refresh's words about a drifted controller, one warning per drifted path (after the summary that lists them all):
 * who changed it and when, as the configuration history tells (changed-by.ts), and from what to what, as the
 * comparison writes values (provider/configuration/shown.ts: the value, or its digest and why it is kept).
 *
 *   ControllerConfiguration (<id>): "jenkins.yaml: jenkins.systemMessage" changed by "alice" ("Alice Liddell") at
 *   2026-11-30T14:02:33 (controller time): "Managed by Pulumi" → "Maintenance tonight"
 *
 * The form is the feature-flag resources' ("... by "<who>" at <when>"), per path: the drift report ties each to its
 * path (`configuration["<key>"]`). Every server text in it is quoted (the key, the login, the display name) or a form
 * already escaped and bounded; the reasons are this package's own words.
 */
import { ABSENT, isDigestForm, reasonOfForm } from "../../configuration";
import { bounded } from "../../http/response-text";
import { quoted } from "../../text/printable";
import { type ChangedBy, SYSTEM_USER, UNKNOWN } from "./changed-by";
import { TYPE_NAME } from "./types";

/** Paths told one by one at most per refresh of a resource (the summary names them all). */
export const MAX_PATH_NOTES = 20;

const kindOf = (from: string, to: string): string => (from === ABSENT ? "added" : to === ABSENT ? "missing" : "changed");

function whoText(who: ChangedBy): string {
  if (who.by === UNKNOWN) return `by unknown (${who.note ?? "the history does not tell"})`;
  const at = who.at === undefined ? "" : ` at ${who.at}`;
  const note = who.note === undefined ? "" : ` (${who.note})`;
  if (who.by === SYSTEM_USER) return `by SYSTEM${at}${note}`;
  const name = who.name === undefined ? "" : ` (${quoted(bounded(who.name, 100))})`;
  return `by ${quoted(bounded(who.by, 100))}${name}${at}${note}`;
}

/** The values of a drifted path: shown, or their digests and why. */
function valuesText(from: string, to: string): string {
  const hidden = [from, to].filter((f) => f !== ABSENT).every(isDigestForm);
  if (!hidden) return `${from} → ${to}`;
  const reason = reasonOfForm(from) ?? reasonOfForm(to);
  const digest = (f: string) => (f === ABSENT ? ABSENT : f.slice(0, 16));
  return `${digest(from)} → ${digest(to)} (values kept as digests${reason ? `: ${reason}` : ""})`;
}

/** One drifted path's warning. */
export function pathNote(id: string, key: string, from: string, to: string, who: ChangedBy): string {
  return `${TYPE_NAME} (${id}): ${quoted(key)} ${kindOf(from, to)} ${whoText(who)}: ${valuesText(from, to)}`;
}

/** The drifted keys of two records, sorted. */
export function driftedKeys(expected: Record<string, string>, running: Record<string, string>): string[] {
  return [...new Set([...Object.keys(expected), ...Object.keys(running)])].filter((k) => (expected[k] ?? ABSENT) !== (running[k] ?? ABSENT)).sort();
}
