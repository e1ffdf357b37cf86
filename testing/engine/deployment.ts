/**
 * One `pulumi up` or `pulumi preview` after the program started: its registrations as they arrive (each a step,
 * steps.ts), then, as the engine does at the end of a deployment, the deletes of the resources the program no
 * longer declares together with the delete halves of create-before-delete replacements, in reverse dependency
 * order; then the state the engine saves, also after a failure.
 */
import { aliasUrns, type AliasContext } from "./aliases";
import type { Lifecycle } from "./engine";
import { ProtectedError, protectedDependentError, stepFailed, throwIfRefused } from "./engine-errors";
import type { PlanEntry, ProgramPlan } from "./plan";
import type { JsonObject } from "../processes/provider-host";
import { UNKNOWN } from "./values";
import type { ComponentMessage, RegisterMessage } from "../processes/program-protocol";
import { scheduleDeletes, topoSort, type DeleteOutcome, type StateResource } from "./state";
import { deleteResource, readStep, registerStep, type Registered, type Slot } from "./steps";

export class Deployment {
    /** Registrations in arrival order (a topological order: a resource registers after its dependencies). */
    private readonly slots: Slot[] = [];
    private readonly seen = new Set<string>();
    /** URNs whose provider step is running. */
    private readonly running = new Set<string>();
    /** Deletes of the old objects of create-before-delete replacements, run at the end (removed once done). */
    private readonly deleteOld = new Map<StateResource, () => Promise<void>>();
    private readonly deletes: PlanEntry[] = [];
    /** The first step that failed: later registrations are refused. */
    failure: Error | undefined;
    /** The previous state's resources by URN (those deleted at the end are removed). */
    private readonly old: Map<string, StateResource>;
    /** Old URNs a registration claimed through an alias -> its URN now (the old resource is that one: no delete). */
    private readonly claimed = new Map<string, string>();
    /** URN now -> the old URNs it is known by (a matched alias; a component's aliases): its children inherit them. */
    private readonly knownAs = new Map<string, string[]>();
    /** Old objects of replacements left pending deletion by an earlier up: deleted at the end of this one. */
    private readonly pending: StateResource[];
    /** preview: errors the engine reports at the end, after planning every step (a protected replacement). */
    readonly previewErrors: Error[] = [];

    constructor(
        private readonly kind: "up" | "preview",
        private readonly lc: Promise<Lifecycle>,
        previous: StateResource[],
        private readonly names: { project: string; stack: string } = { project: "project", stack: "stack" },
    ) {
        this.old = new Map(previous.filter((s) => !s.delete).map((s) => [s.urn, s]));
        this.pending = previous.filter((s) => s.delete);
    }

    private get aliasContext(): AliasContext {
        return { ...this.names, parentAliases: (urn) => this.knownAs.get(urn) ?? [] };
    }

    /** A component of the program (not in the state): the old URNs its aliases give it, for its children. */
    component(msg: ComponentMessage): void {
        const urns = aliasUrns(this.aliasContext, msg);
        if (urns.length) this.knownAs.set(msg.urn, urns);
    }

    /**
     * The old state of a registration: by its URN, else by its aliases in order (step_generator.go generateSteps:
     * "Check the URN first, then aliases"). An old resource found by an alias is the same resource: it takes the
     * new URN and is not deleted.
     */
    private previousOf(msg: RegisterMessage): StateResource | undefined {
        const own = this.old.get(msg.urn);
        if (own && !this.claimed.has(msg.urn)) return own;
        for (const alias of aliasUrns(this.aliasContext, { ...msg, aliases: msg.aliases ?? [] })) {
            const old = this.old.get(alias);
            if (!old || alias === msg.urn) continue;
            if (this.seen.has(alias)) {
                throw new Error(`Duplicate resource alias '${alias}' applied to resource with URN '${msg.urn}' conflicting with resource with URN '${alias}'`);
            }
            const other = this.claimed.get(alias);
            if (other) throw new Error(`Duplicate resource alias '${alias}' applied to resource with URN '${msg.urn}' conflicting with resource with URN '${other}'`);
            this.claimed.set(alias, msg.urn);
            this.knownAs.set(msg.urn, [alias]);
            return old;
        }
        return undefined;
    }

    private get dryRun(): boolean {
        return this.kind === "preview";
    }

    /** A RegisterResource or ReadResource of the program: its step, with the previous state of its URN. */
    async register(msg: RegisterMessage): Promise<Registered> {
        const failure = this.failure;
        if (failure) throw new Error(`not started: the ${this.kind} has already failed (${failure.message.split("\n")[0]})`);
        if (this.seen.has(msg.urn)) throw new Error(`Duplicate resource URN '${msg.urn}'; try giving it a unique name`);
        if (this.claimed.has(msg.urn)) {
            throw new Error(`Duplicate resource URN '${msg.urn}': another resource claims it as an alias (${this.claimed.get(msg.urn)})`);
        }
        this.seen.add(msg.urn);
        const slot: Slot = { msg, settled: false };
        this.slots.push(slot);
        this.running.add(msg.urn);
        try {
            const lc = await this.lc;
            const prev = msg.read ? this.old.get(msg.urn) : this.previousOf(msg);
            slot.prev = prev;
            if (msg.read) return await readStep(lc, msg, slot, prev, this.dryRun);
            const deferDelete = (run: () => Promise<void>) => this.deleteOld.set(prev!, run);
            return await registerStep(lc, msg, slot, prev, this.dryRun, deferDelete, (e) => this.previewErrors.push(e), (root) => this.deleteDependentsFirst(root));
        } catch (e) {
            // The program's registration fails with the engine's words for it.
            const failed = stepFailed(msg.urn, e);
            this.failure ??= failed;
            throw failed;
        } finally {
            this.running.delete(msg.urn);
        }
    }

    /**
     * step_generator.go calculateDependentReplacements, for a delete-before-replace of `root`: each resource of the
     * old state that depends on it (directly or not, by dependencies, property dependencies or deletedWith) and has
     * not registered yet is diffed with the inputs that came from a replaced resource made unknown; those the
     * provider's diff replaces are deleted first, dependents first, and stay in the state pending replacement until
     * they register again. A protected one refuses the whole replacement, before any delete.
     */
    private async deleteDependentsFirst(root: StateResource): Promise<void> {
        const lc = await this.lc;
        const dependsOn = (s: StateResource, urn: string) =>
            s.dependencies.includes(urn) || s.deletedWith === urn || Object.values(s.propertyDependencies ?? {}).some((urns) => urns.includes(urn));
        const reach = new Set([root.urn]);
        const dependents: StateResource[] = [];
        for (const s of topoSort([...this.old.values()].filter((x) => x !== root && !this.seen.has(x.urn)))) {
            if ([...reach].some((u) => dependsOn(s, u))) {
                reach.add(s.urn);
                dependents.push(s);
            }
        }
        const replaceSet = new Set([root.urn]);
        const toReplace: StateResource[] = [];
        for (const d of dependents) {
            if (d.external || d.pendingReplacement) continue;
            const inputs: JsonObject = { ...d.inputs };
            let affected = false;
            for (const [key, urns] of Object.entries(d.propertyDependencies ?? {})) {
                if (key in inputs && urns.some((u) => replaceSet.has(u))) {
                    inputs[key] = UNKNOWN;
                    affected = true;
                }
            }
            if (!affected) continue;
            const diff = await lc.host.diff(d.id, d.urn, d.outputs, inputs, { oldInputs: d.inputs });
            if (diff.replaces.length) {
                toReplace.push(d);
                replaceSet.add(d.urn);
            }
        }
        const guarded = toReplace.find((d) => d.protect);
        if (guarded) throw protectedDependentError(guarded.urn, root.urn);
        for (const d of toReplace.reverse()) {
            await deleteResource(lc, d);
            // DeleteStep.Apply marks it pending replacement: its next registration creates it again, without a delete.
            this.old.set(d.urn, { ...d, pendingReplacement: true });
        }
    }

    /** Why the program has not finished: the provider steps still running, or none. */
    stuck(program: string, timeoutMs: number): string {
        return (
            `pulumi ${this.kind} of ${program} did not finish within ${timeoutMs} ms. ` +
            (this.running.size
                ? `Provider steps still running: ${[...this.running].join(", ")}.`
                : `No provider step was running (${this.slots.length} registered): the program itself is stuck, e.g. on an ` +
                  `Output that never resolves, or on a dynamic provider the SDK could not serialize (under mocks that ` +
                  `error may never surface; check the provider with serializeProvider()).`)
        );
    }

    /**
     * After the program finished: the resources of the previous state it did not declare are deleted (`up`) or
     * shown as deletes (`preview`), with the old objects of replacements, dependents first.
     */
    async deleteDropped(): Promise<void> {
        const dropped = [...this.old.values()].filter((s) => !this.seen.has(s.urn) && !this.claimed.has(s.urn));
        if (this.dryRun) {
            for (const s of topoSort([...dropped, ...this.pending]).reverse()) {
                this.deletes.push({ urn: s.urn, name: s.name, type: s.type, op: "delete", changedFields: [] });
                // step.go DeleteStep.Apply checks protect before the preview check: the preview fails too.
                if (s.protect && !s.delete) this.previewErrors.push(new ProtectedError(s.urn, "delete", true));
            }
            return;
        }
        const refused: ProtectedError[] = [];
        const lc = await this.lc;
        // The old objects of replacements go with the dropped resources, dependents first (by the old
        // dependencies); their URNs are registered again, so they cannot clash with a dropped one's.
        // Pending deletes of an earlier up go with them (step_generator.go GenerateDeletes: `res.Delete` ->
        // DeleteReplacementStep, no protect check); one that fails again stays pending.
        const deleting = new Set([...dropped, ...this.pending].map((s) => s.urn));
        const run = async (s: StateResource): Promise<DeleteOutcome<PlanEntry>> => {
            const deleteOld = this.deleteOld.get(s);
            const failed = (e: unknown) => {
                throw stepFailed(s.urn, e);
            };
            if (deleteOld) {
                await deleteOld().catch(failed);
                this.deleteOld.delete(s);
                return {};
            }
            if (s.delete) {
                const entry = await deleteResource(lc, s, deleting).catch(failed);
                this.pending.splice(this.pending.indexOf(s), 1);
                return { entry };
            }
            // Refused (throwIfRefused); what it depends on stays.
            if (s.protect) {
                refused.push(new ProtectedError(s.urn, "delete"));
                return { kept: true };
            }
            const entry = await deleteResource(lc, s, deleting).catch(failed);
            this.old.delete(s.urn);
            return { entry };
        };
        await scheduleDeletes([...dropped, ...this.deleteOld.keys(), ...this.pending], run, (e) => this.deletes.push(e));
        throwIfRefused(refused);
    }

    /**
     * What the engine saves, also after a failure: the registered resources as their steps left them (a step that
     * never ran keeps the old state), then the previous ones neither declared nor deleted.
     */
    nextState(): StateResource[] {
        const next: StateResource[] = [];
        const carried = new Set<StateResource>();
        for (const slot of this.slots) {
            const s = slot.settled ? slot.state : slot.prev;
            if (s) next.push(s);
            if (!slot.settled && slot.prev) carried.add(slot.prev);
        }
        for (const [urn, s] of this.old) if (!this.seen.has(urn) && !this.claimed.has(urn) && !carried.has(s)) next.push(s);
        // The old halves of replacements not deleted (a failed delete, or a deployment that failed first) stay in the
        // state marked for deletion, as the engine marks them when the new object is created (CreateStep.Apply).
        for (const s of this.deleteOld.keys()) next.push({ ...s, delete: true });
        next.push(...this.pending);
        // A resource found by its alias has its new URN: references to the old one follow (as the snapshot does).
        const rename = (u: string) => (this.claimed.has(u) ? this.claimed.get(u)! : u);
        const renamed = next.map((s) => (carried.has(s) || this.old.get(s.urn) === s || s.delete ? { ...s, parent: rename(s.parent), dependencies: s.dependencies.map(rename) } : s));
        return topoSort(renamed);
    }

    /** The engine's info messages of the registrations, a line each (the CLI shows them with the program's output). */
    infoText(): string {
        return this.slots.flatMap((s) => s.info ?? []).map((m) => `${m}\n`).join("");
    }

    /** The registrations' entries, then the deletes. */
    plan(): ProgramPlan {
        return [...this.slots.filter((s) => s.entry).map((s) => s.entry!), ...this.deletes];
    }
}
