/** How a ProgramRunner runs (`ProgramRunner.start`) and how one of its steps runs. */
import type { ProgramPlan } from "../engine/plan";
import type { JsonObject } from "./provider-host";
import type { ProgramState } from "../engine/state";
import type { StepRecord } from "../engine/step-record";
export interface ProgramRunnerOptions {
    /** Project folder: the provider host's and the program's working directory; program paths are relative to it. */
    cwd: string;
    /**
     * Stack config, keys `namespace:key`. Values may be `secret(...)`: the program then sees them as secret config
     * (`config.requireSecret`), the provider's `configure` gets them plain. Non-string values reach the program as
     * JSON text.
     */
    config?: Record<string, unknown>;
    /** Defaults to Pulumi.yaml's `name` in cwd, else "project". */
    project?: string;
    /** Defaults to "stack" (the SDK's and the harness's default). */
    stack?: string;
    organization?: string;
    /** Program used when up()/preview() get none: Pulumi.yaml's `main` in cwd, else cwd itself. */
    program?: string;
    /** Extra environment for the program process and the provider host. */
    env?: Record<string, string>;
    /** Deadline for a whole step (ms). A program that never finishes fails with a clear error. Default 60 s. */
    timeoutMs?: number;
    /** Deadline per provider RPC (ms), passed to the host driver. Default 20 s. */
    callTimeoutMs?: number;
    /** Keep the state in this JSON file: loaded by start() when it exists, written after every step. */
    stateFile?: string;
    /** tsconfig for ts-node in the program process. Default: the nearest tsconfig.json from cwd upwards. */
    tsconfig?: string;
    /**
     * Boot the next step's provider host (and, when the current step's program process cannot serve it, a program
     * process) while the current step runs (default true): each loads @pulumi/pulumi, about a second of CPU. A host
     * serves nothing before its step (a step that can take the host of the one before, reuseHosts, boots none). close()
     * stops them.
     */
    prestart?: boolean;
    /**
     * A host whose deployment used only this package's own providers serves the next deployment with the same stack
     * config, started as a new host would start it (the providers' clients closed, their reads forgotten: all they
     * keep per process), rather than a new host each time (default true; false: a new host per deployment, as the
     * engine starts one). A program with a provider of its own always gets a new host.
     */
    reuseHosts?: boolean;
}

export interface RunStepOptions {
    /** Deadline for this step (ms). */
    timeoutMs?: number;
    /** How many refresh steps run at once (`--parallel`). Default: all of them. */
    parallel?: number;
    /** up / preview: refresh the state first (`--refresh`). A preview does not keep the refreshed state. */
    refresh?: boolean;
    /**
     * Fail the step when it changes anything, listing the changes (`--expect-no-changes`): a refresh that finds
     * drift or a vanished object, a preview or up planning anything but `same`. An up has made its changes by then.
     */
    expectNoChanges?: boolean;
}

/**
 * What a test drives, whichever engine runs the steps: ProgramRunner (the engine stand-in) or PulumiCliRunner (the
 * real CLI). Plans, step records, outputs and state have the same forms in both.
 */
export interface StackRunner {
    /** Current stack config (`setConfig` changes it, like `pulumi config set`). */
    readonly config: Record<string, unknown>;
    readonly project: string;
    readonly stack: string;
    /** The last step's record (also set when it failed). */
    readonly last: StepRecord | undefined;
    /** `pulumi config set [--secret] key value` (undefined removes the key). Applies to the following steps. */
    setConfig(key: string, value: unknown): void;
    up(program?: string, opts?: RunStepOptions): Promise<ProgramPlan>;
    preview(program?: string, opts?: RunStepOptions): Promise<ProgramPlan>;
    refresh(opts?: RunStepOptions): Promise<ProgramPlan>;
    destroy(opts?: RunStepOptions): Promise<ProgramPlan>;
    /** Stack outputs in wire form (secret values as `secret(...)` wrappers). */
    outputs(): JsonObject;
    state(): ProgramState;
    close(): Promise<void>;
}
