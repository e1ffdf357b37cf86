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

export class SpareProcesses {
    private spareChild: ProgramProcess | undefined;
    /** The program process of the running step. */
    private childInUse: ProgramProcess | undefined;
    private spareHost: Promise<ProviderHost> | undefined;
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
        if (!this.spareHost) {
            this.spareHost = this.startHost();
            this.spareHost.catch(() => undefined);
        }
        // The running step's process serves the next step when its run ends cleanly.
        if (this.childInUse?.alive()) return;
        if (!this.spareChild || !this.spareChild.alive()) this.spareChild = this.forkProgram();
    }

    /** A provider host for a step: the spare one, unless it died. */
    takeHost(): Promise<ProviderHost> {
        const spare = this.spareHost;
        this.spareHost = undefined;
        if (!spare) return this.startHost();
        return spare.then((h) => (h.exited ? this.startHost() : h), () => this.startHost());
    }

    async closeHost(host: ProviderHost | undefined): Promise<void> {
        if (!host) return;
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
        this.spareChild = undefined;
        this.spareHost = undefined;
        spareChild?.kill();
        await Promise.allSettled([spareHost?.then((h) => this.closeHost(h)), spareChild?.exited]);
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
