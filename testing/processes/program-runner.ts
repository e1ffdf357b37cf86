/**
 * Runs a real Pulumi *program* through the SDK's real dynamic-provider host, step after step with the state carried
 * between steps, the way `pulumi up`, `pulumi preview`, `pulumi refresh` and `pulumi destroy` would:
 *
 *   const runner = await ProgramRunner.start({ cwd, config: { "cloudbees:apiToken": secret("…") } });
 *   const plan = await runner.up("examples/index.ts");   // or runner.up() for Pulumi.yaml's `main`
 *   console.log(formatPlan(plan));
 *
 * The engine's architecture, reduced, one concept per file:
 * - program-process.ts: each up/preview runs the program once in a fresh Node process (program-child.ts, with
 *   program-protocol.ts between them), whose mock monitor forwards every dynamic resource's RegisterResource /
 *   ReadResource here with the inputs in wire form, and answers the SDK with the real outputs.
 * - deployment.ts and steps.ts: each registration is a step through `Lifecycle`/`ManagedResource` (engine.ts)
 *   against a provider host started for the step, as the engine starts the provider plugin for each deployment;
 *   then the resources the program no longer declares are deleted in reverse dependency order (`up`) or shown as
 *   deletes (`preview`).
 * - spare-processes.ts: the next step's program process and provider host, booted while a step runs.
 * - state.ts: the state (in memory, optionally in a JSON file); plan.ts: the plan and its table.
 *
 * As the engine does, where users can see it: refresh steps run in parallel (`parallel`, like `--parallel`; default
 * unbounded); the delete half of a create-before-delete replacement runs at the end of the deployment, with the
 * deletes of resources the program dropped, in reverse dependency order; `refresh: true` on up/preview refreshes
 * first (`--refresh`; a preview keeps the refreshed state to itself); `expectNoChanges` fails a step that changes
 * anything, listing the changes (`--expect-no-changes`).
 *
 * The step generator's resource options, as pulumi/pulumi's step_generator.go applies them (docs/testing.md has
 * the table): protect (a replacement or delete refused), retainOnDelete (the old object of a replacement or a dropped
 * resource stays on the service), deleteBeforeReplace (the option overrides the provider's diff), replaceOnChanges,
 * ignoreChanges with nested paths, aliases (a rename, move or retype with an alias is the same resource).
 *
 * A replaced object whose deferred delete failed, or was never reached because the deployment failed first, stays
 * in the state marked for deletion (`delete: true`), and the next up deletes it.
 *
 * Not modelled: component resources and non-dynamic resources in the state (they are echoed by the mocks and not
 * recorded).
 */
import * as fs from "fs";
import * as path from "path";
import { Deployment } from "../engine/deployment";
import { Lifecycle } from "../engine/engine";
import { assertNoChanges, type ProgramPlan } from "../engine/plan";
import type { DoneMessage, StartMessage } from "./program-protocol";
import type { JsonObject, ProviderHost } from "./provider-host";
import { clone, loadState, saveState, type ProgramState } from "../engine/state";
import { destroyAll, refreshAll } from "../engine/steps";
import { programConfig, programEntry, readProjectFile } from "./project";
import type { ProgramRunnerOptions, RunStepOptions, StackRunner } from "./runner-options";
import { SpareProcesses } from "./spare-processes";
import { isProviderText } from "../../sdk/resources/provider-text";
import { failureText, ProgramRunError, warningsOf, type StepRecord } from "../engine/step-record";

const PROVIDER_KEY = "__provider";
/** The provider text a resource was last served by (none for a component). */
const providerOf = (r: { inputs: JsonObject; outputs: JsonObject }): unknown => r.inputs[PROVIDER_KEY] ?? r.outputs[PROVIDER_KEY];

export class ProgramRunner implements StackRunner {
    /** Current stack config (`setConfig` changes it, like `pulumi config set`). */
    readonly config: Record<string, unknown>;
    readonly project: string;
    readonly stack: string;
    /** The last step's record (also set when it failed). */
    last: StepRecord | undefined;

    private st: ProgramState;
    private queue: Promise<unknown> = Promise.resolve();
    private readonly active = new Set<{ close(): Promise<void> }>();
    private closed = false;
    /** The next step's program process and provider host, booted ahead. */
    private readonly spares: SpareProcesses;

    private constructor(
        private readonly opts: ProgramRunnerOptions,
        private readonly defaultProgram: string,
        project: string,
        state: ProgramState,
        typescript: boolean,
    ) {
        this.config = { ...(opts.config ?? {}) };
        this.project = project;
        this.stack = opts.stack ?? "stack";
        this.st = state;
        this.spares = new SpareProcesses({ ...opts, project, stack: this.stack, typescript });
    }

    static async start(opts: ProgramRunnerOptions): Promise<ProgramRunner> {
        const cwd = path.resolve(opts.cwd);
        if (!fs.statSync(cwd).isDirectory()) throw new Error(`ProgramRunner: cwd ${cwd} is not a folder`);
        const projectFile = readProjectFile(cwd);
        const project = opts.project ?? projectFile.name ?? "project";
        const program = path.resolve(cwd, opts.program ?? projectFile.main ?? ".");
        return new ProgramRunner({ ...opts, cwd }, program, project, await loadState(opts.stateFile), projectFile.typescript);
    }

    /** `pulumi config set [--secret] key value` (undefined removes the key). Applies to the following steps. */
    setConfig(key: string, value: unknown): void {
        if (value === undefined) delete this.config[key];
        else this.config[key] = value;
    }

    /** `pulumi up`: run the program; create/update/replace what it declares, delete what it no longer declares. */
    up(program?: string, opts?: RunStepOptions): Promise<ProgramPlan> {
        return this.serial(() => this.runProgram("up", program, opts));
    }

    /** `pulumi preview`: run the program with isDryRun(); check/diff only, unknowns allowed, nothing changes. */
    preview(program?: string, opts?: RunStepOptions): Promise<ProgramPlan> {
        return this.serial(() => this.runProgram("preview", program, opts));
    }

    /** `pulumi refresh`: read every resource in the state; drift shows as changedFields; vanished ones dropped. */
    refresh(opts?: RunStepOptions): Promise<ProgramPlan> {
        return this.serial(() => this.withHost("refresh", opts, (lc, plan) => refreshAll(lc, this.st, plan, opts?.parallel)));
    }

    /** `pulumi destroy`: delete everything in reverse dependency order; the state and outputs end up empty. */
    destroy(opts?: RunStepOptions): Promise<ProgramPlan> {
        return this.serial(() => this.withHost("destroy", opts, (lc, plan) => destroyAll(lc, this.st, plan)));
    }

    /** Stack outputs of the last successful up, in wire form (secret values as `secret(...)` wrappers). */
    outputs(): JsonObject {
        return clone(this.st.outputs);
    }

    /** A copy of the state. */
    state(): ProgramState {
        return clone(this.st);
    }

    /** Stops the processes booted ahead for the next step (and whatever a running step has). Idempotent. */
    async close(): Promise<void> {
        this.closed = true;
        await Promise.allSettled([...[...this.active].map((a) => a.close()), this.spares.close()]);
        await this.queue.catch(() => undefined);
    }

    // -----------------------------------------------------------------------------------------------------------

    private serial<T>(fn: () => Promise<T>): Promise<T> {
        if (this.closed) return Promise.reject(new Error("ProgramRunner is closed"));
        const step = async () => {
            try {
                return await fn();
            } finally {
                this.spares.warm();
            }
        };
        const next = this.queue.then(step, step);
        this.queue = next.catch(() => undefined);
        return next;
    }

    /** The key a step's host is taken under (its stack config); none without reuse. */
    private hostKey(): string | undefined {
        return this.opts.reuseHosts === false ? undefined : JSON.stringify(this.config ?? {});
    }

    /** The key under which a step's host may serve the next step: none unless every provider it used is this package's. */
    private reuseKey(providers: unknown[]): string | undefined {
        return providers.every((p) => p === undefined || (typeof p === "string" && isProviderText(p))) ? this.hostKey() : undefined;
    }

    private lifecycle(host: ProviderHost): Lifecycle {
        return new Lifecycle(host, { project: this.project, stack: this.stack, config: this.config });
    }

    private saveState(): Promise<void> {
        return saveState(this.opts.stateFile, this.st);
    }

    private timeoutOf(opts: RunStepOptions | undefined): number {
        return opts?.timeoutMs ?? this.opts.timeoutMs ?? 60_000;
    }

    /** refresh / destroy: no program, just the engine and a provider host. */
    private async withHost(
        kind: "refresh" | "destroy",
        opts: RunStepOptions | undefined,
        body: (lc: Lifecycle, plan: ProgramPlan) => Promise<void>,
    ): Promise<ProgramPlan> {
        const started = Date.now();
        const plan: ProgramPlan = [];
        let host: ProviderHost | undefined;
        let providers: unknown[] | undefined;
        let succeeded = false;
        const timeoutMs = this.timeoutOf(opts);
        try {
            if (this.st.resources.length === 0) return plan;
            providers = this.st.resources.map(providerOf);
            const hostPromise = this.spares.takeHost(this.hostKey());
            this.spares.warm(); // the next step's host boots while this one runs
            host = await hostPromise;
            const h = host;
            const handle = { close: () => h.close() };
            this.active.add(handle);
            try {
                await withDeadline(body(this.lifecycle(host), plan), timeoutMs, `pulumi ${kind} did not finish within ${timeoutMs} ms`);
            } finally {
                this.active.delete(handle);
            }
            if (opts?.expectNoChanges) assertNoChanges(plan);
            succeeded = true;
            return plan;
        } catch (e) {
            await settled(host);
            throw new ProgramRunError(failureText(kind, String((e as Error).message ?? e), host?.output() ?? ""), kind, [...plan], "", host?.output() ?? "", e);
        } finally {
            // A failed step settled in the catch above.
            if (succeeded) await settled(host);
            const hostOutput = host?.output() ?? "";
            await this.spares.closeHost(host, succeeded && providers ? this.reuseKey(providers) : undefined);
            await this.saveState();
            this.last = { kind, plan: [...plan], programOutput: "", hostOutput, warnings: warningsOf(hostOutput), echoed: [], durationMs: Date.now() - started };
        }
    }

    /** up / preview: the program in its process, each registration a step of the deployment. */
    private async runProgram(kind: "up" | "preview", programArg: string | undefined, opts: RunStepOptions | undefined): Promise<ProgramPlan> {
        const started = Date.now();
        const dryRun = kind === "preview";
        const given = programArg ? path.resolve(this.opts.cwd, programArg) : this.defaultProgram;
        if (!fs.existsSync(given)) throw new Error(`program ${given} does not exist`);
        const program = programEntry(given);
        const timeoutMs = this.timeoutOf(opts);
        /** `--refresh` of a preview: the refreshed state serves the preview only. */
        const unrefreshed = dryRun && opts?.refresh ? this.st.resources : undefined;
        if (unrefreshed) this.st.resources = clone(unrefreshed);
        const refreshPlan: ProgramPlan = [];

        // The provider host starts while the program process starts (or both were booted ahead).
        const hostPromise = this.spares.takeHost(this.hostKey());
        hostPromise.catch(() => undefined);
        const providers = this.st.resources.map(providerOf);
        let host: ProviderHost | undefined;
        const lcPromise = hostPromise.then((h) => {
            host = h;
            return this.lifecycle(h);
        });
        lcPromise.catch(() => undefined);

        const proc = this.spares.takeChild(program);
        this.spares.warm(); // the next step's host boots while this one runs
        const handle = { close: async () => proc.kill() };
        this.active.add(handle);

        if (opts?.refresh && this.st.resources.length > 0) {
            try {
                const refreshing = lcPromise.then((lc) => refreshAll(lc, this.st, refreshPlan, opts.parallel));
                await withDeadline(refreshing, timeoutMs, `the refresh of pulumi ${kind} --refresh did not finish within ${timeoutMs} ms`);
            } catch (e) {
                this.active.delete(handle);
                proc.kill();
                this.spares.returnChild(proc);
                if (unrefreshed) this.st.resources = unrefreshed;
                else await this.saveState();
                await settled(host);
                const hostOutput = host?.output() ?? "";
                await this.spares.closeHost(await hostPromise.catch(() => undefined));
                const msg = (e as Error).message ?? String(e);
                throw new ProgramRunError(`pulumi ${kind} failed: ${msg}`, kind, refreshPlan, "", hostOutput, e);
            }
        }

        const deployment = new Deployment(kind, lcPromise, this.st.resources, { project: this.project, stack: this.stack });
        const { config, secretKeys } = programConfig(this.config);
        const start: StartMessage = {
            kind: "start", program, project: this.project, stack: this.stack, organization: this.opts.organization ?? "organization",
            dryRun, config, secretKeys,
        };
        let done: DoneMessage | undefined;
        let error: unknown;
        try {
            done = await proc.run(start, (msg) => (providers.push(msg.inputs?.[PROVIDER_KEY]), deployment.register(msg)), timeoutMs, () => deployment.stuck(program, timeoutMs), (msg) => deployment.component(msg));
        } catch (e) {
            error = e;
        }
        // A refused registration fails the program too, maybe only after "done" (its rejection surfaces late): that
        // process must not serve the next step.
        await proc.finish(error !== undefined || deployment.failure !== undefined);
        this.active.delete(handle);
        this.spares.returnChild(proc);
        const programOutput = proc.output() + deployment.infoText();
        // Outstanding provider steps finish (each has its own RPC deadline) so the state records what they did.
        await proc.settled();
        // A failed step is the cause; the program's own failure (its registration was refused) is the consequence.
        const failure = deployment.failure;
        if (failure) error = error && error !== failure && !repeats(error, failure) ? new Error(`${failure.message}\n(then ${(error as Error).message})`) : failure;

        let hostOutput = "";
        try {
            if (!error) await deployment.deleteDropped();
            // A preview's step errors (a protected replacement or delete) fail it once every step is planned.
            if (!error && deployment.previewErrors.length) error = new Error(deployment.previewErrors.map((e) => e.message).join("\n"));
        } catch (e) {
            error = e;
        } finally {
            if (unrefreshed) this.st.resources = unrefreshed;
            if (!dryRun) {
                this.st.resources = deployment.nextState();
                if (!error && done) this.st.outputs = done.outputs;
                await this.saveState();
            }
            await settled(host);
            hostOutput = host?.output() ?? "";
            await this.spares.closeHost(host ?? (await hostPromise.catch(() => undefined)), error ? undefined : this.reuseKey(providers));
        }

        const plan: ProgramPlan = [...refreshPlan, ...deployment.plan()];
        this.last = {
            kind, plan, outputs: done?.outputs, programOutput, hostOutput, warnings: warningsOf(hostOutput), echoed: done?.echoed ?? [],
            durationMs: Date.now() - started,
        };
        if (!error && opts?.expectNoChanges) {
            try {
                assertNoChanges(plan);
            } catch (e) {
                error = e;
            }
        }
        if (error) {
            const msg = (error as Error).message ?? String(error);
            const tail = programOutput.trim() ? `\n--- program output ---\n${programOutput.trim().slice(-4_000)}` : "";
            throw new ProgramRunError(failureText(kind, `${msg}${tail}`, hostOutput), kind, plan, programOutput, hostOutput, error);
        }
        return plan;
    }
}

/** After the host's output barrier: a step's last warning may arrive after the answer that followed it. */
async function settled(host: ProviderHost | undefined): Promise<void> {
    await host?.settleOutput().catch(() => undefined);
}

function withDeadline<T>(p: Promise<T>, ms: number, message: string): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(message)), ms);
    });
    return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
}

/**
 * Whether the program's error only repeats the failed step's (its registration was refused with that error, as the
 * Pulumi CLI shows it once): the step's message, without its URN, is in the program's.
 */
function repeats(programError: unknown, stepFailure: Error): boolean {
    const cause = stepFailure.message.replace(/^urn:\S+: /, "");
    return cause.length > 0 && String((programError as Error)?.message ?? programError).includes(cause);
}
