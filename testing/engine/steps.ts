/**
 * The engine's steps over the state, each through `Lifecycle`/`ManagedResource` (engine.ts) and a provider host:
 * register (check -> create, or check -> diff -> update / replace / same), read (`get`), refresh, delete, destroy.
 *
 * Secrets: the program's secret inputs arrive as the engine receives them (wire form, secret wrappers where the
 * program put them, nested ones included), are kept wrapped in the state, are sent to the host unwrapped (it answers
 * Configure with acceptSecrets=false), and outputs are re-marked by key (plus `additionalSecretOutputs`) before they
 * go back to the program.
 */
import { marksOf, type Lifecycle, type ManagedResource, PROVIDER_KEY } from "./engine";
import { ProtectedError, stepFailed, throwIfRefused } from "./engine-errors";
import { invalidPathsMessage, processIgnoreChanges } from "./property-path";
import type { PlanEntry, ProgramPlan } from "./plan";
import type { RegisterMessage } from "../processes/program-protocol";
import type { JsonObject } from "../processes/provider-host";
import { clone, scheduleDeletes, type DeleteOutcome, type ProgramState, type StateResource } from "./state";
import type { Goal } from "./step-choice";
import { annotateSecrets, changedKeys, isSecret, secret, unwrapSecrets } from "./values";

/** One registration of a deployment: its plan entry and the state its step left. */
export interface Slot {
    msg: RegisterMessage;
    entry?: PlanEntry;
    /** The step ran (successfully or not) and `state` is what it left; otherwise the old state stands. */
    settled: boolean;
    state?: StateResource;
    /** The old state the step started from (found by URN or by an alias). */
    prev?: StateResource;
    /** The engine's info messages about the registration (ignoreChanges paths it could not reset). */
    info?: string[];
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
    /** preview: takes an error that fails the preview once every step has been planned. */
    previewError?: (e: Error) => void,
    /** up: deletes the dependents a delete-before-replace of `root` would replace, before `root` is deleted. */
    deleteDependentsFirst?: (root: StateResource) => Promise<void>,
): Promise<Registered> {
    const providerWire = msg.inputs[PROVIDER_KEY];
    const providerText = unwrapSecrets(providerWire);
    if (typeof providerText !== "string" || !providerText) {
        throw new Error(`${msg.urn}: the dynamic resource has no serialized provider in __provider`);
    }
    // The program's inputs (a copy: ignoreChanges changes their nested values, as in the engine).
    const programInputs = clone(msg.inputs);
    delete programInputs[PROVIDER_KEY];
    const managedPrev = prev && !prev.external ? prev : undefined;
    let patched = programInputs;
    if (managedPrev) {
        // ignoreChanges: the old value at each path (nested ones too) stands for the program's, before Check
        // (step_generator.go generateSteps -> processIgnoreChanges).
        const ignored = processIgnoreChanges(programInputs, managedPrev.inputs, msg.ignoreChanges);
        patched = ignored.inputs;
        delete patched[PROVIDER_KEY];
        if (ignored.invalid.length) slot.info = [...(slot.info ?? []), invalidPathsMessage(ignored.invalid)];
    }
    const r = lc.resource(msg.type, msg.name, providerText, patched, { urn: msg.urn });
    if (managedPrev) {
        r.state = { id: managedPrev.id, inputs: managedPrev.inputs, outputs: managedPrev.outputs, ...marksOf(managedPrev) };
    }
    const goal: Goal = {
        protect: msg.protect,
        oldProtect: managedPrev?.protect ?? false,
        oldRetainOnDelete: managedPrev?.retainOnDelete ?? false,
        deleteBeforeReplace: msg.deleteBeforeReplace,
        replaceOnChanges: msg.replaceOnChanges ?? [],
        hasInitErrors: (managedPrev?.initErrors?.length ?? 0) > 0,
    };
    const finish = (outputs: JsonObject) => {
        let out = markAdditionalSecrets(outputs, msg.additionalSecretOutputs);
        if (isSecret(providerWire)) out = markSecret(out, PROVIDER_KEY);
        return out;
    };

    if (dryRun) {
        let e: PlanEntry;
        try {
            e = await r.preview(undefined, { goal, programInputs });
        } catch (err) {
            // A preview shows the whole plan and fails at the end (the step generator only marks the error).
            if (!(err instanceof ProtectedError) || !previewError) throw err;
            previewError(err);
            e = await r.preview(undefined, { goal: { ...goal, protect: false }, programInputs });
        }
        slot.entry = e;
        const id = e.op === "create" || e.op === "replace" ? "" : managedPrev!.id;
        const outputs = e.op === "same" ? managedPrev!.outputs : e.outputs ?? {};
        return { id, outputs: finish(outputs) };
    }

    const before = r.state;
    let failed = true;
    try {
        const beforeDeleteFirst = managedPrev && deleteDependentsFirst ? () => deleteDependentsFirst(managedPrev) : undefined;
        slot.entry = await r.up(undefined, { deferDelete, goal, programInputs, beforeDeleteFirst });
        failed = false;
    } finally {
        // Also after a failure: a partially created resource, or the old entry pending replacement when a
        // delete-before-replace deleted the old object and the create failed. A step that failed without changing
        // the object leaves its old state as it was: its flags, and its old URN when an alias found it.
        slot.settled = true;
        if (failed && managedPrev && r.state === before) {
            slot.state = managedPrev;
        } else if (r.state) {
            const inputsState = isSecret(providerWire) ? markSecret(r.state.inputs, PROVIDER_KEY) : r.state.inputs;
            slot.state = stateOf(msg, { id: r.state.id, inputs: inputsState, outputs: finish(r.state.outputs), ...marksOf(r.state) }, false);
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
    // step.go ReadStep.Apply; a preview reports its failed step as such (GetPreviewFailedError).
    if (!res.id) throw new Error(`${msg.urn}: ${dryRun ? "Preview failed: " : ""}resource '${id}' does not exist`);
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
function stateOf(
    msg: RegisterMessage,
    object: { id: string; inputs: JsonObject; outputs: JsonObject; initErrors?: string[]; pendingReplacement?: true },
    external: boolean,
): StateResource {
    return {
        urn: msg.urn, type: msg.type, name: msg.name, parent: msg.parent, ...object,
        dependencies: msg.dependencies, protect: external ? false : msg.protect, retainOnDelete: external ? false : msg.retainOnDelete,
        additionalSecretOutputs: msg.additionalSecretOutputs, external,
        ...(msg.ignoreChanges.length && !external ? { ignoreChanges: msg.ignoreChanges } : {}),
        ...(msg.deletedWith && !external ? { deletedWith: msg.deletedWith } : {}),
        ...(msg.propertyDependencies && Object.keys(msg.propertyDependencies).length && !external ? { propertyDependencies: msg.propertyDependencies } : {}),
    };
}

/** A ManagedResource holding a state resource (for refresh / delete). */
function managedFrom(lc: Lifecycle, s: StateResource): ManagedResource {
    const providerText = unwrapSecrets(s.outputs[PROVIDER_KEY] ?? s.inputs[PROVIDER_KEY]);
    if (typeof providerText !== "string") throw new Error(`${s.urn}: no __provider in the state`);
    const inputs: JsonObject = { ...s.inputs };
    delete inputs[PROVIDER_KEY];
    const r = lc.resource(s.type, s.name, providerText, inputs, { urn: s.urn });
    r.state = { id: s.id, inputs: s.inputs, outputs: s.outputs, ...marksOf(s) };
    return r;
}

/**
 * Deletes a resource of the state; a read (external) or retainOnDelete one is only dropped from it, and so is one
 * whose `deletedWith` resource is deleted in the same deployment (`deleting`: their URNs), as step.go
 * DeleteStep.Apply does (isDeletedWith).
 */
export async function deleteResource(lc: Lifecycle, s: StateResource, deleting: Set<string> = new Set()): Promise<PlanEntry> {
    const entry: PlanEntry = { urn: s.urn, name: s.name, type: s.type, op: "delete", changedFields: [] };
    if (s.external || s.retainOnDelete) return { ...entry, retained: true };
    if (s.deletedWith && deleting.has(s.deletedWith)) return { ...entry, deletedWith: s.deletedWith };
    // Already deleted by a delete-before-replace whose create failed: only dropped (RemovePendingReplaceStep).
    if (s.pendingReplacement) return entry;
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
    const dropped = new Set<StateResource>();
    try {
        await forEachLimited(list, parallel, async (s, i) => {
            const r = managedFrom(lc, s);
            // The engine judges a refresh by the provider's diff, an external resource by its outputs.
            const e = await r.refresh({ ignoreChanges: s.ignoreChanges, judge: s.external ? "outputs" : "diff" }).catch((err: unknown) => {
                throw stepFailed(s.urn, err);
            });
            entries[i] = e;
            if (e.dropped) {
                dropped.add(s);
            } else {
                const st = r.state!;
                Object.assign(s, { id: st.id, inputs: st.inputs, outputs: markAdditionalSecrets(st.outputs, s.additionalSecretOutputs) });
            }
        });
    } finally {
        for (const e of entries) if (e) plan.push(e);
        state.resources = state.resources.filter((x) => !dropped.has(x));
    }
}

/**
 * `pulumi destroy`: every resource, dependents first. A protected one is refused (step.go DeleteStep.Apply) and
 * stays with what it depends on; the others are deleted, then the destroy fails naming every protected one.
 */
export async function destroyAll(lc: Lifecycle, state: ProgramState, plan: ProgramPlan): Promise<void> {
    const refused: ProtectedError[] = [];
    const deleting = new Set(state.resources.map((s) => s.urn));
    const run = async (s: StateResource): Promise<DeleteOutcome<PlanEntry>> => {
        // A pending delete is the old half of a replacement: never protected (DeleteReplacementStep).
        if (s.protect && !s.delete) {
            refused.push(new ProtectedError(s.urn, "delete"));
            return { kept: true };
        }
        const entry = await deleteResource(lc, s, deleting).catch((e: unknown) => {
            throw stepFailed(s.urn, e);
        });
        // Mostly near the end (deletes go in the state's order, reversed): not a filter of the whole state per delete.
        const at = state.resources.lastIndexOf(s);
        if (at >= 0) state.resources.splice(at, 1);
        return { entry };
    };
    await scheduleDeletes([...state.resources], run, (e) => plan.push(e));
    throwIfRefused(refused);
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
