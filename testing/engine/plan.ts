/**
 * A step's plan, as `pulumi preview` / `pulumi up` show it: one entry per resource step, the changes it counts
 * (`--expect-no-changes`), and the table a person reads.
 */
import type { JsonObject } from "../processes/provider-host";

export type PlanOp = "create" | "update" | "replace" | "delete" | "same" | "refresh" | "read";

/** One resource step: what the engine did (up, refresh, destroy) or would do (preview). */
export interface PlanEntry {
    urn: string;
    name: string;
    type: string;
    op: PlanOp;
    /**
     * create: input keys (without `__provider`); update/replace: top-level inputs that differ between the old and new
     * inputs, as the engine shows them (`__provider` when the provider code changed); refresh/read: output keys that
     * changed; same/delete: [].
     */
    changedFields: string[];
    /** update/replace: the keys the provider's diff asked to replace. */
    replaces?: string[];
    deleteBeforeReplace?: boolean;
    /** preview: the planned outputs (checked inputs, UNKNOWN where not known yet). */
    outputs?: JsonObject;
    /** refresh: read found the object gone; the resource was dropped from the state. */
    dropped?: boolean;
    /**
     * delete: the resource was only read (external) or has retainOnDelete: dropped from the state, not deleted.
     * replace: the old object was left on the service (the state said retainOnDelete).
     */
    retained?: boolean;
    /** delete: not deleted on its own, the resource it is `deletedWith` (this URN) being deleted in the same step. */
    deletedWith?: string;
}

/** The names the runner's API has always used for the same type. */
export type ProgramOp = PlanOp;
export type ProgramPlanEntry = PlanEntry;
export type ProgramPlan = PlanEntry[];

/**
 * What `--expect-no-changes` counts as a change: drift or a vanished object on refresh, any step but `same` (a read
 * of an external object changes nothing).
 */
export function planChanges(plan: ProgramPlan): ProgramPlan {
    return plan.filter((e) => (e.op === "refresh" ? e.dropped === true || e.changedFields.length > 0 : e.op !== "same" && e.op !== "read"));
}

export function assertNoChanges(plan: ProgramPlan): void {
    const text = unexpectedChanges(plan);
    if (text) throw new Error(text);
}

/** What `--expect-no-changes` says of a plan with changes (undefined when there are none). */
export function unexpectedChanges(plan: ProgramPlan): string | undefined {
    const changes = planChanges(plan);
    if (changes.length === 0) return undefined;
    return `no changes were expected (expectNoChanges), but ${changes.length} were found:\n${formatPlan(changes)}`;
}

/** `pulumi-nodejs:dynamic/cloudbees:Application` -> `cloudbees:Application`. */
export function shortType(type: string): string {
    return type.replace(/^pulumi-nodejs:dynamic\//, "").replace(/^pulumi-nodejs:dynamic:/, "dynamic:");
}

/**
 * A short human table of a plan: resource, type, operation, changed fields; then a count per operation.
 *
 *   RESOURCE  TYPE         OPERATION  CHANGED FIELDS
 *   core      toy:Team     replace    size, title (replace: title)
 */
export function formatPlan(plan: ProgramPlan): string {
    if (plan.length === 0) return "(no resources)";
    const rows = plan.map((e) => {
        let fields = e.changedFields.join(", ");
        if (e.replaces?.length) fields += `${fields ? " " : ""}(replace: ${e.replaces.join(", ")}${e.deleteBeforeReplace ? ", delete first" : ""})`;
        if (e.dropped) fields = "gone: dropped from the state";
        if (e.retained) fields = e.op === "replace" ? `${fields} (old object kept: retainOnDelete)` : "dropped from the state, not deleted";
        if (e.deletedWith) fields = `deleted with ${e.deletedWith.split("::").at(-1)}`;
        return [e.name, shortType(e.type), e.op, fields];
    });
    const header = ["RESOURCE", "TYPE", "OPERATION", "CHANGED FIELDS"];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const line = (cols: string[]) => cols.map((c, i) => (i === cols.length - 1 ? c : c.padEnd(widths[i]))).join("  ").trimEnd();
    const counts = new Map<string, number>();
    for (const e of plan) counts.set(e.op, (counts.get(e.op) ?? 0) + 1);
    const summary = [...counts].map(([op, n]) => `${n} ${op}`).join(", ");
    return [line(header), ...rows.map(line), `(${summary})`].join("\n");
}
