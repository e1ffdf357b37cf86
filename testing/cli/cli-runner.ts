/**
 * The same runner as ProgramRunner, with the real engine: each step is the Pulumi CLI's own `up`, `preview`,
 * `refresh` or `destroy`, run as Pulumi's Automation API runs it (its event log read for the plan), with the stack,
 * its config and its export through the Automation API's LocalWorkspace, on a file backend, a PULUMI_HOME and a
 * passphrase of its own in a temp folder, with no update check and no plugin download.
 *
 * The workspace is a copy of the project's Pulumi.yaml in that temp folder whose `main` is the program's absolute
 * path, so the program runs from its own folder while the stack's config file (Pulumi.<stack>.yaml, with the
 * passphrase's salt that `stack init`, `stack output` and `stack export` write) stays out of the project folder.
 *
 * Plans, step records, outputs and state have the kit's forms (cli-events.ts, cli-state.ts), so a test runs the
 * same way through either engine.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { EngineEvent, LocalWorkspace } from "@pulumi/pulumi/automation";
import { EventRecorder, recorderCallback } from "./cli-events";
import { stateOfExport, type ExportedDeployment } from "./cli-state";
import { unexpectedChanges, type ProgramPlan } from "../engine/plan";
import type { JsonObject } from "../processes/provider-host";
import { findPulumiCli, isolatedCliEnvironment, sdkVersion, sharedCliEnvironment, type PulumiCli } from "./pulumi-cli";
import type { ProgramRunnerOptions, RunStepOptions, StackRunner } from "../processes/runner-options";
import { emptyState, type ProgramState } from "../engine/state";
import { failureText, ProgramRunError, warningsOf, type StepRecord } from "../engine/step-record";
import { isSecret, unwrapSecrets } from "../engine/values";
import { hostPreloadArgs } from "../processes/host-preload-path";

export interface PulumiCliRunnerOptions extends Omit<ProgramRunnerOptions, "stateFile" | "prestart" | "tsconfig" | "callTimeoutMs"> {
    /** The CLI to run: default findPulumiCli() (the repository's cache, or a `pulumi` on PATH). */
    cli?: PulumiCli;
    /**
     * Start the Node.js processes the CLI runs (the program, the dynamic-provider host, Node.js plugins) with the kit's
     * preload (default true), as the stand-in starts its own: it defers the modules of @pulumi/pulumi that a host never
     * uses until their first use (host-preload.ts), about a second of CPU per process. The engine, the language host
     * and what each process does are unchanged; `false` starts them exactly as a terminal would.
     */
    preload?: boolean;
    /**
     * An estate of stacks to put this one in: the workspace is `<folder>/<workspace>` (not a temp folder of the runner's
     * own), and the file backend, PULUMI_HOME and passphrase are those of every runner given the same folder
     * (sharedCliEnvironment), so `pulumi-cloudbees drift --stack <workspace>#<stack>` run in the folder with
     * `environment` checks them all at once. The folder is the caller's: close() leaves it.
     */
    estate?: { folder: string; workspace: string };
}

export class PulumiCliRunner implements StackRunner {
    readonly config: Record<string, unknown>;
    last: StepRecord | undefined;
    private st: ProgramState = emptyState();
    private written: Record<string, unknown> = {};
    private queue: Promise<unknown> = Promise.resolve();
    private closed = false;
    /** Commands run so far: each has an event log of its own. */
    private commands = 0;

    private constructor(
        private readonly opts: PulumiCliRunnerOptions,
        readonly project: string,
        readonly stack: string,
        /** The temp folder: the workspace (Pulumi.yaml, Pulumi.<stack>.yaml), the backend and PULUMI_HOME. */
        private readonly home: string,
        private readonly cli: PulumiCli,
        private readonly ws: LocalWorkspace,
        private readonly env: Record<string, string>,
    ) {
        this.config = { ...(opts.config ?? {}) };
    }

    static async start(opts: PulumiCliRunnerOptions): Promise<PulumiCliRunner> {
        const cwd = path.resolve(opts.cwd);
        const cli = opts.cli ?? findPulumiCli(sdkVersion(cwd));
        if (!cli) {
            throw new Error(
                `no Pulumi CLI for @pulumi/pulumi ${sdkVersion(cwd)} was found (a pulumi on PATH of that version or later, or the cache of ` +
                    "`npm run pulumi-cli` in the pulumi-cloudbees repository): install the Pulumi CLI, or use the engine stand-in",
            );
        }
        const auto = require("@pulumi/pulumi/automation") as typeof import("@pulumi/pulumi/automation");
        const estate = opts.estate;
        const home = estate ? path.join(estate.folder, estate.workspace) : fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-cloudbees-cli-"));
        if (estate) {
            if (!/^[\w.-]+$/.test(estate.workspace) || /^\.+$/.test(estate.workspace)) throw new Error(`estate.workspace ${JSON.stringify(estate.workspace)} is not a folder name`);
            fs.mkdirSync(estate.folder, { recursive: true, mode: 0o700 });
            fs.mkdirSync(home); // a workspace of another runner is not taken over
        }
        try {
            const project = writeWorkspaceProject(cwd, home, opts.program, opts.project);
            const { PULUMI_HOME: pulumiHome, ...isolated } = estate ? sharedCliEnvironment(cli, estate.folder) : isolatedCliEnvironment(cli, home);
            const env: Record<string, string> = { ...(opts.env ?? {}), ...isolated, ...(opts.preload === false ? {} : preloadEnvironment(opts.env)) };
            // PulumiCommand.get looks for <root>/bin/pulumi, the layout of the cache and of Pulumi's installs.
            const pulumiCommand = await auto.PulumiCommand.get({
                root: path.basename(cli.dir) === "bin" ? path.dirname(cli.dir) : undefined,
                skipVersionCheck: true,
            });
            const ws = await auto.LocalWorkspace.create({ workDir: home, pulumiHome, envVars: env, pulumiCommand });
            const stack = opts.stack ?? "stack";
            await auto.Stack.create(stack, ws);
            return new PulumiCliRunner({ ...opts, cwd }, project, stack, home, cli, ws, { ...env, PULUMI_HOME: pulumiHome });
        } catch (e) {
            if (!estate) fs.rmSync(home, { recursive: true, force: true });
            throw e;
        }
    }

    /** The stack's config file, as `pulumi config set` writes it: `Pulumi.<stack>.yaml` in the workspace. */
    get configFile(): string {
        return path.join(this.home, `Pulumi.${this.stack}.yaml`);
    }

    /** The environment every `pulumi` command of this runner gets (backend, home, passphrase, PATH). */
    get environment(): Record<string, string> {
        return { ...this.env };
    }

    setConfig(key: string, value: unknown): void {
        if (value === undefined) delete this.config[key];
        else this.config[key] = value;
    }

    up(program?: string, opts?: RunStepOptions): Promise<ProgramPlan> {
        return this.serial("up", program, opts);
    }

    preview(program?: string, opts?: RunStepOptions): Promise<ProgramPlan> {
        return this.serial("preview", program, opts);
    }

    refresh(opts?: RunStepOptions): Promise<ProgramPlan> {
        return this.serial("refresh", undefined, opts);
    }

    destroy(opts?: RunStepOptions): Promise<ProgramPlan> {
        return this.serial("destroy", undefined, opts);
    }

    outputs(): JsonObject {
        return structuredClone(this.st.outputs);
    }

    state(): ProgramState {
        return structuredClone(this.st);
    }

    /**
     * Runs `pulumi <args> --stack <stack>` in the workspace with the runner's environment, as a user would in a
     * terminal (`stack output --show-secrets`, `stack export`, `preview --diff`...), with the config written first;
     * resolves with the exit code: a failure is an answer, not an exception.
     */
    async run(args: string[], options: { timeoutMs?: number; env?: Record<string, string> } = {}): Promise<{ stdout: string; stderr: string; code: number; timedOut?: boolean }> {
        await this.writeConfig();
        const all = [...args, "--stack", this.stack, "--non-interactive", "--color", "never"];
        return new Promise((resolve, reject) => {
            execFile(
                path.join(this.cli.dir, "pulumi"),
                all,
                { cwd: this.home, env: { ...process.env, ...this.env, ...options.env }, maxBuffer: 64 * 1024 * 1024, timeout: options.timeoutMs ?? 0 },
                (error, stdout, stderr) => {
                    if (error && typeof error.code !== "number" && !error.killed) reject(error);
                    else resolve({ stdout, stderr, code: error ? (typeof error.code === "number" ? error.code : 1) : 0, ...(error?.killed ? { timedOut: true } : {}) });
                },
            );
        });
    }

    async close(): Promise<void> {
        if (this.closed) return;
        this.closed = true;
        await this.queue.catch(() => undefined);
        if (!this.opts.estate) fs.rmSync(this.home, { recursive: true, force: true });
    }

    // -----------------------------------------------------------------------------------------------------------

    private serial(kind: StepRecord["kind"], program: string | undefined, opts: RunStepOptions | undefined): Promise<ProgramPlan> {
        if (this.closed) return Promise.reject(new Error("PulumiCliRunner is closed"));
        if (program !== undefined) {
            return Promise.reject(new Error(`the real engine runs the project's program; ${kind}(${JSON.stringify(program)}) names another`));
        }
        const next = this.queue.then(() => this.step(kind, opts));
        this.queue = next.catch(() => undefined);
        return next;
    }

    private async step(kind: StepRecord["kind"], opts: RunStepOptions | undefined): Promise<ProgramPlan> {
        const started = Date.now();
        const recorder = new EventRecorder(kind, this.st.resources);
        const timeoutMs = opts?.timeoutMs ?? this.opts.timeoutMs;
        let failure: unknown;
        try {
            await this.writeConfig();
            await this.command(kind, opts, recorderCallback(recorder), timeoutMs);
        } catch (e) {
            failure = e;
        }
        // A preview changes nothing; after anything else the state is read back, failed or not.
        if (kind !== "preview") this.st = stateOfExport((await this.ws.exportStack(this.stack)) as unknown as ExportedDeployment);
        const plan = recorder.plan;
        const hostOutput = recorder.hostOutput;
        this.last = {
            kind,
            plan: [...plan],
            outputs: kind === "preview" ? undefined : this.outputs(),
            programOutput: recorder.programOutput,
            hostOutput,
            warnings: warningsOf(hostOutput),
            echoed: [],
            durationMs: Date.now() - started,
        };
        if (failure !== undefined) {
            // --expect-no-changes fails without an error diagnostic: say it as the stand-in does.
            const cause =
                recorder.errorMessages.join("\n") ||
                (opts?.expectNoChanges ? unexpectedChanges(plan) : undefined) ||
                lastLines(String((failure as Error).message ?? failure));
            throw new ProgramRunError(failureText(kind, cause, hostOutput), kind, [...plan], recorder.programOutput, hostOutput, failure);
        }
        return plan;
    }

    /**
     * The CLI's own command, as the Automation API runs it (`--event-log`, `--exec-kind auto.local`), without the
     * Automation API's reads after it (`stack output` twice and `stack history` after an up, `stack history` after a
     * refresh or destroy): the runner reads the state once, by `stack export`, and each of those reads decrypts the
     * stack's secrets (the passphrase's key derivation, about half a second of CPU each). The events are the engine's
     * own, read from the log once the command has ended, in order.
     */
    private async command(kind: StepRecord["kind"], opts: RunStepOptions | undefined, onEvent: (event: EngineEvent) => void, timeoutMs: number | undefined): Promise<void> {
        const args = kind === "preview" ? ["preview"] : [kind, "--yes", "--skip-preview"];
        if (opts?.refresh && (kind === "up" || kind === "preview")) args.push("--refresh");
        if (opts?.expectNoChanges && kind !== "destroy") args.push("--expect-no-changes");
        if (opts?.parallel !== undefined) args.push("--parallel", String(opts.parallel));
        const log = path.join(this.home, `events-${++this.commands}.jsonl`);
        args.push("--event-log", log, "--exec-kind", "auto.local");
        const result = await this.run(args, { timeoutMs, env: { PULUMI_DEBUG_COMMANDS: "true" } });
        const events = fs.existsSync(log) ? fs.readFileSync(log, "utf8").split("\n") : [];
        fs.rmSync(log, { force: true });
        for (const line of events) if (line.trim()) onEvent(JSON.parse(line) as EngineEvent);
        if (result.code !== 0) {
            throw new Error(`pulumi ${kind} exited ${result.code}${result.timedOut ? ` after its deadline of ${timeoutMs} ms` : ""}:\n${result.stdout}\n${result.stderr}`);
        }
    }

    /** The config file holds exactly `config`: removed keys removed, changed ones set (the salt stays). */
    private async writeConfig(): Promise<void> {
        const removed = Object.keys(this.written).filter((k) => !(k in this.config));
        if (removed.length) await this.ws.removeAllConfig(this.stack, removed);
        const changed = Object.entries(this.config).filter(([k, v]) => JSON.stringify(this.written[k]) !== JSON.stringify(v));
        if (changed.length) {
            const values = changed.map(([k, v]) => {
                const plain = unwrapSecrets(v);
                return [k, { value: typeof plain === "string" ? plain : JSON.stringify(plain), secret: isSecret(v) }] as const;
            });
            await this.ws.setAllConfig(this.stack, Object.fromEntries(values));
        }
        this.written = structuredClone(this.config);
    }
}

/**
 * Pulumi.yaml of the workspace: the project's own, with `main` made absolute (the program's folder when it gives
 * none), so the program runs where it is. Returns the project's name.
 */
function writeWorkspaceProject(cwd: string, home: string, program: string | undefined, name: string | undefined): string {
    const YAML = require("yaml") as typeof import("yaml");
    const file = ["Pulumi.yaml", "Pulumi.yml"].map((f) => path.join(cwd, f)).find((f) => fs.existsSync(f));
    if (!file) throw new Error(`${cwd} has no Pulumi.yaml: the real engine runs projects`);
    const doc = (YAML.parse(fs.readFileSync(file, "utf8")) ?? {}) as Record<string, unknown>;
    doc.main = path.resolve(cwd, program ?? (typeof doc.main === "string" ? doc.main : "."));
    if (name) doc.name = name;
    fs.writeFileSync(path.join(home, "Pulumi.yaml"), YAML.stringify(doc), { flag: "wx" });
    return String(doc.name);
}

/** NODE_OPTIONS with the kit's preload added to what the caller's (or this process's) NODE_OPTIONS holds. */
function preloadEnvironment(env: Record<string, string> | undefined): Record<string, string> {
    const [flag, file] = hostPreloadArgs();
    if (!flag || !file) return {};
    const existing = env?.NODE_OPTIONS ?? process.env.NODE_OPTIONS ?? "";
    return { NODE_OPTIONS: `${existing} ${flag} ${JSON.stringify(file)}`.trim() };
}

function lastLines(text: string): string {
    return text.trim().split("\n").slice(-12).join("\n");
}
