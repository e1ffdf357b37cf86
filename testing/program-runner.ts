/**
 * Runs a real Pulumi *program* through the SDK's real dynamic-provider host, step after step with the state carried
 * between steps, the way `pulumi up`, `pulumi preview`, `pulumi refresh` and `pulumi destroy` would:
 *
 *   const runner = await ProgramRunner.start({ cwd, config: { "cloudbees:apiToken": secret("…") } });
 *   const plan = await runner.up("examples/");   // or runner.up() for Pulumi.yaml's `main`
 *   console.log(formatPlan(plan));
 *
 * Architecture (the engine's, reduced):
 * - Each up/preview forks a fresh Node process (program-child.ts, with ts-node registered, as the nodejs language
 *   host runs TypeScript programs) that runs the program once under `pulumi.runtime.setMocks`. Its mock monitor
 *   forwards every dynamic resource's RegisterResource / ReadResource to this runner over IPC, with the inputs in
 *   wire form, and answers the SDK with the real outputs, so outputs of one resource feed the next.
 * - This runner is the engine: it keeps the state (in memory, optionally in a JSON file), and drives each resource
 *   through `Lifecycle`/`ManagedResource` (check -> create, or check -> diff -> update / replace / same) against a
 *   provider host started for the step, as the engine starts the provider plugin for each deployment.
 * - After the program finished, resources of the previous state that it did not declare are deleted in reverse
 *   dependency order (`up`) or shown as deletes (`preview`).
 *
 * Why a process per run rather than re-running the program in this process under setMocks: jest ignores deletes
 * from require.cache (re-requiring a program would need jest.isolateModules, which also duplicates @pulumi/pulumi);
 * under `jest --coverage` the program's and provider's code would be instrumented, so `__provider` would not be
 * the text a real `pulumi up` serializes; a program that hangs (a closure the SDK cannot serialize leaves the run
 * waiting forever under mocks) or leaks promises/handlers could be abandoned but not stopped; module-level state
 * would leak between runs. A forked process gets a fresh module graph, is compiled by ts-node as the language host
 * does, reports unhandled errors like the language host, and can be killed at the deadline.
 *
 * Secrets: the program's secret inputs reach the runner as the engine receives them (wire form, secret wrappers
 * where the program put them, nested ones included; the stock mocks would hoist them to the top-level property),
 * are kept wrapped in the state, are sent to the host unwrapped (it answers Configure with acceptSecrets=false), and
 * outputs are re-marked by key (plus `additionalSecretOutputs`) before they go back to the program.
 *
 * As the engine does, where users can see it: refresh steps run in parallel (`parallel`, like `--parallel`; default
 * unbounded); the delete half of a create-before-delete replacement runs at the end of the deployment, with the
 * deletes of resources the program dropped, in reverse dependency order; `refresh: true` on up/preview refreshes
 * first (`--refresh`; a preview keeps the refreshed state to itself); `expectNoChanges` fails a step that changes
 * anything, listing the changes (`--expect-no-changes`).
 *
 * Not modelled: a replaced object whose deferred delete failed, or was never reached because the deployment failed
 * first, is not kept in the state as pending deletion (the engine would delete it at the next up; the error names
 * it), `replaceOnChanges`, the `deleteBeforeReplace` resource option (the provider's diff decides), nested `ignoreChanges` paths (top-level keys only), component resources and non-dynamic resources
 * in the state (they are echoed by the mocks and not recorded).
 */
import { fork, type ChildProcess } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { annotateSecrets, Lifecycle, type ManagedResource, type PlanEntry, type PlanOp } from "./engine";
import { startProviderHost, type JsonObject, type ProviderHost } from "./provider-host";
import type { ChildMessage, DoneMessage, RegisterMessage, RegisterResult, StartMessage } from "./program-protocol";
import { changedKeys, isSecret, secret, unwrapSecrets } from "./values";

// ---------------------------------------------------------------------------------------------------------------
// Public types
// ---------------------------------------------------------------------------------------------------------------

export type ProgramOp = PlanOp | "read";

export interface ProgramPlanEntry {
    urn: string;
    name: string;
    type: string;
    op: ProgramOp;
    /**
     * create: input keys; update/replace: top-level inputs that differ (`__provider` when the provider code
     * changed); refresh/read: output keys that changed; same/delete: [].
     */
    changedFields: string[];
    /** update/replace: the keys the provider's diff asked to replace. */
    replaces?: string[];
    deleteBeforeReplace?: boolean;
    /** preview: the planned outputs (checked inputs, UNKNOWN where not known yet). */
    outputs?: JsonObject;
    /** refresh: read found the object gone; the resource was dropped from the state. */
    dropped?: boolean;
    /** delete: the resource was only read (external) or has retainOnDelete: dropped from the state, not deleted. */
    retained?: boolean;
}

export type ProgramPlan = ProgramPlanEntry[];

export interface StateResource {
    urn: string;
    type: string;
    name: string;
    parent: string;
    id: string;
    /** Checked inputs in wire form (secrets marked, `__provider` included). */
    inputs: JsonObject;
    /** Outputs in wire form (secrets marked, `__provider` included). */
    outputs: JsonObject;
    dependencies: string[];
    protect: boolean;
    retainOnDelete: boolean;
    additionalSecretOutputs: string[];
    /** Read with ReadResource (`get`): refreshed and re-read, never updated or deleted. */
    external: boolean;
}

export interface ProgramState {
    version: 1;
    /** In dependency order: a resource comes after everything it depends on. */
    resources: StateResource[];
    /** Stack outputs in wire form (secrets marked). */
    outputs: JsonObject;
}

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
     * Boot the next step's program process and provider host while the current step runs (default true): each
     * loads @pulumi/pulumi, about a second of CPU. They serve nothing before their step, so steps still get fresh
     * processes. close() stops them.
     */
    prestart?: boolean;
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

// ---------------------------------------------------------------------------------------------------------------
// Runner
// ---------------------------------------------------------------------------------------------------------------

const PROVIDER_KEY = "__provider";
const CHILD_SCRIPT = path.join(__dirname, `program-child${path.extname(__filename) || ".ts"}`);

export class ProgramRunner {
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
    /**
     * A program process and a provider host booted ahead for the next step (both load @pulumi/pulumi, about a
     * second each). They have served nothing yet: the program is only required, and the host only configured,
     * when the step starts, so each step still gets fresh ones, as each `pulumi up` does.
     */
    private spareChild: ProgramProcess | undefined;
    private spareHost: Promise<ProviderHost> | undefined;
    /** Provider hosts started and not closed yet, killed if the process exits without close(). */
    private readonly hostPids = new Set<number>();
    private readonly onExit = () => {
        this.spareChild?.kill();
        for (const pid of this.hostPids) {
            try {
                process.kill(pid, "SIGKILL");
            } catch {
                // already gone
            }
        }
    };

    private constructor(
        private readonly opts: ProgramRunnerOptions,
        private readonly defaultProgram: string,
        project: string,
        state: ProgramState,
    ) {
        this.config = { ...(opts.config ?? {}) };
        this.project = project;
        this.stack = opts.stack ?? "stack";
        this.st = state;
        process.once("exit", this.onExit);
    }

    static async start(opts: ProgramRunnerOptions): Promise<ProgramRunner> {
        const cwd = path.resolve(opts.cwd);
        if (!fs.statSync(cwd).isDirectory()) throw new Error(`ProgramRunner: cwd ${cwd} is not a folder`);
        const projectFile = readProjectFile(cwd);
        const project = opts.project ?? projectFile.name ?? "project";
        const program = path.resolve(cwd, opts.program ?? projectFile.main ?? ".");
        let state: ProgramState = { version: 1, resources: [], outputs: {} };
        if (opts.stateFile && fs.existsSync(opts.stateFile)) {
            state = JSON.parse(await fs.promises.readFile(opts.stateFile, "utf8")) as ProgramState;
            if (state.version !== 1 || !Array.isArray(state.resources)) throw new Error(`${opts.stateFile}: not a ProgramRunner state file`);
        }
        return new ProgramRunner({ ...opts, cwd }, program, project, state);
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
        return this.serial(() => this.withHost("refresh", opts, (lc, plan) => this.refreshAll(lc, plan, opts?.parallel)));
    }

    /** `pulumi destroy`: delete everything in reverse dependency order; the state and outputs end up empty. */
    destroy(opts?: RunStepOptions): Promise<ProgramPlan> {
        return this.serial(() => this.withHost("destroy", opts, (lc, plan) => this.destroyAll(lc, plan)));
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
        process.removeListener("exit", this.onExit);
        const spareChild = this.spareChild;
        const spareHost = this.spareHost;
        this.spareChild = undefined;
        this.spareHost = undefined;
        spareChild?.kill();
        await Promise.allSettled([
            ...[...this.active].map((a) => a.close()),
            spareHost?.then((h) => this.closeHost(h)),
            spareChild?.exited,
        ]);
        await this.queue.catch(() => undefined);
    }

    // -----------------------------------------------------------------------------------------------------------

    private serial<T>(fn: () => Promise<T>): Promise<T> {
        if (this.closed) return Promise.reject(new Error("ProgramRunner is closed"));
        const step = async () => {
            try {
                return await fn();
            } finally {
                this.warm();
            }
        };
        const next = this.queue.then(step, step);
        this.queue = next.catch(() => undefined);
        return next;
    }

    /** Boot a program process and a provider host for the next step. */
    private warm(): void {
        if (this.closed || this.opts.prestart === false) return;
        if (!this.spareHost) {
            this.spareHost = this.startHost();
            this.spareHost.catch(() => undefined);
        }
        if (!this.spareChild || !this.spareChild.alive()) this.spareChild = this.forkProgram();
    }

    private takeHost(): Promise<ProviderHost> {
        const spare = this.spareHost;
        this.spareHost = undefined;
        if (!spare) return this.startHost();
        return spare.then((h) => (h.exited ? this.startHost() : h), () => this.startHost());
    }

    private takeChild(): ProgramProcess {
        const spare = this.spareChild;
        this.spareChild = undefined;
        if (spare?.alive()) {
            spare.ref();
            return spare;
        }
        spare?.kill();
        return this.forkProgram();
    }

    private programConfig(): { config: Record<string, string>; secretKeys: string[] } {
        const config: Record<string, string> = {};
        const secretKeys: string[] = [];
        for (const [k, v] of Object.entries(this.config)) {
            if (isSecret(v)) secretKeys.push(k);
            const plain = unwrapSecrets(v);
            config[k] = typeof plain === "string" ? plain : JSON.stringify(plain);
        }
        return { config, secretKeys };
    }

    private async startHost(): Promise<ProviderHost> {
        const host = await startProviderHost({
            cwd: this.opts.cwd,
            env: this.opts.env,
            project: this.project,
            stack: this.stack,
            callTimeoutMs: this.opts.callTimeoutMs,
        });
        this.hostPids.add(host.pid);
        return host;
    }

    private async closeHost(host: ProviderHost | undefined): Promise<void> {
        if (!host) return;
        await host.close();
        this.hostPids.delete(host.pid);
    }

    private async saveState(): Promise<void> {
        if (!this.opts.stateFile) return;
        const tmp = `${this.opts.stateFile}.${process.pid}.tmp`;
        await fs.promises.writeFile(tmp, JSON.stringify(this.st, null, 2));
        await fs.promises.rename(tmp, this.opts.stateFile);
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
        const record = (): StepRecord => ({
            kind, plan: [...plan], programOutput: "", hostOutput: host?.output() ?? "", echoed: [], durationMs: Date.now() - started,
        });
        const timeoutMs = opts?.timeoutMs ?? this.opts.timeoutMs ?? 60_000;
        let timer: NodeJS.Timeout | undefined;
        try {
            if (this.st.resources.length === 0) return plan;
            const hostPromise = this.takeHost();
            this.warm(); // the next step's host boots while this one runs
            host = await hostPromise;
            const h = host;
            const handle = { close: () => h.close() };
            this.active.add(handle);
            const lc = new Lifecycle(host, { project: this.project, stack: this.stack, config: this.config });
            const deadline = new Promise<never>((_, reject) => {
                timer = setTimeout(() => reject(new Error(`pulumi ${kind} did not finish within ${timeoutMs} ms`)), timeoutMs);
            });
            try {
                await Promise.race([body(lc, plan), deadline]);
            } finally {
                this.active.delete(handle);
            }
            if (opts?.expectNoChanges) assertNoChanges(plan);
            return plan;
        } catch (e) {
            throw new ProgramRunError(`pulumi ${kind} failed: ${(e as Error).message ?? e}`, kind, [...plan], "", host?.output() ?? "", e);
        } finally {
            clearTimeout(timer);
            await this.closeHost(host);
            await this.saveState();
            this.last = record();
        }
    }

    /**
     * Reads every resource of the state, `parallel` at a time (default all), as the engine's refresh does. The plan
     * lists them in state order. After a failure no new read starts; those in flight finish and are recorded.
     */
    private async refreshAll(lc: Lifecycle, plan: ProgramPlan, parallel?: number): Promise<void> {
        const list = [...this.st.resources];
        const entries: Array<ProgramPlanEntry | undefined> = list.map(() => undefined);
        const dropped = new Set<string>();
        try {
            await forEachLimited(list, parallel, async (s, i) => {
                const r = managedFrom(lc, s);
                const e = await r.refresh();
                entries[i] = entryFrom(s, e);
                if (e.dropped) {
                    dropped.add(s.urn);
                } else {
                    const st = r.state!;
                    Object.assign(s, { id: st.id, inputs: st.inputs, outputs: markAdditionalSecrets(st.outputs, s.additionalSecretOutputs) });
                }
            });
        } finally {
            for (const e of entries) if (e) plan.push(e);
            this.st.resources = this.st.resources.filter((x) => !dropped.has(x.urn));
        }
    }

    private async destroyAll(lc: Lifecycle, plan: ProgramPlan): Promise<void> {
        const order = topoSort(this.st.resources).reverse();
        const protectedOnes = order.filter((s) => s.protect);
        if (protectedOnes.length) {
            throw new Error(`cannot delete protected resources: ${protectedOnes.map((s) => s.urn).join(", ")} (remove the protect option and run up first)`);
        }
        for (const s of order) {
            plan.push(await deleteResource(lc, s));
            this.st.resources = this.st.resources.filter((x) => x.urn !== s.urn);
        }
        this.st.outputs = {};
    }

    // -----------------------------------------------------------------------------------------------------------
    // up / preview
    // -----------------------------------------------------------------------------------------------------------

    private async runProgram(kind: "up" | "preview", programArg: string | undefined, opts: RunStepOptions | undefined): Promise<ProgramPlan> {
        const started = Date.now();
        const dryRun = kind === "preview";
        const program = programArg ? path.resolve(this.opts.cwd, programArg) : this.defaultProgram;
        if (!fs.existsSync(program)) throw new Error(`program ${program} does not exist`);
        const timeoutMs = opts?.timeoutMs ?? this.opts.timeoutMs ?? 60_000;
        /** `--refresh` of a preview: the refreshed state serves the preview only. */
        const unrefreshed = dryRun && opts?.refresh ? this.st.resources : undefined;
        if (unrefreshed) this.st.resources = clone(unrefreshed);
        const refreshPlan: ProgramPlan = [];
        /** Deletes of the old objects of create-before-delete replacements, run at the end (removed once done). */
        const deleteOld = new Map<StateResource, () => Promise<void>>();
        /** Registrations in arrival order (a topological order: a resource registers after its dependencies). */
        const slots: Slot[] = [];
        const seen = new Set<string>();
        /** URNs whose provider step is running. */
        const running = new Set<string>();
        const inflight = new Set<Promise<unknown>>();
        const deletes: ProgramPlanEntry[] = [];
        let failure: Error | undefined;

        // The provider host starts while the program process starts (or both were booted ahead).
        const hostPromise = this.takeHost();
        hostPromise.catch(() => undefined);
        let host: ProviderHost | undefined;
        const lcPromise = hostPromise.then((h) => {
            host = h;
            return new Lifecycle(h, { project: this.project, stack: this.stack, config: this.config });
        });
        lcPromise.catch(() => undefined);

        const proc = this.takeChild();
        this.warm(); // the next step's processes boot while this one runs
        const child = proc.child;
        const handle = { close: async () => proc.kill() };
        this.active.add(handle);

        if (opts?.refresh && this.st.resources.length > 0) {
            try {
                const refreshing = lcPromise.then((lc) => this.refreshAll(lc, refreshPlan, opts.parallel));
                await withDeadline(refreshing, timeoutMs, `the refresh of pulumi ${kind} --refresh did not finish within ${timeoutMs} ms`);
            } catch (e) {
                this.active.delete(handle);
                proc.kill();
                if (unrefreshed) this.st.resources = unrefreshed;
                else await this.saveState();
                await this.closeHost(await hostPromise.catch(() => undefined));
                const msg = (e as Error).message ?? String(e);
                throw new ProgramRunError(`pulumi ${kind} failed: ${msg}`, kind, refreshPlan, "", host?.output() ?? "", e);
            }
        }
        const old = new Map(this.st.resources.map((s) => [s.urn, s]));

        const handleRegister = async (msg: RegisterMessage): Promise<{ id: string; outputs: JsonObject }> => {
            if (failure) throw new Error(`not started: the ${kind} has already failed (${failure.message.split("\n")[0]})`);
            if (seen.has(msg.urn)) throw new Error(`Duplicate resource URN '${msg.urn}'; try giving it a unique name`);
            seen.add(msg.urn);
            const slot: Slot = { msg, settled: false };
            slots.push(slot);
            running.add(msg.urn);
            try {
                const lc = await lcPromise;
                const prev = old.get(msg.urn);
                if (msg.read) return await this.readStep(lc, msg, slot, prev, dryRun);
                const deferDelete = (run: () => Promise<void>) => deleteOld.set(prev!, run);
                return await this.registerStep(lc, msg, slot, prev, dryRun, deferDelete);
            } catch (e) {
                const text = (e as Error).message ?? String(e);
                failure ??= new Error(text.includes(msg.urn) ? text : `${msg.urn}: ${text}`);
                throw e;
            } finally {
                running.delete(msg.urn);
            }
        };

        let deadline: NodeJS.Timeout | undefined;
        const outcome = new Promise<DoneMessage>((resolve, reject) => {
            child.on("message", (m: ChildMessage) => {
                if (m.kind === "register") {
                    const p = handleRegister(m).then(
                        (res): RegisterResult => ({ kind: "result", seq: m.seq, ok: true, id: res.id, outputs: res.outputs }),
                        (e: unknown): RegisterResult => ({ kind: "result", seq: m.seq, ok: false, error: (e as Error).message ?? String(e) }),
                    ).then((reply) => {
                        if (child.connected) child.send(reply);
                    });
                    inflight.add(p);
                    void p.finally(() => inflight.delete(p));
                } else if (m.kind === "done") {
                    resolve(m);
                } else if (m.kind === "fatal") {
                    reject(new Error(`the program failed: ${m.message}`));
                }
            });
            void proc.exited.then(() => {
                // Give a "fatal"/"done" message sent just before exiting the chance to arrive first.
                setTimeout(() => reject(new Error(
                    `the program process exited (code ${child.exitCode}, signal ${child.signalCode}) before the program finished`,
                )), 50);
            });
            child.once("error", reject);
            deadline = setTimeout(() => {
                reject(new Error(
                    `pulumi ${kind} of ${program} did not finish within ${timeoutMs} ms. ` +
                    (running.size
                        ? `Provider steps still running: ${[...running].join(", ")}.`
                        : `No provider step was running (${slots.length} registered): the program itself is stuck, e.g. on an ` +
                          `Output that never resolves, or on a dynamic provider the SDK could not serialize (under mocks that ` +
                          `error may never surface; check the provider with serializeProvider()).`),
                ));
            }, timeoutMs).unref();
        });
        const { config, secretKeys } = this.programConfig();
        const start: StartMessage = {
            kind: "start", program, project: this.project, stack: this.stack, organization: this.opts.organization ?? "organization",
            dryRun, config, secretKeys,
        };
        child.send(start);

        let done: DoneMessage | undefined;
        let error: unknown;
        try {
            done = await outcome;
        } catch (e) {
            error = e;
        } finally {
            clearTimeout(deadline);
        }
        if (proc.alive()) {
            if (error) proc.kill();
            await Promise.race([proc.exited, sleep(2_000)]);
            proc.kill();
        }
        this.active.delete(handle);
        const programOutput = proc.output();
        // Outstanding provider steps finish (each has its own RPC deadline) so the state records what they did.
        await Promise.allSettled([...inflight]);
        // A failed step is the cause; the program's own failure (its registration was refused) is the consequence.
        if (failure) error = error && error !== failure ? new Error(`${failure.message}\n(then ${(error as Error).message})`) : failure;

        try {
            if (!error) {
                const dropped = this.st.resources.filter((s) => !seen.has(s.urn));
                if (dryRun) {
                    for (const s of topoSort(dropped).reverse()) deletes.push({ urn: s.urn, name: s.name, type: s.type, op: "delete", changedFields: [] });
                } else {
                    const lc = await lcPromise;
                    // The old objects of replacements go with the dropped resources, dependents first (by the old
                    // dependencies); their URNs are registered again, so they cannot clash with a dropped one's.
                    for (const s of topoSort([...dropped, ...deleteOld.keys()]).reverse()) {
                        const run = deleteOld.get(s);
                        if (run) {
                            await run().catch((e: unknown) => {
                                throw new Error(`deleting the replaced object ${s.id} of ${s.urn} failed: ${(e as Error).message ?? e}`);
                            });
                            deleteOld.delete(s);
                            continue;
                        }
                        if (s.protect) throw new Error(`unable to delete resource ${s.urn}: it is protected (remove the protect option and run up first)`);
                        deletes.push(await deleteResource(lc, s));
                        old.delete(s.urn);
                    }
                }
            }
        } catch (e) {
            error = e;
        } finally {
            const left = [...deleteOld.keys()].map((old) => `${old.id} (${old.urn})`);
            if (error && left.length) {
                error = new Error(`${(error as Error).message ?? error}\n(the old objects of replacements were not deleted: ${left.join(", ")}; delete them by hand)`);
            }
            if (unrefreshed) this.st.resources = unrefreshed;
            if (!dryRun) {
                // What the engine saves, also after a failure: the registered resources as their steps left them
                // (a step that never ran keeps the old state), then the previous ones neither declared nor deleted.
                const next: StateResource[] = [];
                for (const slot of slots) {
                    const s = slot.settled ? slot.state : old.get(slot.msg.urn);
                    if (s) next.push(s);
                }
                for (const [urn, s] of old) if (!seen.has(urn)) next.push(s);
                this.st.resources = topoSort(next);
                if (!error && done) this.st.outputs = done.outputs;
                await this.saveState();
            }
            await this.closeHost(host ?? (await hostPromise.catch(() => undefined)));
        }

        const plan: ProgramPlan = [...refreshPlan, ...slots.filter((s) => s.entry).map((s) => s.entry!), ...deletes];
        this.last = {
            kind, plan, outputs: done?.outputs, programOutput, hostOutput: host?.output() ?? "", echoed: done?.echoed ?? [],
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
            throw new ProgramRunError(`pulumi ${kind} failed: ${msg}${tail}`, kind, plan, programOutput, this.last.hostOutput, error);
        }
        return plan;
    }

    private forkProgram(): ProgramProcess {
        const env: Record<string, string | undefined> = { ...process.env, ...this.opts.env };
        const execArgv: string[] = [];
        let tsNode: string | undefined;
        try {
            tsNode = require.resolve("ts-node/register/transpile-only", { paths: [this.opts.cwd, __dirname] });
        } catch {
            tsNode = undefined;
        }
        if (tsNode) {
            execArgv.push("--require", tsNode);
            const tsconfig = this.opts.tsconfig ?? findUp(this.opts.cwd, "tsconfig.json");
            if (tsconfig) {
                env.TS_NODE_PROJECT = tsconfig;
                delete env.TS_NODE_SKIP_PROJECT;
            } else {
                env.TS_NODE_SKIP_PROJECT = "true";
                env.TS_NODE_COMPILER_OPTIONS = JSON.stringify({ target: "es2022", module: "commonjs", esModuleInterop: true });
            }
        } else if (CHILD_SCRIPT.endsWith(".ts")) {
            throw new Error("ProgramRunner needs ts-node to run its program process");
        }
        const child = fork(CHILD_SCRIPT, [], {
            cwd: this.opts.cwd,
            env,
            execArgv,
            stdio: ["ignore", "pipe", "pipe", "ipc"],
            serialization: "json",
        });
        return new ProgramProcess(child);
    }

    private async registerStep(
        lc: Lifecycle,
        msg: RegisterMessage,
        slot: Slot,
        prev: StateResource | undefined,
        dryRun: boolean,
        deferDelete: (deleteOld: () => Promise<void>) => void,
    ): Promise<{ id: string; outputs: JsonObject }> {
        const providerWire = msg.inputs[PROVIDER_KEY];
        const providerText = unwrapSecrets(providerWire);
        if (typeof providerText !== "string" || !providerText) {
            throw new Error(`${msg.urn}: the dynamic resource has no serialized provider in __provider`);
        }
        const inputs: JsonObject = { ...msg.inputs };
        delete inputs[PROVIDER_KEY];
        const managedPrev = prev && !prev.external ? prev : undefined;
        if (managedPrev) {
            // ignoreChanges (top-level keys): the old input value is used instead of the program's.
            for (const key of msg.ignoreChanges) {
                if (key in managedPrev.inputs) inputs[key] = managedPrev.inputs[key];
                else delete inputs[key];
            }
        }
        const r = lc.resource(msg.type, msg.name, providerText, inputs, { urn: msg.urn });
        if (managedPrev) r.state = { id: managedPrev.id, inputs: managedPrev.inputs, outputs: managedPrev.outputs };
        const finish = (outputs: JsonObject) => {
            let out = markAdditionalSecrets(outputs, msg.additionalSecretOutputs);
            if (isSecret(providerWire)) out = markSecret(out, PROVIDER_KEY);
            return out;
        };

        if (dryRun) {
            const e = await r.preview();
            slot.entry = entryFrom(msg, e);
            const id = e.op === "create" || e.op === "replace" ? "" : managedPrev!.id;
            const outputs = e.op === "same" ? managedPrev!.outputs : e.outputs ?? {};
            return { id, outputs: finish(outputs) };
        }

        try {
            const e = await r.up(undefined, { deferDelete });
            slot.entry = entryFrom(msg, e);
        } finally {
            // Also after a failure: a partially created resource, or the old state of a failed update; no state
            // when a delete-before-replace deleted the old object and the create failed.
            slot.settled = true;
            if (r.state) {
                const inputsState = isSecret(providerWire) ? markSecret(r.state.inputs, PROVIDER_KEY) : r.state.inputs;
                slot.state = {
                    urn: msg.urn, type: msg.type, name: msg.name, parent: msg.parent,
                    id: r.state.id, inputs: inputsState, outputs: finish(r.state.outputs),
                    dependencies: msg.dependencies, protect: msg.protect, retainOnDelete: msg.retainOnDelete,
                    additionalSecretOutputs: msg.additionalSecretOutputs, external: false,
                };
            }
        }
        return { id: slot.state!.id, outputs: slot.state!.outputs };
    }

    /** ReadResource: the engine reads the object with the given id through the provider (also during preview). */
    private async readStep(
        lc: Lifecycle,
        msg: RegisterMessage,
        slot: Slot,
        prev: StateResource | undefined,
        dryRun: boolean,
    ): Promise<{ id: string; outputs: JsonObject }> {
        await lc.ensureConfigured();
        const id = msg.read!.id;
        const res = await lc.host.read(id, msg.urn, msg.inputs);
        if (!res.id) throw new Error(`${msg.urn}: resource '${id}' does not exist`);
        const outputs = markAdditionalSecrets(annotateSecrets(res.props, msg.inputs), msg.additionalSecretOutputs);
        const inputs = res.inputs ? annotateSecrets(res.inputs, msg.inputs) : msg.inputs;
        const changedFields = prev?.external ? changedKeys(prev.outputs, outputs) : Object.keys(outputs).filter((k) => k !== PROVIDER_KEY).sort();
        slot.entry = { urn: msg.urn, name: msg.name, type: msg.type, op: "read", changedFields };
        if (!dryRun) {
            slot.settled = true;
            slot.state = {
                urn: msg.urn, type: msg.type, name: msg.name, parent: msg.parent, id: res.id, inputs, outputs,
                dependencies: msg.dependencies, protect: false, retainOnDelete: false,
                additionalSecretOutputs: msg.additionalSecretOutputs, external: true,
            };
        }
        return { id: res.id, outputs };
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------------------------

/** A forked program-child.ts: its output, exit, and (while spare) not keeping the test process alive. */
class ProgramProcess {
    private text = "";
    readonly exited: Promise<void>;

    constructor(readonly child: ChildProcess) {
        child.stdout!.on("data", (d: Buffer) => (this.text += d.toString()));
        child.stderr!.on("data", (d: Buffer) => (this.text += d.toString()));
        this.exited = new Promise((resolve) => child.once("exit", () => resolve()));
        child.on("error", () => undefined);
        this.setRef(false);
    }

    alive(): boolean {
        return this.child.exitCode === null && this.child.signalCode === null;
    }

    output(): string {
        return this.text;
    }

    ref(): void {
        this.setRef(true);
    }

    kill(): void {
        if (this.alive()) this.child.kill("SIGKILL");
    }

    private setRef(on: boolean): void {
        const handles = [this.child, this.child.channel, this.child.stdout, this.child.stderr] as Array<{ ref?(): void; unref?(): void } | null | undefined>;
        for (const h of handles) (on ? h?.ref : h?.unref)?.call(h);
    }
}

interface Slot {
    msg: RegisterMessage;
    entry?: ProgramPlanEntry;
    /** The step ran (successfully or not) and `state` is what it left; otherwise the old state stands. */
    settled: boolean;
    state?: StateResource;
}

function entryFrom(r: { urn: string; name: string; type: string }, e: PlanEntry): ProgramPlanEntry {
    const { name: _name, ...rest } = e;
    return { urn: r.urn, name: r.name, type: r.type, ...rest };
}

/** A ManagedResource holding a state resource (for refresh / delete). */
function managedFrom(lc: Lifecycle, s: StateResource): ManagedResource {
    const providerText = unwrapSecrets(s.outputs[PROVIDER_KEY] ?? s.inputs[PROVIDER_KEY]);
    if (typeof providerText !== "string") throw new Error(`${s.urn}: no __provider in the state`);
    const inputs: JsonObject = { ...s.inputs };
    delete inputs[PROVIDER_KEY];
    const r = lc.resource(s.type, s.name, providerText, inputs, { urn: s.urn });
    r.state = { id: s.id, inputs: s.inputs, outputs: s.outputs };
    return r;
}

async function deleteResource(lc: Lifecycle, s: StateResource): Promise<ProgramPlanEntry> {
    const entry: ProgramPlanEntry = { urn: s.urn, name: s.name, type: s.type, op: "delete", changedFields: [] };
    if (s.external || s.retainOnDelete) return { ...entry, retained: true };
    await managedFrom(lc, s).destroy();
    return entry;
}

function markSecret(obj: JsonObject, key: string): JsonObject {
    if (!(key in obj) || isSecret(obj[key])) return obj;
    return { ...obj, [key]: secret(obj[key]) };
}

/** The engine marks the outputs named in `additionalSecretOutputs` secret. */
function markAdditionalSecrets(outputs: JsonObject, keys: string[]): JsonObject {
    return keys.reduce((o, k) => markSecret(o, k), outputs);
}

/** Stable topological order: every resource after its dependencies and parent (those present in the list). */
export function topoSort(list: StateResource[]): StateResource[] {
    const byUrn = new Map(list.map((s) => [s.urn, s]));
    const mark = new Map<string, "visiting" | "done">();
    const out: StateResource[] = [];
    const visit = (s: StateResource) => {
        if (mark.has(s.urn)) return; // done, or a cycle (which the SDK cannot produce): keep the given order
        mark.set(s.urn, "visiting");
        for (const d of [s.parent, ...s.dependencies]) {
            const dep = d ? byUrn.get(d) : undefined;
            if (dep) visit(dep);
        }
        mark.set(s.urn, "done");
        out.push(s);
    };
    list.forEach(visit);
    return out;
}

function readProjectFile(cwd: string): { name?: string; main?: string } {
    for (const f of ["Pulumi.yaml", "Pulumi.yml"]) {
        const p = path.join(cwd, f);
        if (!fs.existsSync(p)) continue;
        const doc = (require("yaml") as typeof import("yaml")).parse(fs.readFileSync(p, "utf8")) as { name?: unknown; main?: unknown } | null;
        return {
            name: typeof doc?.name === "string" ? doc.name : undefined,
            main: typeof doc?.main === "string" ? doc.main : undefined,
        };
    }
    return {};
}

function findUp(dir: string, file: string): string | undefined {
    for (let d = path.resolve(dir); ; d = path.dirname(d)) {
        const p = path.join(d, file);
        if (fs.existsSync(p)) return p;
        if (path.dirname(d) === d) return undefined;
    }
}

function clone<T>(v: T): T {
    return JSON.parse(JSON.stringify(v)) as T;
}

function sleep(ms: number): Promise<void> {
    return new Promise((r) => setTimeout(r, ms).unref());
}

function withDeadline<T>(p: Promise<T>, ms: number, message: string): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(message)), ms);
    });
    return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
}

/**
 * Runs `fn` over `items`, at most `limit` at once (default: all). After a failure no new item starts; the ones in
 * flight finish, then the first failure is thrown.
 */
async function forEachLimited<T>(items: T[], limit: number | undefined, fn: (item: T, index: number) => Promise<void>): Promise<void> {
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw new Error(`parallel must be a positive integer, got ${limit}`);
    let next = 0;
    let failure: { error: unknown } | undefined;
    const worker = async () => {
        while (!failure && next < items.length) {
            const i = next++;
            try {
                await fn(items[i]!, i);
            } catch (error) {
                failure ??= { error };
            }
        }
    };
    await Promise.all(Array.from({ length: Math.min(limit ?? items.length, items.length) }, worker));
    if (failure) throw failure.error;
}

/**
 * What `--expect-no-changes` counts as a change: drift or a vanished object on refresh, any step but `same` (a read
 * of an external object changes nothing).
 */
export function planChanges(plan: ProgramPlan): ProgramPlan {
    return plan.filter((e) => (e.op === "refresh" ? e.dropped === true || e.changedFields.length > 0 : e.op !== "same" && e.op !== "read"));
}

function assertNoChanges(plan: ProgramPlan): void {
    const changes = planChanges(plan);
    if (changes.length === 0) return;
    throw new Error(`no changes were expected (expectNoChanges), but ${changes.length} were found:\n${formatPlan(changes)}`);
}

// ---------------------------------------------------------------------------------------------------------------
// Display
// ---------------------------------------------------------------------------------------------------------------

/** `pulumi-nodejs:dynamic/cloudbees:Application` -> `cloudbees:Application`. */
export function shortType(type: string): string {
    return type.replace(/^pulumi-nodejs:dynamic\//, "").replace(/^pulumi-nodejs:dynamic:/, "dynamic:");
}

/**
 * A short human table of a plan: resource, type, operation, changed fields; then a count per operation.
 *
 *   RESOURCE  TYPE         OPERATION  CHANGED FIELDS
 *   core      toy:Team     replace    size, title (replace: title)
 */
export function formatPlan(plan: ProgramPlan): string {
    if (plan.length === 0) return "(no resources)";
    const rows = plan.map((e) => {
        let fields = e.changedFields.join(", ");
        if (e.replaces?.length) fields += `${fields ? " " : ""}(replace: ${e.replaces.join(", ")}${e.deleteBeforeReplace ? ", delete first" : ""})`;
        if (e.dropped) fields = "gone: dropped from the state";
        if (e.retained) fields = "dropped from the state, not deleted";
        return [e.name, shortType(e.type), e.op, fields];
    });
    const header = ["RESOURCE", "TYPE", "OPERATION", "CHANGED FIELDS"];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const line = (cols: string[]) => cols.map((c, i) => (i === cols.length - 1 ? c : c.padEnd(widths[i]))).join("  ").trimEnd();
    const counts = new Map<string, number>();
    for (const e of plan) counts.set(e.op, (counts.get(e.op) ?? 0) + 1);
    const summary = [...counts].map(([op, n]) => `${n} ${op}`).join(", ");
    return [line(header), ...rows.map(line), `(${summary})`].join("\n");
}
