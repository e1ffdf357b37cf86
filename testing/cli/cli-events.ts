/**
 * The real engine's event stream (Automation API `onEvent`, the CLI's `--event-log`) read as the kit's plan and step
 * record: one plan entry per resource step in the order the steps finished, the providers' warnings, and what the
 * program and the provider plugins printed. Dynamic providers return no detailed diff, so, as the CLI's display
 * does, the changed fields are the top-level keys whose values differ (inputs for an update or replace, outputs
 * for a refresh).
 */
import type { EngineEvent, StepEventMetadata, StepEventStateMetadata } from "@pulumi/pulumi/automation";
import type { PlanEntry, PlanOp, ProgramPlan } from "../engine/plan";
import type { StateResource } from "../engine/state";
import { changedKeys } from "../engine/values";

const PROVIDER_KEY = "__provider";

/** What one command's events say, gathered as they arrive. */
export class EventRecorder {
    private readonly entries: ProgramPlan = [];

    /**
     * `kind`: the command whose events these are; `previous`: the state before it (what the events leave out: a
     * resource's deletedWith, the old objects left pending deletion).
     */
    constructor(
        private readonly kind: "up" | "preview" | "refresh" | "destroy",
        private readonly previous: StateResource[] = [],
    ) {}

    /**
     * The plan so far. A delete of a resource whose deletedWith resource is deleted in the same deployment made no
     * provider call (step.go DeleteStep.Apply, isDeletedWith): its entry names that resource, as the stand-in's does.
     */
    get plan(): ProgramPlan {
        const deleted = new Set(this.entries.filter((e) => e.op === "delete").map((e) => e.urn));
        const owners = new Map(this.previous.filter((r) => !r.delete && r.deletedWith).map((r) => [r.urn, r.deletedWith!]));
        for (const e of this.entries) {
            const owner = e.op === "delete" ? owners.get(e.urn) : undefined;
            if (owner && deleted.has(owner)) e.deletedWith = owner;
        }
        return this.entries;
    }

    /** Program output (stdout of the program, info diagnostics) and provider output (their stderr), as printed. */
    private programText = "";
    private hostText = "";
    private readonly errors: string[] = [];
    /** Per URN, the replacement's halves seen so far (the engine reports a replacement as several steps). */
    private readonly replacing = new Map<string, PlanEntry>();

    readonly onEvent = (event: EngineEvent): void => {
        if (event.diagnosticEvent) {
            const d = event.diagnosticEvent;
            if (d.severity === "error") this.error(d.message.trim(), d.urn);
            else if (d.severity === "info#err" || d.severity === "warning") this.hostText += d.message.replace(/\n+$/, "\n");
            else if (d.severity === "info") this.programText += d.message;
        } else if (event.stdoutEvent) {
            this.programText += event.stdoutEvent.message;
        } else if (event.resOutputsEvent) {
            this.step(event.resOutputsEvent.metadata);
        } else if (event.resOpFailedEvent) {
            this.step(event.resOpFailedEvent.metadata);
        }
    };

    /** The warnings of the step: `warning: ` lines, without the prefix, as the stand-in's StepRecord has them. */
    get hostOutput(): string {
        return this.hostText;
    }

    get programOutput(): string {
        return this.programText;
    }

    /** The engine's error diagnostics, in order, each named by its resource's URN as the stand-in names them. */
    get errorMessages(): string[] {
        return this.errors;
    }

    /**
     * An error diagnostic. The CLI shows a resource's under its name; here the URN leads it (unless the text names
     * it already), as in the stand-in's errors. The deployment's closing "update failed" / "preview failed"
     * (deployment_executor.go reportExecResult, no URN) only repeats "pulumi <kind> failed" and is left out.
     */
    private error(message: string, urn: string | undefined): void {
        if (!urn && /^(update|preview) failed$/.test(message)) return;
        this.errors.push(urn && isResource(urnType(urn)) && !message.includes(urn) ? `${urn}: ${message}` : message);
    }

    private step(m: StepEventMetadata): void {
        if (!isResource(m.type)) return;
        const op = m.op as string;
        // A refresh step's outcome comes as refresh (no change), update (drift) or delete (gone).
        // A `pulumi refresh` judges each resource by the provider's diff: `refresh` when it found none (whatever outputs
        // moved), `update` when it found one. Within an up or preview --refresh the outcome is always `refresh`: the
        // changed outputs tell.
        if (this.refreshing.delete(m.urn)) {
            const gone = op === "delete" || !m.new;
            const judged = this.kind === "refresh" && op !== "update";
            const entry = this.push(m, "refresh", m.new && !judged ? changedKeys(m.old?.outputs ?? {}, m.new.outputs) : []);
            if (gone) entry.dropped = true;
            return;
        }
        // Steps that only drop an entry from the state, as the stand-in's deletes do: the old object of a replacement
        // left pending deletion by an earlier up (GenerateDeletes: a DeleteReplacementStep of a `delete` entry), and
        // one pending replacement that the program dropped (RemovePendingReplaceStep, no provider call).
        if (op === "remove-pending-replace" || (op === "delete-replaced" && !this.replacing.has(m.urn) && this.pendingDelete(m))) {
            this.push(m, "delete", []);
            return;
        }
        if (op === "create-replacement" || op === "delete-replaced" || op === "replace") {
            // One replacement is several steps of one URN: one entry. Delete-first shows its delete before the rest.
            let entry = this.replacing.get(m.urn);
            if (!entry) {
                entry = this.push(m, "replace", changedInputs(m.old, m.new));
                entry.deleteBeforeReplace = op === "delete-replaced";
                this.replacing.set(m.urn, entry);
            }
            if (m.keys?.length || !entry.replaces) entry.replaces = [...(m.keys ?? [])];
            if (op === "replace" && m.old && m.new) entry.changedFields = changedInputs(m.old, m.new);
            // step.go DeleteStep.Apply: the old object of a state that says retainOnDelete stays on the service.
            if (m.old?.retainOnDelete) entry.retained = true;
            return;
        }
        switch (op) {
            case "create":
                this.push(m, "create", Object.keys(m.new?.inputs ?? {}).filter((k) => k !== PROVIDER_KEY).sort());
                return;
            case "update":
                this.push(m, "update", changedInputs(m.old, m.new)).replaces = [...(m.keys ?? [])];
                return;
            case "delete":
                // retainOnDelete: dropped from the state, not deleted (DeleteStep.Apply).
                if (m.old?.retainOnDelete) this.push(m, "delete", []).retained = true;
                else this.push(m, "delete", []);
                return;
            default:
                // same, read, and what the kit's plans have no name of their own for (discard, import...).
                this.push(m, op as PlanOp, []);
        }
    }

    /** URNs of the refresh steps announced and not finished yet. */
    private readonly refreshing = new Set<string>();

    /** Called for resourcePreEvent: remembers refresh steps, whose outcome event carries another op. */
    readonly onPre = (event: EngineEvent): void => {
        const m = event.resourcePreEvent?.metadata;
        if (m && m.op === "refresh") this.refreshing.add(m.urn);
    };

    /** The step's old object was left pending deletion by an earlier up. */
    private pendingDelete(m: StepEventMetadata): boolean {
        return this.previous.some((r) => r.delete && r.urn === m.urn && r.id === m.old?.id);
    }

    private push(m: StepEventMetadata, op: PlanOp, changedFields: string[]): PlanEntry {
        const entry: PlanEntry = { urn: m.urn, name: m.urn.split("::").at(-1)!, type: m.type, op, changedFields };
        this.entries.push(entry);
        return entry;
    }
}

/** Resources the kit's plans list: custom and component resources of the program, not the stack or providers. */
function isResource(type: string): boolean {
    return type !== "pulumi:pulumi:Stack" && !type.startsWith("pulumi:providers:");
}

/** The type of a URN: `urn:pulumi:<stack>::<project>::<qualified type>::<name>`, the last type of the chain. */
function urnType(urn: string): string {
    return urn.split("::")[2]?.split("$").at(-1) ?? "";
}

function changedInputs(old: StepEventStateMetadata | undefined, next: StepEventStateMetadata | undefined): string[] {
    return changedKeys(old?.inputs ?? {}, next?.inputs ?? {});
}

/** Every event: the recorder's onPre and onEvent in one callback. */
export function recorderCallback(r: EventRecorder): (event: EngineEvent) => void {
    return (event) => {
        r.onPre(event);
        r.onEvent(event);
    };
}
