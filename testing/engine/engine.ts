/**
 * The engine's side of a dynamic resource's life cycle, reduced to one resource at a time: which RPCs the Pulumi
 * engine sends for preview / up / refresh / destroy, with which olds and news, and how it records state between
 * steps. Mirrors pkg/resource/deploy/step_generator.go and sdk/go/common/resource/plugin/provider_plugin.go
 * (pulumi/pulumi), as far as one resource without dependents needs:
 *
 * - check(olds = old *inputs*, news); failures fail the step.
 * - diff(id, olds = old *outputs*, news = checked inputs, oldInputs). DIFF_UNKNOWN (provider without diff, or
 *   `changes` left undefined) falls back to comparing old and new inputs, `__provider` included.
 * - replace: Check again with *no* olds, then create-before-delete (or delete first when deleteBeforeReplace).
 * - update(id, olds = old outputs, news = checked inputs); delete(id, props = old outputs).
 * - refresh: read(id, props = old outputs, inputs = old inputs); no id back = the object is gone, drop it. A
 *   resource pending replacement is not read.
 * - preview: the dynamic host answers Configure with supportsPreview=false, so the engine never sends Create or
 *   Update during preview (the host would really run them: it ignores the preview flag). The planned outputs are the
 *   checked inputs, unknowns included.
 * - secrets: sent unwrapped (acceptSecrets=false); outputs whose key held a secret input are re-marked secret.
 */
import { CheckFailedError, initFailureOf } from "./engine-errors";
import type { PlanEntry, PlanOp } from "./plan";
import type { InitFailure, JsonObject, ProviderHost } from "../processes/provider-host";
import { processIgnoreChanges } from "./property-path";
import { chooseStep, refuseProtectedReplace, type Goal } from "./step-choice";
import { annotateSecrets, changedKeys, containsUnknowns } from "./values";

export { secret, isSecret, UNKNOWN, unwrapSecrets, containsUnknowns, SPECIAL_SIG_KEY, SECRET_SIG } from "./values";

export const PROVIDER_KEY = "__provider";

/** `pulumi-nodejs:dynamic/<module>:<type>`, the token dynamic.Resource registers when module and type are given. */
export function dynamicType(module: string, type: string): string {
    return `pulumi-nodejs:dynamic/${module}:${type}`;
}

export function makeUrn(project: string, stack: string, type: string, name: string): string {
    return `urn:pulumi:${stack}::${project}::${type}::${name}`;
}

export interface ResourceState {
    id: string;
    /** Checked inputs as stored in the state (secret-marked where the program marked them). */
    inputs: JsonObject;
    /** Outputs as stored in the state (`__provider` included; secret-marked per the engine's annotateSecrets). */
    outputs: JsonObject;
    /** A create or update that failed with an id (ErrorResourceInitFailed): the provider's reasons (InitErrors). */
    initErrors?: string[];
    /**
     * Deleted by a delete-before-replace whose create then failed: the state keeps the old entry so marked
     * (step.go DeleteStep.Apply sets PendingReplacement), and the next up replaces it without deleting it again.
     */
    pendingReplacement?: boolean;
}

/** The marks a failed step left on an object's state, which its next state carries: init errors, pending replacement. */
export function marksOf(s: Pick<ResourceState, "initErrors" | "pendingReplacement">): { initErrors?: string[]; pendingReplacement?: true } {
    return { ...(s.initErrors?.length ? { initErrors: [...s.initErrors] } : {}), ...(s.pendingReplacement ? { pendingReplacement: true as const } : {}) };
}

/**
 * step.go CreateStep.Apply, UpdateStep.Apply: a partial failure saves the object with the inputs, the outputs the
 * provider gave and its reasons as init errors, so that the next up updates it.
 */
function partialState(id: string, init: InitFailure, checked: JsonObject): ResourceState {
    return { id, inputs: checked, outputs: annotateSecrets(init.properties, checked), initErrors: init.reasons };
}

export interface LifecycleOptions {
    project?: string;
    stack?: string;
    /** Stack config sent with Configure when the host has not been configured yet. */
    config?: Record<string, unknown>;
}

export class Lifecycle {
    readonly project: string;
    readonly stack: string;
    /** Every plan entry, in order. */
    readonly log: PlanEntry[] = [];

    constructor(
        readonly host: ProviderHost,
        private readonly options: LifecycleOptions = {},
    ) {
        this.project = options.project ?? "project";
        this.stack = options.stack ?? "stack";
    }

    /**
     * A resource as `new dynamic.Resource(provider, name, inputs, opts, module, type)` declares it.
     * @param type full type token, e.g. dynamicType("cloudbees", "Application")
     * @param provider the serialized provider text (serializeProvider(...))
     */
    resource(type: string, name: string, provider: string, inputs: JsonObject, opts?: ResourceOptions): ManagedResource {
        return new ManagedResource(this, type, name, provider, inputs, opts);
    }

    /** The engine always configures a provider before its first resource call. */
    async ensureConfigured(): Promise<void> {
        if (!this.host.configureResult) await this.host.configure(this.options.config ?? {});
    }

    record(entry: PlanEntry): PlanEntry {
        this.log.push(entry);
        return entry;
    }
}

export interface ResourceOptions {
    /**
     * The resource's URN when it differs from makeUrn(project, stack, type, name): a resource whose parent is not
     * the stack has the parent's type chain in its URN (`...::parent:Type$child:Type::name`).
     */
    urn?: string;
}

export interface StepOptions {
    /** New serialized provider text (a code change): sent as `__provider` from this step on. */
    provider?: string;
    /**
     * Create-before-delete replacement: hand the delete of the old object to the caller instead of running it at
     * once (the engine runs it at the end of the deployment, after every other step).
     */
    deferDelete?: (deleteOld: () => Promise<void>) => void;
    /**
     * The resource options the step generator acts on (pulumi/pulumi pkg/resource/deploy/step_generator.go,
     * continueStepsFromDiff), with the old state's flags where the engine reads those.
     */
    goal?: Goal;
    /**
     * The program's inputs (without `__provider`): a replacement re-checks these, not the patched ones
     * (step_generator.go continueStepsFromDiff checks `goal.Properties`), nested ignored paths excepted
     * (processIgnoreChanges changes those in place, property-path.ts).
     */
    programInputs?: JsonObject;
    /**
     * A delete-before-replace: runs before the old object is deleted (the deployment deletes first the dependents
     * that would be replaced, step_generator.go calculateDependentReplacements).
     */
    beforeDeleteFirst?: () => Promise<void>;
}

export class ManagedResource {
    readonly urn: string;
    /** Engine state after the last successful step; undefined before create / after delete. */
    state: ResourceState | undefined;
    private desired: JsonObject;
    private providerText: string;

    constructor(
        private readonly lc: Lifecycle,
        readonly type: string,
        readonly name: string,
        provider: string,
        inputs: JsonObject,
        opts?: ResourceOptions,
    ) {
        this.urn = opts?.urn ?? makeUrn(lc.project, lc.stack, type, name);
        this.providerText = provider;
        this.desired = this.withProvider(inputs);
    }

    private get host(): ProviderHost {
        return this.lc.host;
    }

    private entry(op: PlanOp, changedFields: string[]): PlanEntry {
        return { urn: this.urn, name: this.name, type: this.type, op, changedFields };
    }

    /** Like dynamic.Resource: the serialized provider travels as the `__provider` input (and output). */
    private withProvider(inputs: JsonObject): JsonObject {
        if (PROVIDER_KEY in inputs) throw new Error("A dynamic resource must not define the __provider key");
        return { ...inputs, [PROVIDER_KEY]: this.providerText };
    }

    private async check(olds: JsonObject, news: JsonObject): Promise<JsonObject> {
        const res = await this.host.check(this.urn, olds, news);
        if (res.failures.length) throw new CheckFailedError(this.urn, res.failures, news, this.type);
        return annotateSecrets(res.inputs, news);
    }

    /** check + diff against the current state, then the step the step generator chooses (step-choice.ts). */
    private async plan(news: JsonObject, goal: Goal = {}) {
        const st = this.state!;
        const checked = await this.check(st.inputs, news);
        const d = await this.host.diff(st.id, this.urn, st.outputs, checked, { oldInputs: st.inputs });
        // Init errors: the caller's word (ProgramRunner passes the state's), else this resource's own state.
        goal = { ...goal, hasInitErrors: goal.hasInitErrors ?? (st.initErrors?.length ?? 0) > 0 };
        return { checked, ...chooseStep(d, st.inputs, checked, goal, st.pendingReplacement) };
    }

    private setDesired(newInputs: JsonObject | undefined, opts: StepOptions | undefined): JsonObject {
        if (opts?.provider) this.providerText = opts.provider;
        if (newInputs) {
            this.desired = this.withProvider(newInputs);
        } else if (opts?.provider) {
            this.desired = { ...this.desired, [PROVIDER_KEY]: this.providerText };
        }
        return this.desired;
    }

    /**
     * `pulumi preview`: check, then diff (existing) or a planned create. Nothing is created or changed: the host
     * does not support provider previews. Inputs may hold UNKNOWN. Does not change the desired inputs or state.
     */
    async preview(newInputs?: JsonObject, opts?: StepOptions): Promise<PlanEntry> {
        await this.lc.ensureConfigured();
        const news = newInputs ? { ...this.withProvider(newInputs) } : { ...this.desired };
        if (opts?.provider) news[PROVIDER_KEY] = opts.provider;
        if (!this.state) {
            const checked = await this.check({}, news);
            const outputs = await this.previewCreate(checked);
            return this.lc.record({ ...this.entry("create", inputKeys(checked)), outputs });
        }
        const p = await this.plan(news, opts?.goal);
        refuseProtectedReplace(this.urn, p.op, opts?.goal);
        let outputs: JsonObject | undefined;
        if (p.op === "replace") {
            const fresh = opts?.programInputs ? { ...this.withProvider(opts.programInputs), [PROVIDER_KEY]: news[PROVIDER_KEY] } : news;
            outputs = await this.previewCreate(await this.check({}, fresh));
        } else if (p.op === "update") {
            outputs = this.host.configureResult?.supportsPreview
                ? (await this.host.update(this.state.id, this.urn, this.state.outputs, p.checked, { preview: true, oldInputs: this.state.inputs })).outs
                : p.checked;
        }
        return this.lc.record({
            ...this.entry(p.op, p.changedFields),
            ...(p.op !== "same" ? { replaces: p.replaces, deleteBeforeReplace: p.dbr } : {}),
            ...(outputs ? { outputs } : {}),
        });
    }

    private async previewCreate(checked: JsonObject): Promise<JsonObject> {
        // provider_plugin.go: a preview Create against a provider without supportsPreview hands back the inputs.
        if (!this.host.configureResult?.supportsPreview) return checked;
        return annotateSecrets((await this.host.create(this.urn, checked, { preview: true })).outs, checked);
    }

    /** `pulumi up` for this resource: create, update, replace or nothing. */
    async up(newInputs?: JsonObject, opts?: StepOptions): Promise<PlanEntry> {
        await this.lc.ensureConfigured();
        const news = this.setDesired(newInputs, opts);
        if (containsUnknowns(news)) throw new Error(`${this.urn}: unknown values cannot reach an update (only a preview)`);

        if (!this.state) {
            const checked = await this.check({}, news);
            this.state = await this.create(checked);
            return this.lc.record(this.entry("create", inputKeys(checked)));
        }

        const p = await this.plan(news, opts?.goal);
        // Before any step: in an update the engine bails out here, so nothing is created or deleted.
        refuseProtectedReplace(this.urn, p.op, opts?.goal);
        const old = this.state;
        const entry: PlanEntry = this.entry(p.op, p.changedFields);
        if (p.op === "same") {
            // A SameStep keeps the old outputs but records the new inputs.
            this.state = { ...old, inputs: p.checked };
        } else if (p.op === "update") {
            let res;
            try {
                res = await this.host.update(old.id, this.urn, old.outputs, p.checked, { oldInputs: old.inputs });
            } catch (e) {
                // step.go UpdateStep.Apply: a partial failure saves the new inputs, the outputs the provider gave and
                // its reasons as init errors; any other failure keeps the old state.
                const init = initFailureOf(e);
                if (init) this.state = partialState(old.id, init, p.checked);
                throw e;
            }
            this.state = { id: old.id, inputs: p.checked, outputs: annotateSecrets(res.outs, p.checked) };
            entry.replaces = p.replaces;
            entry.deleteBeforeReplace = p.dbr;
        } else {
            // Replacement: the step generator re-runs Check with no olds on the program's inputs, the resource
            // being created anew.
            const checked = await this.check({}, opts?.programInputs ? this.withProvider(opts.programInputs) : news);
            // step.go DeleteStep.Apply: the old object of a replacement is not deleted when the state says
            // retainOnDelete; it is only dropped from the state.
            const retain = opts?.goal?.oldRetainOnDelete === true;
            // The old object is deleted with its own state, so with the provider text it was created by.
            // Pending replacement: already deleted (continueStepsFromDiff emits no delete step for it).
            const deleteOld = async () => {
                if (!retain && !old.pendingReplacement) await this.host.delete(old.id, this.urn, old.outputs, { oldInputs: old.inputs });
            };
            if (p.dbr) {
                if (!old.pendingReplacement) {
                    await opts?.beforeDeleteFirst?.();
                    await deleteOld();
                }
                // Until the create succeeds the state keeps the old entry, marked (a failed create leaves it so).
                this.state = { ...old, pendingReplacement: true };
                this.state = await this.create(checked);
            } else {
                const created = await this.create(checked);
                this.state = created;
                if (opts?.deferDelete) opts.deferDelete(deleteOld);
                else await deleteOld();
            }
            entry.replaces = p.replaces;
            entry.deleteBeforeReplace = p.dbr;
            if (retain) entry.retained = true;
        }
        return this.lc.record(entry);
    }

    private async create(checked: JsonObject): Promise<ResourceState> {
        try {
            const res = await this.host.create(this.urn, checked);
            if (!res.id) throw new Error(`plugin for package 'pulumi-nodejs' returned empty resource.ID from create '${this.urn}'`);
            return { id: res.id, inputs: checked, outputs: annotateSecrets(res.outs, checked) };
        } catch (e) {
            // An error carrying an id: the engine keeps the partially created resource in the state, with its
            // reasons as init errors (step.go CreateStep.Apply), so that the next up updates it.
            const init = initFailureOf(e);
            if (init) this.state = partialState(init.id, init, checked);
            throw e;
        }
    }

    /**
     * `pulumi refresh`: read with the old outputs and inputs; drops the resource when read returns no id.
     *
     * With `judge: "diff"` (what ProgramRunner uses) the refresh's change is judged as the engine judges it (step.go
     * RefreshStep.Apply, since "refresh diffs relative to desired state"): the provider's diff of the refreshed
     * inputs and outputs (as olds) against the old inputs (as news); DIFF_UNKNOWN compares the refreshed and old
     * inputs, ignoreChanges applied; changedFields then lists the output and input keys that differ, and is empty
     * when the diff says nothing changed. By default (`judge: "outputs"`, the engine's legacy mode
     * PULUMI_ENABLE_LEGACY_REFRESH_DIFF, and its rule for an external resource) changedFields lists the output keys
     * the read moved: the unit-level view of what a provider's read returns.
     */
    async refresh(opts: { ignoreChanges?: string[]; judge?: "diff" | "outputs" } = {}): Promise<PlanEntry> {
        await this.lc.ensureConfigured();
        const old = this.state;
        if (!old) throw new Error(`${this.urn}: nothing to refresh (no state)`);
        // Deleted already by a delete-before-replace whose create failed: not read, kept as it is (step.go
        // RefreshStep.Apply: "pending-replace resources never change with a refresh").
        if (old.pendingReplacement) return this.lc.record(this.entry("refresh", []));
        const res = await this.host.read(old.id, this.urn, old.outputs, old.inputs);
        if (!res.id) {
            this.state = undefined;
            return this.lc.record({ ...this.entry("refresh", []), dropped: true });
        }
        const outputs = annotateSecrets(res.props, old.outputs);
        const inputs = res.inputs ? annotateSecrets(res.inputs, old.inputs) : old.inputs;
        this.state = { id: res.id, inputs, outputs, ...marksOf(old) };
        const outputKeys = changedKeys(old.outputs, outputs);
        if (opts.judge !== "diff") return this.lc.record(this.entry("refresh", outputKeys));
        const d = await this.host.diff(res.id, this.urn, outputs, old.inputs, { oldInputs: inputs });
        let changes = d.changes;
        if (changes === undefined) changes = changedKeys(inputs, processIgnoreChanges(structuredClone(old.inputs), inputs, opts.ignoreChanges ?? []).inputs).length > 0;
        const keys = [...new Set([...outputKeys, ...changedKeys(old.inputs, inputs)])].filter((k) => k !== PROVIDER_KEY).sort();
        // A change the diff reports where no key differs (a provider's own judgement) still counts: name the diff.
        return this.lc.record(this.entry("refresh", !changes ? [] : keys.length ? keys : ["(provider diff)"]));
    }

    /** `pulumi destroy` for this resource. */
    async destroy(): Promise<PlanEntry> {
        await this.lc.ensureConfigured();
        const old = this.state;
        if (!old) throw new Error(`${this.urn}: nothing to destroy (no state)`);
        await this.host.delete(old.id, this.urn, old.outputs, { oldInputs: old.inputs });
        this.state = undefined;
        return this.lc.record(this.entry("delete", []));
    }
}

function inputKeys(inputs: JsonObject): string[] {
    return Object.keys(inputs).filter((k) => k !== PROVIDER_KEY).sort();
}
