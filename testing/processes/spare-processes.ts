/**
 * The processes a ProgramRunner's steps run in, booted ahead: while a step runs, the next step's provider host (it
 * loads @pulumi/pulumi, about a second) and, when the running step's program process cannot serve the next step, a
 * program process. A spare host has served nothing yet and is only configured when its step starts, so each
 * deployment still gets a fresh one, as each `pulumi up` does; a program process whose run ended cleanly serves
 * the next step (each run requires the program afresh).
 */
import { ProgramProcess } from "./program-process";
import { startProviderHost, type ProviderHost } from "./provider-host";

export interface SpareProcessOptions {
    cwd: string;
    env?: Record<string, string>;
    tsconfig?: string;
    /** Pulumi.yaml's `runtime.options.typescript`: false runs the program without ts-node. */
    typescript?: boolean;
    project: string;
    stack: string;
    callTimeoutMs?: number;
    /** Boot ahead (default true); otherwise each step starts its own processes. */
    prestart?: boolean;
}

/** A host kept for the next step: it is given to a step whose key (its stack config) is the same. */
interface KeptHost {
    host: ProviderHost;
    key: string;
}

export class SpareProcesses {
    private spareChild: ProgramProcess | undefined;
    /** The program process of the running step. */
    private childInUse: ProgramProcess | undefined;
    private spareHost: Promise<ProviderHost> | undefined;
    private keptHost: KeptHost | undefined;
    /** Whether the running step was given the kept host. */
    private onKeptHost = false;
    /** Provider hosts started and not closed yet, killed if the process exits without close(). */
    private readonly hostPids = new Set<number>();
    private closed = false;
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

    constructor(private readonly opts: SpareProcessOptions) {
        process.once("exit", this.onExit);
    }

    /** Boot a program process and a provider host for the next step. */
    warm(): void {
        if (this.closed || this.opts.prestart === false) return;
        // A step on a kept host will most likely keep it for the next one: no spare beside it.
        if (!this.spareHost && !this.onKeptHost) {
            this.spareHost = this.startHost();
            this.spareHost.catch(() => undefined);
        }
        // The running step's process serves the next step when its run ends cleanly.
        if (this.childInUse?.alive()) return;
        if (!this.spareChild || !this.spareChild.alive()) this.spareChild = this.forkProgram();
    }

    /** A provider host for a step: the kept one when its key is the step's, else the spare one, unless it died. */
    takeHost(key?: string): Promise<ProviderHost> {
        const kept = this.keptHost;
        this.keptHost = undefined;
        this.onKeptHost = kept !== undefined && kept.key === key && !kept.host.exited;
        if (this.onKeptHost) return Promise.resolve(kept!.host);
        if (kept) this.closeHost(kept.host).catch(() => undefined);
        const spare = this.spareHost;
        this.spareHost = undefined;
        if (!spare) return this.startHost();
        return spare.then((h) => (h.exited ? this.startHost() : h), () => this.startHost());
    }

    /**
     * After a step: closes its host, or, given `reuseKey` (the step used only this package's providers), keeps it for
     * the next step with that key once it has started a new deployment.
     */
    async closeHost(host: ProviderHost | undefined, reuseKey?: string): Promise<void> {
        if (!host) return;
        if (reuseKey !== undefined && !this.closed && !this.keptHost && !host.exited && (await host.newDeployment().catch(() => false))) {
            this.keptHost = { host, key: reuseKey };
            return;
        }
        await host.close();
        this.hostPids.delete(host.pid);
    }

    /** The spare program process, unless it last ran another program (a new process then). */
    takeChild(program: string): ProgramProcess {
        const spare = this.spareChild;
        this.spareChild = undefined;
        const proc = spare?.alive() && (spare.program === undefined || spare.program === program) ? spare : undefined;
        if (spare !== proc) spare?.kill();
        const taken = proc ?? this.forkProgram();
        taken.ref();
        this.childInUse = taken;
        return taken;
    }

    /** After a step: its process, alive after a clean run, serves the next one. */
    returnChild(proc: ProgramProcess): void {
        this.childInUse = undefined;
        if (this.closed || !proc.alive()) return;
        if (this.spareChild?.alive()) {
            proc.kill();
            return;
        }
        proc.unref();
        this.spareChild = proc;
    }

    /** Stops the spare processes (the running step's are its own to stop). */
    async close(): Promise<void> {
        this.closed = true;
        process.removeListener("exit", this.onExit);
        const spareChild = this.spareChild;
        const spareHost = this.spareHost;
        const keptHost = this.keptHost?.host;
        this.spareChild = undefined;
        this.spareHost = undefined;
        this.keptHost = undefined;
        spareChild?.kill();
        await Promise.allSettled([spareHost?.then((h) => this.closeHost(h)), this.closeHost(keptHost), spareChild?.exited]);
    }

    private forkProgram(): ProgramProcess {
        return ProgramProcess.fork({ cwd: this.opts.cwd, env: this.opts.env, tsconfig: this.opts.tsconfig, typescript: this.opts.typescript });
    }

    private async startHost(): Promise<ProviderHost> {
        const { cwd, env, project, stack, callTimeoutMs } = this.opts;
        const host = await startProviderHost({ cwd, env, project, stack, callTimeoutMs });
        this.hostPids.add(host.pid);
        return host;
    }
}
