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
 * - refresh: read(id, props = old outputs, inputs = old inputs); no id back = the object is gone, drop it.
 * - preview: the dynamic host answers Configure with supportsPreview=false, so the engine never sends Create or
 *   Update during preview (the host would really run them: it ignores the preview flag). The planned outputs are the
 *   checked inputs, unknowns included.
 * - secrets: sent unwrapped (acceptSecrets=false); outputs whose key held a secret input are re-marked secret.
 */
import type { PlanEntry, PlanOp } from "./plan";
import type { CheckFailure, JsonObject, ProviderHost } from "./provider-host";
import { changedKeys, containsSecrets, containsUnknowns, isSecret, secret, UNKNOWN } from "./values";

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
}

export class CheckFailedError extends Error {
    constructor(
        readonly urn: string,
        readonly failures: CheckFailure[],
    ) {
        super(`resource ${urn} has check errors: ${failures.map((f) => `${f.property || "(resource)"}: ${f.reason}`).join("; ")}`);
        this.name = "CheckFailedError";
    }
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
        if (res.failures.length) throw new CheckFailedError(this.urn, res.failures);
        return annotateSecrets(res.inputs, news);
    }

    /** check + diff against the current state, as the step generator does before choosing a step. */
    private async plan(news: JsonObject) {
        const st = this.state!;
        const checked = await this.check(st.inputs, news);
        const d = await this.host.diff(st.id, this.urn, st.outputs, checked, { oldInputs: st.inputs });
        const inputDiff = changedKeys(st.inputs, checked);
        let changes = d.changes;
        // DIFF_UNKNOWN: the engine decides by comparing old and new inputs itself.
        if (changes === undefined) changes = inputDiff.length > 0;
        const op: PlanOp = !changes ? "same" : d.replaces.length ? "replace" : "update";
        return { checked, op, changedFields: op === "same" ? [] : inputDiff, replaces: d.replaces, dbr: d.deleteBeforeReplace };
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
        const p = await this.plan(news);
        let outputs: JsonObject | undefined;
        if (p.op === "replace") {
            outputs = await this.previewCreate(await this.check({}, news));
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

        const p = await this.plan(news);
        const old = this.state;
        const entry: PlanEntry = this.entry(p.op, p.changedFields);
        if (p.op === "same") {
            // A SameStep keeps the old outputs but records the new inputs.
            this.state = { ...old, inputs: p.checked };
        } else if (p.op === "update") {
            const res = await this.host.update(old.id, this.urn, old.outputs, p.checked, { oldInputs: old.inputs });
            this.state = { id: old.id, inputs: p.checked, outputs: annotateSecrets(res.outs, p.checked) };
            entry.replaces = p.replaces;
            entry.deleteBeforeReplace = p.dbr;
        } else {
            // Replacement: the step generator re-runs Check with no olds, the resource being created anew.
            const checked = await this.check({}, news);
            if (p.dbr) {
                await this.host.delete(old.id, this.urn, old.outputs, { oldInputs: old.inputs });
                this.state = undefined;
                this.state = await this.create(checked);
            } else {
                const created = await this.create(checked);
                this.state = created;
                // The old object is deleted with its own state, so with the provider text it was created by.
                const deleteOld = async () => {
                    await this.host.delete(old.id, this.urn, old.outputs, { oldInputs: old.inputs });
                };
                if (opts?.deferDelete) opts.deferDelete(deleteOld);
                else await deleteOld();
            }
            entry.replaces = p.replaces;
            entry.deleteBeforeReplace = p.dbr;
        }
        return this.lc.record(entry);
    }

    private async create(checked: JsonObject): Promise<ResourceState> {
        try {
            const res = await this.host.create(this.urn, checked);
            if (!res.id) throw new Error(`plugin for package 'pulumi-nodejs' returned empty resource.ID from create '${this.urn}'`);
            return { id: res.id, inputs: checked, outputs: annotateSecrets(res.outs, checked) };
        } catch (e) {
            // An error carrying an id: the engine keeps the partially created resource in the state.
            const init = (e as { initFailure?: { id: string; properties: JsonObject } }).initFailure;
            if (init?.id) {
                this.state = { id: init.id, inputs: checked, outputs: annotateSecrets(init.properties, checked) };
            }
            throw e;
        }
    }

    /** `pulumi refresh`: read with the old outputs and inputs; drops the resource when read returns no id. */
    async refresh(): Promise<PlanEntry> {
        await this.lc.ensureConfigured();
        const old = this.state;
        if (!old) throw new Error(`${this.urn}: nothing to refresh (no state)`);
        const res = await this.host.read(old.id, this.urn, old.outputs, old.inputs);
        if (!res.id) {
            this.state = undefined;
            return this.lc.record({ ...this.entry("refresh", []), dropped: true });
        }
        const outputs = annotateSecrets(res.props, old.outputs);
        const inputs = res.inputs ? annotateSecrets(res.inputs, old.inputs) : old.inputs;
        this.state = { id: res.id, inputs, outputs };
        return this.lc.record(this.entry("refresh", changedKeys(old.outputs, outputs)));
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

/**
 * provider_plugin.go annotateSecrets: for a provider that cannot take secrets, an output whose key held a secret
 * input is marked secret again (recursing where both sides are objects). Returns a new object.
 */
export function annotateSecrets(outs: JsonObject, ins: JsonObject): JsonObject {
    const result: JsonObject = { ...outs };
    for (const [key, inValue] of Object.entries(ins)) {
        if (!(key in result)) continue;
        const outValue = result[key];
        if (isObject(outValue) && !isSecret(outValue) && isObject(inValue) && !isSecret(inValue)) {
            result[key] = annotateSecrets(outValue, inValue);
        } else if (!isSecret(outValue) && containsSecrets(inValue)) {
            result[key] = secret(outValue);
        }
    }
    return result;
}

function isObject(v: unknown): v is JsonObject {
    return typeof v === "object" && v !== null && !Array.isArray(v);
}
