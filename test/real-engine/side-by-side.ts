/**
 * A step of an example's life cycle (life-cycle.ts) recorded in a form that compares across engines: its plan
 * (operation and changed fields per resource), the writes it sent to the emulators, the stack outputs and the state
 * after it, with what differs from run to run by nature (ids, keys, tokens, times) masked.
 */
import * as os from "node:os";
import type { ProgramPlan } from "../../testing/engine/plan";
import type { StackRunner } from "../../testing/processes/runner-options";
import type { ProgramState } from "../../testing/engine/state";
import { ProgramRunError } from "../../testing/engine/step-record";
import { unwrapSecrets } from "../../testing/engine/values";
import type { Emulator } from "../../emulator";

export interface RecordedStep {
    step: string;
    /** `name type op [changed fields]`, sorted: steps of one deployment run in parallel. */
    plan: string[];
    /** `METHOD path?query body` of every write (not GET), sorted: parallel steps write in any order. */
    writes: string[];
    outputs: unknown;
    state: unknown;
    /**
     * The providers' warnings (drift reports and who made them), sorted: the main job's checks read them, and it
     * runs its life cycles on the stand-in (main-job.test.ts), so they must be the real CLI's too.
     */
    warnings: string[];
    /** The step's error, first line, when it failed. */
    error?: string;
}

/** Runs one step on `runner` and records it (the step's error too, when it fails, with its first line). */
export async function recordStep(step: string, runner: StackRunner, emulators: Emulator[], run: () => Promise<ProgramPlan>): Promise<RecordedStep> {
    for (const e of emulators) e.journal.clear();
    let plan: ProgramPlan;
    let error: string | undefined;
    let warnings: string[];
    try {
        plan = await run();
        warnings = runner.last?.warnings ?? [];
    } catch (e) {
        if (!(e instanceof ProgramRunError)) throw e;
        plan = e.plan;
        warnings = e.warnings;
        error = mask(e.message.split("\n")[0]!);
    }
    const writes = emulators.flatMap((emu, i) =>
        emu.journal
            .entries()
            .filter((e) => e.method !== "GET" && e.method !== "HEAD")
            .map((e) => mask(`${i} ${e.method} ${e.path}${Object.keys(e.query).length ? `?${new URLSearchParams(e.query)}` : ""} ${e.body.toString("utf8")}`)),
    );
    return {
        step,
        plan: plan.map((e) => `${e.name} ${e.type} ${e.op} [${e.changedFields.join(",")}]${e.dropped ? " dropped" : ""}`).sort(),
        writes: writes.sort(),
        outputs: maskDeep(unwrapSecrets(runner.outputs())),
        state: stateView(runner.state()),
        warnings: warnings.map(mask).sort(),
        ...(error ? { error } : {}),
    };
}

/** The state as both engines keep it: per resource its type, inputs and outputs, parent, dependencies and flags. */
function stateView(state: ProgramState): unknown {
    return [...state.resources]
        .sort((a, b) => a.urn.localeCompare(b.urn))
        .map((r) => ({
            urn: r.urn,
            id: mask(r.id),
            parent: r.parent,
            inputs: maskDeep(r.inputs),
            outputs: maskDeep(r.outputs),
            dependencies: [...r.dependencies].sort(),
            protect: r.protect,
            retainOnDelete: r.retainOnDelete,
            external: r.external,
            additionalSecretOutputs: [...r.additionalSecretOutputs].sort(),
            ...(r.delete ? { delete: true } : {}),
            ...(r.initErrors?.length ? { initErrors: r.initErrors.map(mask) } : {}),
        }));
}

/**
 * What differs between two runs by nature: object ids and keys (24 hex digits), UUIDs, times, bundle tokens (40 hex
 * digits), the emulators' ports and the scenarios' temp folders.
 */
export function mask(text: string): string {
    return text
        .replace(new RegExp(`${escapeRegex(os.tmpdir())}/[^/"\\s]+`, "g"), "<tmp>")
        .replace(/\/\/127\.0\.0\.1:\d+\//g, "//127.0.0.1:<port>/")
        .replace(/(?<![0-9a-f])[0-9a-f]{40}(?![0-9a-f])/g, "<token>")
        .replace(/(?<![0-9a-f])[0-9a-f]{24}(?![0-9a-f])/g, "<id>")
        .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, "<uuid>")
        .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, "<time>")
        .replace(/\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) [A-Z][a-z]{2} {1,2}\d{1,2} \d\d:\d\d:\d\d [A-Z]{2,5} \d{4}\b/g, "<time>");
}

function escapeRegex(text: string): string {
    return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function maskDeep(value: unknown): unknown {
    return JSON.parse(mask(JSON.stringify(value ?? null))) as unknown;
}
