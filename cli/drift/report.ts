/**
 * The drift report that `pulumi-cloudbees drift` writes (drift-report.json), version 1: what drifted in each stack,
 * from what to what, who changed it and when (where our providers know), since when (`firstSeen`, carried from the
 * previous report), and what shares a cause. Stable order everywhere (stacks by id, resources by URN, paths by path,
 * causes by count then key), so two reports diff cleanly in Git. The JSON Schema beside it
 * (drift-report.schema.json) is published in the package and in docs/drift-detection.md.
 *
 * Nothing marked secret appears: a value the engine masks stays "[secret]". Every string from a server or a program
 * is data: bounded here (MAX_VALUE_CHARS, MAX_PATHS_PER_RESOURCE) and escaped where it is rendered.
 */

export const REPORT_SCHEMA_VERSION = 1;

/** A value as the engine's events carry it (secrets masked as "[secret]"), cut to MAX_VALUE_CHARS when printed. */
export type ReportValue = null | boolean | number | string | ReportValue[] | { [key: string]: ReportValue };

/** Longest printed value (JSON text) kept per old/new; longer ones end with "…" and say how long they were. */
export const MAX_VALUE_CHARS = 2000;
/** Most paths kept per resource; `truncatedPaths` counts the rest. */
export const MAX_PATHS_PER_RESOURCE = 100;
/** Longest error text kept per stack. */
export const MAX_ERROR_CHARS = 4000;

/**
 * clean: the preview proposed no change; drifted: it proposed changes; error: the preview could not run (a missing
 * folder, no Pulumi.yaml, an unknown stack, a program or backend failure); locked: another update holds the stack;
 * timeout: the per-stack deadline passed.
 */
export type StackStatus = "clean" | "drifted" | "error" | "locked" | "timeout";

/**
 * How a stack was checked: `preview` runs `pulumi preview --refresh --expect-no-changes` (the program runs: drift
 * in the services and what the program would change), `refresh` runs `pulumi refresh --preview-only
 * --expect-no-changes` (no program: the providers recorded in the state read each resource with the configuration
 * recorded there). docs/drift-detection.md says when to choose which.
 */
export type CheckMode = "preview" | "refresh";
export const CHECK_MODES: readonly CheckMode[] = ["preview", "refresh"];

export interface DriftReport {
  schemaVersion: typeof REPORT_SCHEMA_VERSION;
  /** When this run started, ISO 8601 UTC. */
  generatedAt: string;
  /** The package version that wrote it. */
  toolVersion: string;
  /** Present on a shard's report (`--shard i/n`, 1-based); absent on an unsharded or merged one. */
  shard?: { index: number; count: number };
  summary: ReportSummary;
  /** Every stack of the run, by id. A clean stack has no `resources`. */
  stacks: StackReport[];
  /** Drift grouped by cause: the same path changed to the same value, across resources and stacks. */
  causes: Cause[];
  /** Paths the previous report listed as drifted that no longer are (given --previous). */
  resolved: ResolvedPath[];
}

export interface ReportSummary {
  stacks: number;
  clean: number;
  drifted: number;
  error: number;
  locked: number;
  timeout: number;
  driftedResources: number;
  driftedPaths: number;
  /** Drifted paths not in the previous report (all of them without one). */
  newPaths: number;
  resolvedPaths: number;
}

export interface StackReport {
  /** `<folder>#<stack>`, the folder as given (relative to the stacks file or the working directory). */
  id: string;
  folder: string;
  stack: string;
  status: StackStatus;
  /**
   * How it was checked, and the checks run: 1, or more when a check failed for a reason that may pass (retry.ts) and
   * was run again. Always written; absent only in a report of an earlier version (a --previous, a shard).
   */
  mode?: CheckMode;
  tries?: number;
  /** Of all its tries, the pauses between them included. */
  durationMs: number;
  /** Resources the preview saw, those drifted, and their drifted paths. */
  counts: { resources: number; drifted: number; paths: number };
  /** Why the stack is error, locked or timeout: bounded, printable text. */
  error?: string;
  resources?: DriftedResource[];
}

export interface DriftedResource {
  urn: string;
  /** The type token, e.g. `cloudbees:index:Flag` or `pulumi-nodejs:dynamic/cloudbees:Flag`. */
  type: string;
  /** The resource's name (the URN's last part). */
  name: string;
  /**
   * The operation the engine would make: update, replace, create (gone on the service), delete, ... In the refresh
   * mode, what the next `pulumi up --refresh` would make of the refresh's outcome: update (replace where the
   * provider's detailed diff says so), or create for a resource the refresh found gone.
   */
  op: string;
  paths: DriftedPath[];
  /** Paths left out past MAX_PATHS_PER_RESOURCE. */
  truncatedPaths?: number;
  /** Our providers' own words about this resource in the run (their drift warnings), bounded and printable. */
  notes?: string[];
}

export interface DriftedPath {
  /** The property path as the engine writes it (`value`, `conditions[0].operator`, `configuration["jenkins.yaml"]`). */
  path: string;
  kind: "add" | "delete" | "update";
  /** What the program declares (the state's side), and what the service holds now. */
  declared?: ReportValue;
  actual?: ReportValue;
  /** Who changed it and when, where our providers know (the feature-flag service's audit log). */
  changedBy?: string;
  changedAt?: string;
  /** The first run that saw this path drifted (this run's generatedAt when new). */
  firstSeen: string;
  status: "new" | "known";
}

export interface Cause {
  /** Stable key: type, path and the new value's JSON. */
  key: string;
  type: string;
  path: string;
  actual?: ReportValue;
  count: number;
  /** `<stack id> <urn>` of each member, sorted. */
  members: string[];
  /** One line a person reads: "jenkins.yaml: jenkins.systemMessage on 37 controllers". */
  summary: string;
}

export interface ResolvedPath {
  stack: string;
  urn: string;
  path: string;
  firstSeen: string;
}

/** The command's exit codes, documented in its --help and docs/drift-detection.md. */
export const EXIT = {
  clean: 0,
  /** Drift found (with --fail-on new: new drift only). */
  drift: 1,
  /** No drift found, but a stack was error, locked or timed out. */
  partial: 2,
  /** Could not run at all: bad arguments, no stacks, no Pulumi CLI. */
  couldNotRun: 3,
} as const;
