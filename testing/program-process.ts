/**
 * The program's process: a forked program-child.ts (with ts-node registered, as the nodejs language host runs
 * TypeScript programs) that runs the program once under the SDK's mocks and asks this side, over IPC
 * (program-protocol.ts), for every dynamic resource's registration.
 *
 * Why a process per run rather than re-running the program in the runner's process under setMocks: jest ignores
 * deletes from require.cache (re-requiring a program would need jest.isolateModules, which also duplicates
 * @pulumi/pulumi); under `jest --coverage` the program's and provider's code would be instrumented, so `__provider`
 * would not be the text a real `pulumi up` serializes; a program that hangs (a closure the SDK cannot serialize
 * leaves the run waiting forever under mocks) or leaks promises/handlers could be abandoned but not stopped;
 * module-level state would leak between runs. A forked process gets a fresh module graph, is compiled by ts-node as
 * the language host does, reports unhandled errors like the language host, and can be killed at the deadline.
 */
import { fork, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { JsonObject } from "./provider-host";
import type { ChildMessage, DoneMessage, RegisterMessage, RegisterResult, StartMessage } from "./program-protocol";

const CHILD_SCRIPT = path.join(__dirname, `program-child${path.extname(__filename) || ".ts"}`);

export interface ForkOptions {
    /** The project folder: the process's working directory. */
    cwd: string;
    env?: Record<string, string>;
    /** tsconfig for ts-node. Default: the nearest tsconfig.json from cwd upwards. */
    tsconfig?: string;
}

/** A forked program-child.ts: its output, exit, and (while spare) not keeping the test process alive. */
export class ProgramProcess {
    private text = "";
    readonly exited: Promise<void>;
    /** Registrations being answered. */
    private readonly inflight = new Set<Promise<unknown>>();

    constructor(readonly child: ChildProcess) {
        child.stdout!.on("data", (d: Buffer) => (this.text += d.toString()));
        child.stderr!.on("data", (d: Buffer) => (this.text += d.toString()));
        this.exited = new Promise((resolve) => child.once("exit", () => resolve()));
        child.on("error", () => undefined);
        this.setRef(false);
    }

    /** Forks program-child.ts for a project; it loads the SDK at once and waits for its start message. */
    static fork(opts: ForkOptions): ProgramProcess {
        const env: Record<string, string | undefined> = { ...process.env, ...opts.env };
        const execArgv: string[] = [];
        let tsNode: string | undefined;
        try {
            tsNode = require.resolve("ts-node/register/transpile-only", { paths: [opts.cwd, __dirname] });
        } catch {
            tsNode = undefined;
        }
        if (tsNode) {
            execArgv.push("--require", tsNode);
            const tsconfig = opts.tsconfig ?? findUp(opts.cwd, "tsconfig.json");
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
            cwd: opts.cwd,
            env,
            execArgv,
            stdio: ["ignore", "pipe", "pipe", "ipc"],
            serialization: "json",
        });
        return new ProgramProcess(child);
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

    /**
     * Starts the program and answers its registrations with `register` until it is done. Rejects when the program
     * fails, its process exits first, or `timeoutMs` passes (with `stuck()` saying why).
     */
    run(
        start: StartMessage,
        register: (msg: RegisterMessage) => Promise<{ id: string; outputs: JsonObject }>,
        timeoutMs: number,
        stuck: () => string,
    ): Promise<DoneMessage> {
        const child = this.child;
        let deadline: NodeJS.Timeout | undefined;
        const outcome = new Promise<DoneMessage>((resolve, reject) => {
            child.on("message", (m: ChildMessage) => {
                if (m.kind === "register") {
                    const p = register(m).then(
                        (res): RegisterResult => ({ kind: "result", seq: m.seq, ok: true, id: res.id, outputs: res.outputs }),
                        (e: unknown): RegisterResult => ({ kind: "result", seq: m.seq, ok: false, error: (e as Error).message ?? String(e) }),
                    ).then((reply) => {
                        if (child.connected) child.send(reply);
                    });
                    this.inflight.add(p);
                    void p.finally(() => this.inflight.delete(p));
                } else if (m.kind === "done") {
                    resolve(m);
                } else if (m.kind === "fatal") {
                    reject(new Error(`the program failed: ${m.message}`));
                }
            });
            void this.exited.then(() => {
                // Give a "fatal"/"done" message sent just before exiting the chance to arrive first.
                setTimeout(() => reject(new Error(
                    `the program process exited (code ${child.exitCode}, signal ${child.signalCode}) before the program finished`,
                )), 50);
            });
            child.once("error", reject);
            deadline = setTimeout(() => reject(new Error(stuck())), timeoutMs).unref();
        });
        child.send(start);
        return outcome.finally(() => clearTimeout(deadline));
    }

    /** After the run: lets the process exit by itself (killed at once after a failure, or after 2 s). */
    async finish(failed: boolean): Promise<void> {
        if (!this.alive()) return;
        if (failed) this.kill();
        await Promise.race([this.exited, sleep(2_000)]);
        this.kill();
    }

    /** Waits for the registrations still being answered (each provider call has its own deadline). */
    async settled(): Promise<void> {
        await Promise.allSettled([...this.inflight]);
    }

    private setRef(on: boolean): void {
        const handles = [this.child, this.child.channel, this.child.stdout, this.child.stderr] as Array<{ ref?(): void; unref?(): void } | null | undefined>;
        for (const h of handles) (on ? h?.ref : h?.unref)?.call(h);
    }
}

function findUp(dir: string, file: string): string | undefined {
    for (let d = path.resolve(dir); ; d = path.dirname(d)) {
        const p = path.join(d, file);
        if (fs.existsSync(p)) return p;
        if (path.dirname(d) === d) return undefined;
    }
}

function sleep(ms: number): Promise<void> {
    return new Promise((r) => setTimeout(r, ms).unref());
}
