/**
 * Our providers' own drift words in a run's diagnostics, tied to the resource they are about: the feature-flag
 * resources' "<Type> <label> changed outside this stack by "<who>" at <when>" (the audit log's answer,
 * provider/resources/feature-flags/audit-trail.ts) and "<Type> (<id>): ..." warnings such as ControllerConfiguration's
 * "controller ... differs from its bundle ...: <paths>", and its word per drifted path, `"<key>" changed by "<who>" at
 * <when> (controller time): ...` (provider/resources/controller-configuration/drift-notes.ts), which names who for that
 * path alone. Through the plugin a warning carries its URN; from a dynamic provider's host it arrives as printed text,
 * so it is matched by type and label or id.
 */
import { printable } from "../../provider/text/printable";

export interface ProviderWarning {
  text: string;
  urn?: string;
}

export interface Candidate {
  urn: string;
  type: string;
  id?: string;
  /** Both sides' inputs, to match a label by. */
  inputs: Array<Record<string, unknown> | undefined>;
}

export interface Attribution {
  note: string;
  changedBy?: string;
  changedAt?: string;
  /** The one path it names who changed (`configuration["jenkins.yaml: jenkins.systemMessage"]`); else every path. */
  path?: string;
}

const MAX_NOTE_CHARS = 1000;
const CHANGED = /^(\w+) (.+?) (?:changed|removed) outside this stack(?: by "((?:[^"\\]|\\.)*)" at (\d{4}-\d\d-\d\dT[\d:.]+Z))?/;
const WITH_ID = /^(\w+) \(([^)]*)\)/;
/** A drifted path's own word: its key quoted, who (a login quoted, SYSTEM or unknown), when in the controller's time. */
const PATH_CHANGED = /^\w+ \([^)]*\): ("(?:[^"\\]|\\.)*") (?:changed|missing|added) by (?:("(?:[^"\\]|\\.)*")|(SYSTEM)|unknown\b)(?: \("(?:[^"\\]|\\.)*"\))?(?: at (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d \(controller time\)))?/;

/** Who changed the one path a per-path warning names, or nothing when it is not one. */
function pathAttribution(note: string): Omit<Attribution, "note"> {
  const m = PATH_CHANGED.exec(note);
  if (!m) return {};
  try {
    const key = JSON.parse(m[1]!) as string;
    const by = m[2] !== undefined ? (JSON.parse(m[2]) as string) : (m[3] ?? "unknown");
    return { path: `configuration[${JSON.stringify(key)}]`, changedBy: by, ...(m[4] !== undefined ? { changedAt: m[4] } : {}) };
  } catch {
    return {};
  }
}

/** The warning's text without the CLI's prefix, on one bounded line. */
export function warningText(message: string): string {
  const line = printable(message.trim().replace(/^warning: /, ""));
  return line.length > MAX_NOTE_CHARS ? `${line.slice(0, MAX_NOTE_CHARS)}…` : line;
}

/** Which candidate the warning is about (by URN, else type and id or label), and what it says of who and when. */
export function attribute(warning: ProviderWarning, candidates: Candidate[]): { urn: string; attribution: Attribution } | undefined {
  const note = warningText(warning.text);
  const changed = CHANGED.exec(note);
  const attribution: Attribution = { note, ...(changed?.[3] !== undefined ? { changedBy: changed[3], changedAt: changed[4] } : pathAttribution(note)) };
  if (warning.urn) return candidates.some((c) => c.urn === warning.urn) ? { urn: warning.urn, attribution } : undefined;
  const withId = WITH_ID.exec(note);
  const typeName = changed?.[1] ?? withId?.[1];
  if (!typeName) return undefined;
  const ofType = candidates.filter((c) => typeNameOf(c.type) === typeName);
  const matches = withId && !changed ? ofType.filter((c) => c.id === withId[2]) : ofType.filter((c) => c.inputs.some((i) => labelsOf(i).includes(changed![2]!)));
  const only = matches.length === 1 ? matches[0] : ofType.length === 1 ? ofType[0] : undefined;
  return only ? { urn: only.urn, attribution } : undefined;
}

/** `cloudbees:index:FlagConfiguration` and `pulumi-nodejs:dynamic/cloudbees:FlagConfiguration` -> FlagConfiguration. */
export function typeNameOf(type: string): string {
  return type.split(":").at(-1) ?? type;
}

/** How our warnings name a resource: a flag configuration `<flag>/<environment>`, others by name or email. */
function labelsOf(inputs: Record<string, unknown> | undefined): string[] {
  if (!inputs) return [];
  const labels = [inputs.name, inputs.email].filter((v): v is string => typeof v === "string");
  if (typeof inputs.flag === "string" && typeof inputs.environment === "string") labels.push(`${inputs.flag}/${inputs.environment}`);
  return labels;
}
