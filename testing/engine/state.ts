/**
 * The stack's state as the engine keeps it between steps: every resource with its id, inputs and outputs in wire
 * form, in dependency order, and the stack outputs. In memory, or in a JSON file (`stateFile`).
 */
import * as fs from "fs";
import { replaceFile } from "../../provider/files/safe-write";
import type { JsonObject } from "../processes/provider-host";

export interface StateResource {
    urn: string;
    type: string;
    name: string;
    parent: string;
    id: string;
    /** Checked inputs in wire form (secrets marked, `__provider` included). */
    inputs: JsonObject;
    /** Outputs in wire form (secrets marked, `__provider` included). */
    outputs: JsonObject;
    dependencies: string[];
    protect: boolean;
    retainOnDelete: boolean;
    additionalSecretOutputs: string[];
    /** Read with ReadResource (`get`): refreshed and re-read, never updated or deleted. */
    external: boolean;
    /** Per input key, the URNs of the resources its value came from (for the dependents of a delete-first replacement). */
    propertyDependencies?: Record<string, string[]>;
    /** The `deletedWith` option: the URN whose delete takes this resource with it (no delete of its own then). */
    deletedWith?: string;
    /** The `ignoreChanges` paths of the last registration (a refresh's diff applies them). */
    ignoreChanges?: string[];
    /** A create or update failed with an id: the provider's reasons. The next up updates the resource. */
    initErrors?: string[];
    /**
     * Pending deletion: the old object of a create-before-delete replacement whose delete failed or was not reached
     * (its URN is also the new object's). The next up deletes it, as the engine does with `delete: true` resources.
     */
    delete?: true;
    /** Deleted by a delete-before-replace whose create failed: the next up replaces it (no delete again). */
    pendingReplacement?: true;
}

export interface ProgramState {
    version: 1;
    /** In dependency order: a resource comes after everything it depends on. */
    resources: StateResource[];
    /** Stack outputs in wire form (secrets marked). */
    outputs: JsonObject;
}

export function emptyState(): ProgramState {
    return { version: 1, resources: [], outputs: {} };
}

/** The state in `file`, or an empty one when there is no file (yet). */
export async function loadState(file: string | undefined): Promise<ProgramState> {
    if (!file || !fs.existsSync(file)) return emptyState();
    const state = JSON.parse(await fs.promises.readFile(file, "utf8")) as ProgramState;
    if (state.version !== 1 || !Array.isArray(state.resources)) throw new Error(`${file}: not a ProgramRunner state file`);
    return state;
}

/**
 * Writes the state to `file` (when there is one) in one rename, so a reader never sees half of it: a new file of a
 * random name beside it, created exclusively (a link planted there is never followed, and a name no other process
 * can guess: it holds every secret), renamed over it (provider/files/safe-write.ts). Readable by its owner only
 * (0600): secrets are in it in clear inside their wrappers (the kit encrypts nothing, as a local backend's state
 * would be without a passphrase).
 */
export async function saveState(file: string | undefined, state: ProgramState): Promise<void> {
    if (!file) return;
    await replaceFile(file, JSON.stringify(state, null, 2), { private: true });
}

/** Stable topological order: every resource after its dependencies and parent (those present in the list). */
export function topoSort(list: StateResource[]): StateResource[] {
    // A URN may stand for two resources (a new one and the old one pending deletion): dependencies name the live one.
    const byUrn = new Map(list.filter((s) => s.delete).map((s) => [s.urn, s]));
    for (const s of list) if (!s.delete) byUrn.set(s.urn, s);
    const mark = new Map<StateResource, "visiting" | "done">();
    const out: StateResource[] = [];
    const visit = (s: StateResource) => {
        if (mark.has(s)) return; // done, or a cycle (which the SDK cannot produce): keep the given order
        mark.set(s, "visiting");
        for (const d of [s.parent, ...s.dependencies, s.deletedWith ?? ""]) {
            const dep = d ? byUrn.get(d) : undefined;
            if (dep) visit(dep);
        }
        mark.set(s, "done");
        out.push(s);
    };
    list.forEach(visit);
    return out;
}

/** What a scheduled delete did: deleted (or dropped), with its plan entry, or refused and kept. */
export type DeleteOutcome<E> = { kept: true } | { kept?: false; entry?: E };

/**
 * step_generator.go ScheduleDeletes: the deletes in antichains, dependents first (parent, dependencies and
 * deletedWith name what a resource depends on); each antichain runs at once, as the step executor runs it. A
 * resource kept (a refused protected one) keeps what it depends on. After an antichain in which a delete failed, no
 * new one starts, and the first failure is thrown. Entries are recorded in a stable order (dependents first).
 */
export async function scheduleDeletes<E>(
    list: StateResource[],
    run: (s: StateResource) => Promise<DeleteOutcome<E>>,
    record: (entry: E) => void,
): Promise<void> {
    const depsOf = (s: StateResource) => [s.parent, ...s.dependencies, s.deletedWith ?? ""].filter((d) => d);
    // A set (in the order dependents first) and a count of each URN's remaining dependents: each antichain is found
    // in one pass, not by asking every resource about every other (quadratic in a destroy of thousands).
    const remaining = new Set(topoSort(list).reverse());
    const byUrn = new Map<string, StateResource[]>();
    const dependents = new Map<string, number>();
    for (const s of remaining) {
        byUrn.set(s.urn, [...(byUrn.get(s.urn) ?? []), s]);
        for (const d of depsOf(s)) dependents.set(d, (dependents.get(d) ?? 0) + 1);
    }
    const leave = (s: StateResource) => {
        remaining.delete(s);
        for (const d of depsOf(s)) dependents.set(d, dependents.get(d)! - 1);
    };
    const keepDependencies = (s: StateResource) => {
        for (const d of depsOf(s)) {
            for (const r of byUrn.get(d) ?? []) {
                if (!remaining.has(r)) continue;
                leave(r);
                keepDependencies(r);
            }
        }
    };
    while (remaining.size) {
        let ready = [...remaining].filter((r) => !dependents.get(r.urn));
        if (!ready.length) ready = [remaining.values().next().value!]; // a cycle, which the SDK cannot produce
        for (const r of ready) leave(r);
        const results = await Promise.allSettled(ready.map((r) => run(r)));
        let failure: { error: unknown } | undefined;
        results.forEach((res, i) => {
            if (res.status === "rejected") failure ??= { error: res.reason };
            else if (res.value.kept) keepDependencies(ready[i]!);
            else if (res.value.entry) record(res.value.entry);
        });
        if (failure) throw failure.error;
    }
}

export function clone<T>(v: T): T {
    return JSON.parse(JSON.stringify(v)) as T;
}
