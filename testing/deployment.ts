/**
 * One `pulumi up` or `pulumi preview` after the program started: its registrations as they arrive (each a step,
 * steps.ts), then, as the engine does at the end of a deployment, the deletes of the resources the program no
 * longer declares together with the delete halves of create-before-delete replacements, in reverse dependency
 * order; then the state the engine saves, also after a failure.
 */
import type { Lifecycle } from "./engine";
import type { PlanEntry, ProgramPlan } from "./plan";
import type { RegisterMessage } from "./program-protocol";
import { topoSort, type StateResource } from "./state";
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

    constructor(
        private readonly kind: "up" | "preview",
        private readonly lc: Promise<Lifecycle>,
        previous: StateResource[],
    ) {
        this.old = new Map(previous.map((s) => [s.urn, s]));
    }

    private get dryRun(): boolean {
        return this.kind === "preview";
    }

    /** A RegisterResource or ReadResource of the program: its step, with the previous state of its URN. */
    async register(msg: RegisterMessage): Promise<Registered> {
        const failure = this.failure;
        if (failure) throw new Error(`not started: the ${this.kind} has already failed (${failure.message.split("\n")[0]})`);
        if (this.seen.has(msg.urn)) throw new Error(`Duplicate resource URN '${msg.urn}'; try giving it a unique name`);
        this.seen.add(msg.urn);
        const slot: Slot = { msg, settled: false };
        this.slots.push(slot);
        this.running.add(msg.urn);
        try {
            const lc = await this.lc;
            const prev = this.old.get(msg.urn);
            if (msg.read) return await readStep(lc, msg, slot, prev, this.dryRun);
            const deferDelete = (run: () => Promise<void>) => this.deleteOld.set(prev!, run);
            return await registerStep(lc, msg, slot, prev, this.dryRun, deferDelete);
        } catch (e) {
            const text = (e as Error).message ?? String(e);
            this.failure ??= new Error(text.includes(msg.urn) ? text : `${msg.urn}: ${text}`);
            throw e;
        } finally {
            this.running.delete(msg.urn);
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
        const dropped = [...this.old.values()].filter((s) => !this.seen.has(s.urn));
        if (this.dryRun) {
            for (const s of topoSort(dropped).reverse()) this.deletes.push({ urn: s.urn, name: s.name, type: s.type, op: "delete", changedFields: [] });
            return;
        }
        const lc = await this.lc;
        // The old objects of replacements go with the dropped resources, dependents first (by the old
        // dependencies); their URNs are registered again, so they cannot clash with a dropped one's.
        for (const s of topoSort([...dropped, ...this.deleteOld.keys()]).reverse()) {
            const run = this.deleteOld.get(s);
            if (run) {
                await run().catch((e: unknown) => {
                    throw new Error(`deleting the replaced object ${s.id} of ${s.urn} failed: ${(e as Error).message ?? e}`);
                });
                this.deleteOld.delete(s);
                continue;
            }
            if (s.protect) throw new Error(`unable to delete resource ${s.urn}: it is protected (remove the protect option and run up first)`);
            this.deletes.push(await deleteResource(lc, s));
            this.old.delete(s.urn);
        }
    }

    /** The error to report: with the old objects of replacements that were not deleted, when there are any. */
    withUndeleted(error: unknown): unknown {
        const left = [...this.deleteOld.keys()].map((old) => `${old.id} (${old.urn})`);
        if (!error || !left.length) return error;
        return new Error(`${(error as Error).message ?? error}\n(the old objects of replacements were not deleted: ${left.join(", ")}; delete them by hand)`);
    }

    /**
     * What the engine saves, also after a failure: the registered resources as their steps left them (a step that
     * never ran keeps the old state), then the previous ones neither declared nor deleted.
     */
    nextState(): StateResource[] {
        const next: StateResource[] = [];
        for (const slot of this.slots) {
            const s = slot.settled ? slot.state : this.old.get(slot.msg.urn);
            if (s) next.push(s);
        }
        for (const [urn, s] of this.old) if (!this.seen.has(urn)) next.push(s);
        return topoSort(next);
    }

    /** The registrations' entries, then the deletes. */
    plan(): ProgramPlan {
        return [...this.slots.filter((s) => s.entry).map((s) => s.entry!), ...this.deletes];
    }
}
