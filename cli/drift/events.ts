/**
 * One stack's `pulumi preview --refresh` read from its engine events (`--event-log`, one JSON event per line; field
 * names as in the pinned CLI's sdk/go/common/apitype/events.go): each resource the preview would change, with the
 * paths between what the program declares (the step's `new` inputs) and what the refresh read from the service (its
 * `old` inputs), our providers' warnings tied to their resource, and the engine's errors.
 */
import { attribute, type Candidate, type ProviderWarning } from "./warnings";
import { changedPaths, reportValue, valueAt, type PathChange } from "./paths";
import { MAX_PATHS_PER_RESOURCE, type DriftedPath, type DriftedResource } from "./report";

interface StepState {
  id?: string;
  inputs?: Record<string, unknown>;
}
interface StepMetadata {
  op: string;
  urn: string;
  type: string;
  old?: StepState | null;
  new?: StepState | null;
  diffs?: string[] | null;
  detailedDiff?: Record<string, { kind: string; inputDiff?: boolean }> | null;
}
interface EngineEvent {
  resourcePreEvent?: { metadata: StepMetadata };
  resOutputsEvent?: { metadata: StepMetadata };
  diagnosticEvent?: { message: string; severity: string; urn?: string };
  summaryEvent?: unknown;
}

/** A drifted resource before the run's history is known (firstSeen and status come from the report's builder). */
export type FoundResource = Omit<DriftedResource, "paths"> & { paths: Array<Omit<DriftedPath, "firstSeen" | "status">> };

export interface PreviewEvents {
  resources: FoundResource[];
  /** Resources of the program the preview saw (not the stack, not providers). */
  resourceCount: number;
  /** The engine's error diagnostics, in order. */
  errors: string[];
  /**
   * What the program or its language host wrote to standard error, warnings left out (the YAML host's `Error: ...`
   * with the line it names, a Python traceback): why a preview failed when the engine gave no error diagnostic.
   */
  programErrors: string[];
  /** The preview ran to its end (a summary event came). */
  finished: boolean;
}

/** Operations that change nothing. */
const QUIET_OPS = new Set(["same", "refresh", "read", "discard", "remove-pending-replace"]);

export function readPreviewEvents(lines: string[]): PreviewEvents {
  const steps = new Map<string, StepMetadata>();
  const seen = new Set<string>();
  const warnings: ProviderWarning[] = [];
  const errors: string[] = [];
  const programErrors: string[] = [];
  let finished = false;
  for (const line of lines) {
    if (!line.trim()) continue;
    let event: EngineEvent;
    try {
      event = JSON.parse(line) as EngineEvent;
    } catch {
      continue; // A line cut short by a killed CLI.
    }
    const m = event.resourcePreEvent?.metadata ?? event.resOutputsEvent?.metadata;
    if (m && isProgramResource(m.type)) {
      seen.add(m.urn);
      // A replacement is several steps of one URN; the first that is not quiet says what the engine would do.
      if (!QUIET_OPS.has(m.op) && !steps.has(m.urn)) steps.set(m.urn, m);
    }
    const d = event.diagnosticEvent;
    if (d && (d.severity === "warning" || d.severity === "info#err") && /^(warning: )?\w+ /.test(d.message)) warnings.push({ text: d.message, ...(d.urn ? { urn: d.urn } : {}) });
    if (d && d.severity === "error" && !(!d.urn && /^(update|preview) failed\s*$/.test(d.message))) errors.push(d.message.trim());
    if (d && d.severity === "info#err" && d.message.trim() && !/^warning: /.test(d.message)) programErrors.push(d.message.trimEnd());
    if (event.summaryEvent) finished = true;
  }
  const resources = [...steps.values()].map(resourceOf);
  attributeWarnings(resources, [...steps.values()], warnings);
  return { resources, resourceCount: seen.size, errors, programErrors, finished };
}

function resourceOf(m: StepMetadata): FoundResource {
  const declared = m.new?.inputs;
  const actual = m.old?.inputs;
  const changes = m.op === "create" || m.op === "delete" ? [{ path: "(resource)", kind: m.op === "create" ? ("add" as const) : ("delete" as const) }] : pathsOf(m);
  const paths = changes
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map((c) => {
      const declaredValue = c.path === "(resource)" ? undefined : reportValue(valueAt(declared, c.path));
      const actualValue = c.path === "(resource)" ? undefined : reportValue(valueAt(actual, c.path));
      return { path: c.path, kind: c.kind, ...(declaredValue !== undefined ? { declared: declaredValue } : {}), ...(actualValue !== undefined ? { actual: actualValue } : {}) };
    });
  const kept = paths.slice(0, MAX_PATHS_PER_RESOURCE);
  return {
    urn: m.urn,
    type: m.type,
    name: m.urn.split("::").at(-1) ?? m.urn,
    op: m.op,
    paths: kept,
    ...(paths.length > kept.length ? { truncatedPaths: paths.length - kept.length } : {}),
  };
}

/** The plugin's detailed diff where it gave one (input paths only), else the paths found by comparing both sides. */
function pathsOf(m: StepMetadata): PathChange[] {
  const detailed = Object.entries(m.detailedDiff ?? {}).filter(([, d]) => d.inputDiff !== false);
  if (detailed.length) return detailed.map(([path, d]) => ({ path, kind: d.kind.startsWith("add") ? "add" : d.kind.startsWith("delete") ? "delete" : "update" }));
  const found = changedPaths(m.new?.inputs ?? {}, m.old?.inputs ?? {});
  if (found.length) return found;
  // The engine names changed keys without values (diffs): keep them.
  return (m.diffs ?? []).map((path) => ({ path, kind: "update" as const }));
}

function attributeWarnings(resources: FoundResource[], steps: StepMetadata[], warnings: ProviderWarning[]): void {
  const byUrn = new Map(resources.map((r) => [r.urn, r]));
  const candidates: Candidate[] = steps.map((m) => ({ urn: m.urn, type: m.type, id: m.old?.id ?? m.new?.id, inputs: [m.new?.inputs ?? undefined, m.old?.inputs ?? undefined] }));
  for (const w of warnings) {
    const found = attribute(w, candidates);
    if (!found) continue;
    const r = byUrn.get(found.urn)!;
    const notes = (r.notes ??= []);
    if (!notes.includes(found.attribution.note)) notes.push(found.attribution.note);
    if (found.attribution.changedBy) for (const p of r.paths) Object.assign(p, { changedBy: found.attribution.changedBy, changedAt: found.attribution.changedAt });
  }
  for (const r of resources) r.notes?.sort();
}

/** Custom and component resources of the program, not the stack or providers. */
function isProgramResource(type: string): boolean {
  return type !== "pulumi:pulumi:Stack" && !type.startsWith("pulumi:providers:");
}
