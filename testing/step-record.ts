/** What a step of the ProgramRunner did, and its error when it failed. */
import type { ProgramPlan } from "./plan";
import type { JsonObject } from "./provider-host";

/** What the last step did, for diagnostics. */
export interface StepRecord {
    kind: "up" | "preview" | "refresh" | "destroy";
    plan: ProgramPlan;
    /** Stack outputs the program produced (preview: with UNKNOWN values). */
    outputs?: JsonObject;
    /** stdout + stderr of the program process. */
    programOutput: string;
    /** stdout + stderr of the provider host. */
    hostOutput: string;
    /** Non-dynamic resources the mocks echoed (URNs). */
    echoed: string[];
    durationMs: number;
}

/** A step failed. The state keeps what the engine would keep: every step that completed, and the partial ones. */
export class ProgramRunError extends Error {
    constructor(
        message: string,
        readonly step: StepRecord["kind"],
        /** The plan entries of the steps that completed before the failure. */
        readonly plan: ProgramPlan,
        readonly programOutput: string,
        readonly hostOutput: string,
        override readonly cause?: unknown,
    ) {
        super(message);
        this.name = "ProgramRunError";
    }
}
