/**
 * The program's process: a forked program-child.ts (with ts-node registered, as the nodejs language host runs
 * TypeScript programs) that runs the program under the SDK's mocks, once per step, and asks this side, over IPC
 * (program-protocol.ts), for every dynamic resource's registration.
 *
 * Why a process rather than running the program in the runner's process under setMocks: jest ignores deletes from
 * require.cache (re-requiring a program would need jest.isolateModules, which also duplicates @pulumi/pulumi); under
 * `jest --coverage` the program's and provider's code would be instrumented, so `__provider` would not be the text a
 * real `pulumi up` serializes; a program that hangs (a closure the SDK cannot serialize leaves the run waiting
 * forever under mocks) or leaks promises/handlers could be abandoned but not stopped. A forked process is compiled by
 * ts-node as the language host does, reports unhandled errors like the language host, and can be killed at the
 * deadline.
 *
 * One process serves a runner's steps (loading the SDK and TypeScript is most of a step's CPU): each run requires
 * the program's modules afresh and resets the SDK with setMocks; a run that fails ends the process, and the next
 * step gets a new one.
 */
import { fork, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { hostPreloadArgs } from "./host-preload-path";
import type { JsonObject } from "./provider-host";
import { RUN_END, type ChildMessage, type ComponentMessage, type DoneMessage, type RegisterMessage, type RegisterResult, type StartMessage } from "./program-protocol";

const CHILD_SCRIPT = path.join(__dirname, `program-child${path.extname(__filename) || ".ts"}`);

export interface ForkOptions {
    /** The project folder: the process's working directory. */
    cwd: string;
    env?: Record<string, string>;
    /** tsconfig for ts-node. Default: the nearest tsconfig.json from cwd upwards. */
    tsconfig?: string;
    /**
     * False: the program is JavaScript and ts-node is not registered (Pulumi.yaml's `runtime.options.typescript:
     * false`, as the nodejs language host runs it), unless the kit itself runs from TypeScript sources.
     */
    typescript?: boolean;
}

/** A forked program-child.ts: its output, exit, and (while spare) not keeping the test process alive. */
export class ProgramProcess {
    /** Everything the process printed, end-of-run marks removed. */
    private text = "";
    /** Where the current run's output starts in `text`. */
    private runStart = 0;
    /** Per stream: text held back that may be the start of a mark, and the marks seen. */
    private readonly streams = { stdout: { held: "", marks: 0 }, stderr: { held: "", marks: 0 } };
    private readonly markWaiters = new Set<() => void>();
    /** Runs that ended with "done". */
    private runs = 0;
    /** The program of the last run: a step of another program gets a new process. */
    program: string | undefined;
    readonly exited: Promise<void>;
    /** Registrations being answered. */
    private readonly inflight = new Set<Promise<unknown>>();

    constructor(readonly child: ChildProcess) {
        child.stdout!.on("data", (d: Buffer) => this.take("stdout", d.toString()));
        child.stderr!.on("data", (d: Buffer) => this.take("stderr", d.toString()));
        this.exited = new Promise((resolve) => child.once("exit", () => resolve()));
        child.on("error", () => undefined);
        this.setRef(false);
    }

    /** Forks program-child.ts for a project; it loads the SDK at once and waits for its start message. */
    static fork(opts: ForkOptions): ProgramProcess {
        // ts-node loads typescript through v8-compile-cache-lib, whose blob in the temp folder processes running at once
        // read and write unsynchronized: a torn blob crashes V8 (SIGTRAP in its code-cache deserializer; nodejs/node#51555,
        // seen in engine-options.test.ts under npm test's four workers). A runner's program processes run side by side.
        const env: Record<string, string | undefined> = { DISABLE_V8_COMPILE_CACHE: "1", ...process.env, ...opts.env };
        // The program loads what the preload defers at its first use (typescript when it serializes its providers).
        const execArgv: string[] = [...hostPreloadArgs()];
        let tsNode: string | undefined;
        try {
            if (opts.typescript !== false || CHILD_SCRIPT.endsWith(".ts")) tsNode = require.resolve("ts-node/register/transpile-only", { paths: [opts.cwd, __dirname] });
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

    /** The output of the current (or last) run: for the first run, what the process printed since it started. */
    output(): string {
        return this.text.slice(this.runStart);
    }

    ref(): void {
        this.setRef(true);
    }

    unref(): void {
        this.setRef(false);
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
        component?: (msg: ComponentMessage) => void,
    ): Promise<DoneMessage> {
        const child = this.child;
        this.program = start.program;
        if (this.runs > 0) this.runStart = this.text.length;
        let deadline: NodeJS.Timeout | undefined;
        let detach = () => undefined as void;
        const outcome = new Promise<DoneMessage>((resolve, reject) => {
            const onMessage = (m: ChildMessage) => {
                if (m.kind === "register") {
                    const p = register(m).then(
                        (res): RegisterResult => ({ kind: "result", seq: m.seq, ok: true, id: res.id, outputs: res.outputs }),
                        (e: unknown): RegisterResult => ({ kind: "result", seq: m.seq, ok: false, error: (e as Error).message ?? String(e) }),
                    ).then((reply) => {
                        if (child.connected) child.send(reply);
                    });
                    this.inflight.add(p);
                    void p.finally(() => this.inflight.delete(p));
                } else if (m.kind === "component") {
                    component?.(m);
                } else if (m.kind === "done") {
                    resolve(m);
                } else if (m.kind === "fatal") {
                    reject(new Error(`the program failed: ${m.message}`));
                }
            };
            child.on("message", onMessage);
            child.once("error", reject);
            detach = () => {
                child.off("message", onMessage);
                child.off("error", reject);
            };
            void this.exited.then(() => {
                // Give a "fatal"/"done" message sent just before exiting the chance to arrive first.
                setTimeout(() => reject(new Error(
                    `the program process exited (code ${child.exitCode}, signal ${child.signalCode}) before the program finished`,
                )), 50);
            });
            deadline = setTimeout(() => reject(new Error(stuck())), timeoutMs).unref();
        });
        child.send(start);
        return outcome.finally(() => {
            clearTimeout(deadline);
            detach();
        });
    }

    /**
     * After the run: a failed one ends the process (killed at once); a clean one has its output complete once both
     * streams have brought the end-of-run mark (at most 2 s), and the process waits for the next run.
     */
    async finish(failed: boolean): Promise<void> {
        if (!this.alive()) return;
        if (failed) {
            this.kill();
            await Promise.race([this.exited, sleep(2_000)]);
            return;
        }
        this.runs++;
        const marked = () => this.streams.stdout.marks >= this.runs && this.streams.stderr.marks >= this.runs;
        await Promise.race([
            this.exited,
            sleep(2_000),
            new Promise<void>((resolve) => {
                const check = () => {
                    if (!marked()) return;
                    this.markWaiters.delete(check);
                    resolve();
                };
                this.markWaiters.add(check);
                check();
            }),
        ]);
    }

    /** Waits for the registrations still being answered (each provider call has its own deadline). */
    async settled(): Promise<void> {
        await Promise.allSettled([...this.inflight]);
    }

    /** Appends a stream's output, end-of-run marks counted and removed (a mark may come in two chunks). */
    private take(name: "stdout" | "stderr", data: string): void {
        const stream = this.streams[name];
        let rest = stream.held + data;
        for (let i = rest.indexOf(RUN_END); i >= 0; i = rest.indexOf(RUN_END)) {
            this.text += rest.slice(0, i);
            rest = rest.slice(i + RUN_END.length);
            stream.marks++;
        }
        let keep = Math.min(rest.length, RUN_END.length - 1);
        while (keep > 0 && !RUN_END.startsWith(rest.slice(rest.length - keep))) keep--;
        this.text += rest.slice(0, rest.length - keep);
        stream.held = rest.slice(rest.length - keep);
        for (const waiter of [...this.markWaiters]) waiter();
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
