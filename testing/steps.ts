/**
 * The engine's steps over the state, each through `Lifecycle`/`ManagedResource` (engine.ts) and a provider host:
 * register (check -> create, or check -> diff -> update / replace / same), read (`get`), refresh, delete, destroy.
 *
 * Secrets: the program's secret inputs arrive as the engine receives them (wire form, secret wrappers where the
 * program put them, nested ones included), are kept wrapped in the state, are sent to the host unwrapped (it answers
 * Configure with acceptSecrets=false), and outputs are re-marked by key (plus `additionalSecretOutputs`) before they
 * go back to the program.
 */
import { annotateSecrets, type Lifecycle, type ManagedResource, PROVIDER_KEY } from "./engine";
import type { PlanEntry, ProgramPlan } from "./plan";
import type { RegisterMessage } from "./program-protocol";
import type { JsonObject } from "./provider-host";
import { topoSort, type ProgramState, type StateResource } from "./state";
import { changedKeys, isSecret, secret, unwrapSecrets } from "./values";

/** One registration of a deployment: its plan entry and the state its step left. */
export interface Slot {
    msg: RegisterMessage;
    entry?: PlanEntry;
    /** The step ran (successfully or not) and `state` is what it left; otherwise the old state stands. */
    settled: boolean;
    state?: StateResource;
}

/** What the program gets back for a registration. */
export interface Registered {
    id: string;
    outputs: JsonObject;
}

/**
 * RegisterResource: check, then create, or check, diff, then update / replace / same (preview: check and diff only).
 * `deferDelete` receives the delete of a create-before-delete replacement's old object.
 */
export async function registerStep(
    lc: Lifecycle,
    msg: RegisterMessage,
    slot: Slot,
    prev: StateResource | undefined,
    dryRun: boolean,
    deferDelete: (deleteOld: () => Promise<void>) => void,
): Promise<Registered> {
    const providerWire = msg.inputs[PROVIDER_KEY];
    const providerText = unwrapSecrets(providerWire);
    if (typeof providerText !== "string" || !providerText) {
        throw new Error(`${msg.urn}: the dynamic resource has no serialized provider in __provider`);
    }
    const inputs: JsonObject = { ...msg.inputs };
    delete inputs[PROVIDER_KEY];
    const managedPrev = prev && !prev.external ? prev : undefined;
    if (managedPrev) {
        // ignoreChanges (top-level keys): the old input value is used instead of the program's.
        for (const key of msg.ignoreChanges) {
            if (key in managedPrev.inputs) inputs[key] = managedPrev.inputs[key];
            else delete inputs[key];
        }
    }
    const r = lc.resource(msg.type, msg.name, providerText, inputs, { urn: msg.urn });
    if (managedPrev) r.state = { id: managedPrev.id, inputs: managedPrev.inputs, outputs: managedPrev.outputs };
    const finish = (outputs: JsonObject) => {
        let out = markAdditionalSecrets(outputs, msg.additionalSecretOutputs);
        if (isSecret(providerWire)) out = markSecret(out, PROVIDER_KEY);
        return out;
    };

    if (dryRun) {
        const e = await r.preview();
        slot.entry = e;
        const id = e.op === "create" || e.op === "replace" ? "" : managedPrev!.id;
        const outputs = e.op === "same" ? managedPrev!.outputs : e.outputs ?? {};
        return { id, outputs: finish(outputs) };
    }

    try {
        slot.entry = await r.up(undefined, { deferDelete });
    } finally {
        // Also after a failure: a partially created resource, or the old state of a failed update; no state
        // when a delete-before-replace deleted the old object and the create failed.
        slot.settled = true;
        if (r.state) {
            const inputsState = isSecret(providerWire) ? markSecret(r.state.inputs, PROVIDER_KEY) : r.state.inputs;
            slot.state = stateOf(msg, { id: r.state.id, inputs: inputsState, outputs: finish(r.state.outputs) }, false);
        }
    }
    return { id: slot.state!.id, outputs: slot.state!.outputs };
}

/** ReadResource: the engine reads the object with the given id through the provider (also during preview). */
export async function readStep(
    lc: Lifecycle,
    msg: RegisterMessage,
    slot: Slot,
    prev: StateResource | undefined,
    dryRun: boolean,
): Promise<Registered> {
    await lc.ensureConfigured();
    const id = msg.read!.id;
    const res = await lc.host.read(id, msg.urn, msg.inputs);
    if (!res.id) throw new Error(`${msg.urn}: resource '${id}' does not exist`);
    const outputs = markAdditionalSecrets(annotateSecrets(res.props, msg.inputs), msg.additionalSecretOutputs);
    const inputs = res.inputs ? annotateSecrets(res.inputs, msg.inputs) : msg.inputs;
    const changedFields = prev?.external ? changedKeys(prev.outputs, outputs) : Object.keys(outputs).filter((k) => k !== PROVIDER_KEY).sort();
    slot.entry = { urn: msg.urn, name: msg.name, type: msg.type, op: "read", changedFields };
    if (!dryRun) {
        slot.settled = true;
        slot.state = stateOf(msg, { id: res.id, inputs, outputs }, true);
    }
    return { id: res.id, outputs };
}

/** A state resource of a registration (a read one is external: never updated or deleted, and not protected). */
function stateOf(msg: RegisterMessage, object: { id: string; inputs: JsonObject; outputs: JsonObject }, external: boolean): StateResource {
    return {
        urn: msg.urn, type: msg.type, name: msg.name, parent: msg.parent, ...object,
        dependencies: msg.dependencies, protect: external ? false : msg.protect, retainOnDelete: external ? false : msg.retainOnDelete,
        additionalSecretOutputs: msg.additionalSecretOutputs, external,
    };
}

/** A ManagedResource holding a state resource (for refresh / delete). */
function managedFrom(lc: Lifecycle, s: StateResource): ManagedResource {
    const providerText = unwrapSecrets(s.outputs[PROVIDER_KEY] ?? s.inputs[PROVIDER_KEY]);
    if (typeof providerText !== "string") throw new Error(`${s.urn}: no __provider in the state`);
    const inputs: JsonObject = { ...s.inputs };
    delete inputs[PROVIDER_KEY];
    const r = lc.resource(s.type, s.name, providerText, inputs, { urn: s.urn });
    r.state = { id: s.id, inputs: s.inputs, outputs: s.outputs };
    return r;
}

/** Deletes a resource of the state; a read (external) or retainOnDelete one is only dropped from it. */
export async function deleteResource(lc: Lifecycle, s: StateResource): Promise<PlanEntry> {
    const entry: PlanEntry = { urn: s.urn, name: s.name, type: s.type, op: "delete", changedFields: [] };
    if (s.external || s.retainOnDelete) return { ...entry, retained: true };
    await managedFrom(lc, s).destroy();
    return entry;
}

/**
 * Reads every resource of the state, `parallel` at a time (default all), as the engine's refresh does. The plan
 * lists them in state order. After a failure no new read starts; those in flight finish and are recorded.
 */
export async function refreshAll(lc: Lifecycle, state: ProgramState, plan: ProgramPlan, parallel?: number): Promise<void> {
    const list = [...state.resources];
    const entries: Array<PlanEntry | undefined> = list.map(() => undefined);
    const dropped = new Set<string>();
    try {
        await forEachLimited(list, parallel, async (s, i) => {
            const r = managedFrom(lc, s);
            const e = await r.refresh();
            entries[i] = e;
            if (e.dropped) {
                dropped.add(s.urn);
            } else {
                const st = r.state!;
                Object.assign(s, { id: st.id, inputs: st.inputs, outputs: markAdditionalSecrets(st.outputs, s.additionalSecretOutputs) });
            }
        });
    } finally {
        for (const e of entries) if (e) plan.push(e);
        state.resources = state.resources.filter((x) => !dropped.has(x.urn));
    }
}

/** `pulumi destroy`: every resource, dependents first; refused while any is protected. */
export async function destroyAll(lc: Lifecycle, state: ProgramState, plan: ProgramPlan): Promise<void> {
    const order = topoSort(state.resources).reverse();
    const protectedOnes = order.filter((s) => s.protect);
    if (protectedOnes.length) {
        throw new Error(`cannot delete protected resources: ${protectedOnes.map((s) => s.urn).join(", ")} (remove the protect option and run up first)`);
    }
    for (const s of order) {
        plan.push(await deleteResource(lc, s));
        // Mostly the last one (the order is the state's, reversed): not a filter of the whole state per delete.
        const at = state.resources.lastIndexOf(s);
        if (at >= 0) state.resources.splice(at, 1);
    }
    state.outputs = {};
}

function markSecret(obj: JsonObject, key: string): JsonObject {
    if (!(key in obj) || isSecret(obj[key])) return obj;
    return { ...obj, [key]: secret(obj[key]) };
}

/** The engine marks the outputs named in `additionalSecretOutputs` secret. */
function markAdditionalSecrets(outputs: JsonObject, keys: string[]): JsonObject {
    return keys.reduce((o, k) => markSecret(o, k), outputs);
}

/**
 * Runs `fn` over `items`, at most `limit` at once (default: all). After a failure no new item starts; the ones in
 * flight finish, then the first failure is thrown.
 */
async function forEachLimited<T>(items: T[], limit: number | undefined, fn: (item: T, index: number) => Promise<void>): Promise<void> {
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw new Error(`parallel must be a positive integer, got ${limit}`);
    let next = 0;
    let failure: { error: unknown } | undefined;
    const worker = async () => {
        while (!failure && next < items.length) {
            const i = next++;
            try {
                await fn(items[i]!, i);
            } catch (error) {
                failure ??= { error };
            }
        }
    };
    await Promise.all(Array.from({ length: Math.min(limit ?? items.length, items.length) }, worker));
    if (failure) throw failure.error;
}
