/**
 * One stack's check read from its engine events (`--event-log`, one JSON event per line; field names as in the pinned
 * CLI's sdk/go/common/apitype/events.go): each resource that drifted, with the paths between what the program declares
 * and what the refresh read from the service, our providers' warnings tied to their resource, and the engine's errors.
 *
 * - `pulumi preview --refresh` (mode preview): the first step of a resource that is not quiet says what the engine
 *   would do; its `new` inputs are the program's, its `old` inputs what the refresh read.
 * - `pulumi refresh --preview-only` (mode refresh): each resource's `refresh` step, then its outcome in a
 *   `resOutputsEvent` whose op is `update`, `delete` (gone on the service) or `same` (pkg/engine/update.go, ResultOp
 *   of pkg/resource/deploy/step.go's RefreshStep); its `old` inputs are the state's (what the program declared at its
 *   last `up`), its `new` inputs what the read returned. The detailed diff the engine keeps is the provider's diff of
 *   the read against the state, inverted (an input the service lost is `add` there): turned back here, so that both
 *   modes name a path's kind alike (add: declared only; delete: on the service only).
 */
import { attribute, type Candidate, type ProviderWarning } from "./warnings";
import { changedPaths, reportValue, valueAt, type PathChange } from "./paths";
import { MAX_PATHS_PER_RESOURCE, type CheckMode, type DriftedPath, type DriftedResource } from "./report";

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

export interface EngineEvents {
  resources: FoundResource[];
  /** Resources of the program the check saw (not the stack, not providers). */
  resourceCount: number;
  /** The engine's error diagnostics, in order. */
  errors: string[];
  /**
   * What the program or its language host wrote to standard error, warnings left out (the YAML host's `Error: ...`
   * with the line it names, a Python traceback): why a preview failed when the engine gave no error diagnostic.
   */
  programErrors: string[];
  /** The check ran to its end (a summary event came). */
  finished: boolean;
}

/** Operations that change nothing. */
const QUIET_OPS = new Set(["same", "refresh", "read", "discard", "remove-pending-replace"]);

/** What `pulumi preview --refresh` said (readEngineEvents in mode preview). */
export function readPreviewEvents(lines: string[]): EngineEvents {
  return readEngineEvents(lines, "preview");
}

export function readEngineEvents(lines: string[], mode: CheckMode): EngineEvents {
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
    if (d && d.severity === "error" && !(!d.urn && /^(update|preview|refresh) failed\s*$/.test(d.message))) errors.push(d.message.trim());
    if (d && d.severity === "info#err" && d.message.trim() && !/^warning: /.test(d.message)) programErrors.push(d.message.trimEnd());
    if (event.summaryEvent) finished = true;
  }
  const resources = [...steps.values()].map((m) => resourceOf(mode === "refresh" ? asNextUp(m) : m));
  attributeWarnings(resources, [...steps.values()], warnings);
  return { resources, resourceCount: seen.size, errors, programErrors, finished };
}

/**
 * A refresh's outcome as the step the next `pulumi up --refresh` would make of it: declared (the state's inputs) on
 * the `new` side and what was read on the `old` side, as a preview's step has them; a resource gone on the service
 * is created again; a detailed diff's kinds turned back (the engine inverted them), `-replace` kinds making it a
 * replace.
 */
function asNextUp(m: StepMetadata): StepMetadata {
  const detailedDiff = m.detailedDiff ? Object.fromEntries(Object.entries(m.detailedDiff).map(([path, d]) => [path, { ...d, kind: invertedKind(d.kind) }])) : m.detailedDiff;
  const replaces = Object.values(detailedDiff ?? {}).some((d) => d.kind.endsWith("-replace"));
  const op = m.op === "delete" ? "create" : replaces ? "replace" : m.op;
  return { ...m, op, old: m.op === "delete" ? null : m.new, new: m.old, detailedDiff };
}

function invertedKind(kind: string): string {
  return kind.startsWith("add") ? kind.replace("add", "delete") : kind.startsWith("delete") ? kind.replace("delete", "add") : kind;
}

/**
 * A value as a person reads it. A ControllerConfiguration's `configuration` entries hold each value as JSON text
 * (`"\"Maintenance tonight\""`, a list, an object), or a digest where it can hold a secret (`<digest> (<why>)`): the
 * JSON is shown as the value it is, so that a message reads `"Maintenance tonight"`, not its JSON quoted again.
 */
function shownValue(type: string, path: string, value: unknown): unknown {
  if (typeof value !== "string" || !type.endsWith(":ControllerConfiguration") || !path.startsWith("configuration[") || !/^["[{]/.test(value)) return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function resourceOf(m: StepMetadata): FoundResource {
  const declared = m.new?.inputs;
  const actual = m.old?.inputs;
  const changes = m.op === "create" || m.op === "delete" ? [{ path: "(resource)", kind: m.op === "create" ? ("add" as const) : ("delete" as const) }] : pathsOf(m);
  const paths = changes
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map((c) => {
      const value = (props: Record<string, unknown> | undefined) => (c.path === "(resource)" ? undefined : reportValue(shownValue(m.type, c.path, valueAt(props, c.path))));
      const declaredValue = value(declared);
      const actualValue = value(actual);
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
    const { changedBy, changedAt, path } = found.attribution;
    if (changedBy) for (const p of r.paths) if (path === undefined || p.path === path) Object.assign(p, { changedBy, ...(changedAt !== undefined ? { changedAt } : {}) });
  }
  for (const r of resources) r.notes?.sort();
}

/** Custom and component resources of the program, not the stack or providers. */
function isProgramResource(type: string): boolean {
  return type !== "pulumi:pulumi:Stack" && !type.startsWith("pulumi:providers:");
}
