/** What a step of the ProgramRunner did, and its error when it failed. */
import type { ProgramPlan } from "./plan";
import type { JsonObject } from "../processes/provider-host";

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
    /** The providers' warnings (host output lines `warning: ...`), without the prefix: drift reports among them. */
    warnings: string[];
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

    /** The providers' warnings of the failed step, as StepRecord.warnings. */
    get warnings(): string[] {
        return warningsOf(this.hostOutput);
    }
}

/** The `warning: ` lines of a provider host's output, without the prefix. */
export function warningsOf(hostOutput: string): string[] {
    return hostOutput.split(/\r?\n/).flatMap((line) => (line.startsWith("warning: ") ? [line.slice("warning: ".length)] : []));
}

/**
 * A failed step's message: its cause, then the warnings the providers gave (as the CLI's diagnostics show them),
 * sorted: parallel steps finish in any order.
 */
export function failureText(kind: StepRecord["kind"], cause: string, hostOutput: string): string {
    const warnings = warningsOf(hostOutput).sort();
    const tail = warnings.length ? `\n--- warnings ---\n${warnings.map((w) => `warning: ${w}`).join("\n")}` : "";
    return `pulumi ${kind} failed: ${cause}${tail}`;
}
