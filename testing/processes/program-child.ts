/**
 * The "language host" side of ProgramRunner, run in its own Node process (one per runner, reused from step to step
 * while its runs end cleanly), forked with ts-node registered: each `up` / `preview` runs the Pulumi program once,
 * its modules required afresh, under the SDK's mocks, and forwards every dynamic resource to the
 * runner (the "engine") over the IPC channel, the way the real language host forwards RegisterResource to the
 * engine's resource monitor. It mirrors @pulumi/pulumi's own language host (cmd/run/run.js and
 * automation/server.js): set the config, run the program inside `runInPulumiStack`, wait for every outstanding RPC
 * (`disconnect`), and treat an uncaught exception / unhandled rejection / `pulumi.log.error` as a failed run.
 *
 * Not a test helper to import: the runner forks this file.
 */
import * as fs from "fs";
import * as path from "path";
import { RUN_END, type AliasSpec, type ChildMessage, type ParentMessage, type RegisterMessage, type StartMessage, type WireObject } from "./program-protocol";

type Callback = (err: unknown, resp?: unknown) => void;

/** sdk/functions/mocks.ts ENGINE_MONITOR, by its global symbol: this file loads no SDK module of ours. */
const ENGINE_MONITOR: unique symbol = Symbol.for("pulumi-cloudbees.engineMonitor");

/** The parts of @pulumi/pulumi/runtime/mocks' MockMonitor this file relies on (`newUrn` is private in its .d.ts). */
interface MockMonitorLike {
    readonly resources: Map<string, { urn: string; id: string | null; state: unknown }>;
    newUrn(parent: string, type: string, name: string): string;
    registerResource(req: any, callback: Callback): Promise<void>;
    readResource(req: any, callback: Callback): Promise<void>;
    registerResourceOutputs(req: any, callback: Callback): void;
}
type MockMonitorClass = new (mocks: unknown) => MockMonitorLike;

const ROOT_STACK_TYPE = "pulumi:pulumi:Stack";

let fatalSent = false;

function send(msg: ChildMessage): Promise<void> {
    return new Promise((resolve, reject) => {
        if (!process.send || !process.connected) return reject(new Error("no IPC channel to the program runner"));
        process.send(msg, undefined, {}, (err) => (err ? reject(err) : resolve()));
    });
}

function describeError(e: unknown): string {
    if (e instanceof Error) {
        // RunError / ResourceError: the SDK's language host hides their stacks too.
        const hide = (e as { __pulumiRunError?: boolean; hideStack?: boolean }).__pulumiRunError || (e as { hideStack?: boolean }).hideStack;
        return hide ? e.message : e.stack || e.message;
    }
    return String(e);
}

async function fatal(e: unknown): Promise<void> {
    if (fatalSent) return;
    fatalSent = true;
    try {
        await send({ kind: "fatal", message: describeError(e) });
    } finally {
        process.exit(1);
    }
}

// Requests waiting for the engine's answer (the runner's "result" messages, dispatched below).
let seq = 0;
const pending = new Map<number, { resolve(v: { id: string; outputs: WireObject }): void; reject(e: Error): void }>();

function ask(msg: Omit<RegisterMessage, "kind" | "seq">): Promise<{ id: string; outputs: WireObject }> {
    return new Promise((resolve, reject) => {
        const s = ++seq;
        pending.set(s, { resolve, reject });
        send({ kind: "register", seq: s, ...msg }).catch(reject);
    });
}

/** The SDK folder of the first run: a later run in this process must use the same copy. */
let firstSdkRoot: string | undefined;

/**
 * Before a later run: the program's modules (everything outside node_modules and the SDK, this file aside) are
 * required afresh, as in a new process, while the SDK stays loaded (the slow part); setMocks resets its settings.
 */
function forgetProgramModules(sdkRoot: string): void {
    const keep = (file: string) => file === __filename || file.includes(`${path.sep}node_modules${path.sep}`) || file.startsWith(sdkRoot + path.sep);
    for (const file of Object.keys(require.cache)) if (!keep(file)) delete require.cache[file];
}

/** The @pulumi/pulumi the program itself resolves (as the language host is part of the program's SDK copy). */
function resolveSdkRoot(programDir: string): string {
    return path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [programDir, process.cwd(), __dirname] }));
}

async function run(start: StartMessage): Promise<void> {
    const programIsDir = fs.statSync(start.program).isDirectory();
    const programDir = programIsDir ? start.program : path.dirname(start.program);
    const sdkRoot = resolveSdkRoot(programDir);
    if (firstSdkRoot === undefined) {
        firstSdkRoot = sdkRoot;
    } else {
        if (sdkRoot !== firstSdkRoot) throw new Error(`program runner: this process runs @pulumi/pulumi at ${firstSdkRoot}, the program needs ${sdkRoot}`);
        forgetProgramModules(sdkRoot);
    }
    const fromSdk = <T>(rel: string): T => require(path.join(sdkRoot, rel)) as T;
    const sdk = fromSdk<typeof import("@pulumi/pulumi")>("index.js");
    const { MockMonitor } = fromSdk<{ MockMonitor: MockMonitorClass }>("runtime/mocks.js");
    const stateMod = fromSdk<{ getStore(): { settings: { monitor: unknown } } }>("runtime/state.js");
    const resproto = fromSdk<typeof import("@pulumi/pulumi/proto/resource_pb")>("proto/resource_pb.js");
    const structpb = require(require.resolve("google-protobuf/google/protobuf/struct_pb", { paths: [sdkRoot] })) as typeof import("google-protobuf/google/protobuf/struct_pb");

    const isDynamic = (type: string, custom: boolean) => custom && type.startsWith("pulumi-nodejs:dynamic");
    const toJs = (s: { toJavaScript(): unknown } | undefined): WireObject => (s ? (s.toJavaScript() as WireObject) : {});

    /** Non-dynamic resources (the stack, components, other providers' resources) are echoed by the mocks. */
    const echo = {
        newResource: (args: { custom?: boolean; name: string; id?: string; inputs: unknown }) => ({
            id: args.custom ? args.id || `${args.name}_id` : undefined,
            state: args.inputs as Record<string, unknown>,
        }),
        call: (args: { token: string }) => {
            throw new Error(`the program runner does not implement invoke '${args.token}'`);
        },
    };

    class EngineMonitor extends MockMonitor {
        /**
         * The engine, not a test's mocks: pulumi-cloudbees' functions call the services, as under `pulumi up`.
         */
        readonly [ENGINE_MONITOR] = true;
        stackOutputs: WireObject = {};
        readonly echoed: string[] = [];

        /** The engine's NewURN: the parent's qualified type chain, except for the root stack. */
        override newUrn(parent: string, type: string, name: string): string {
            let qualified = type;
            if (parent) {
                const parentType = parent.split("::")[2];
                if (parentType && parentType !== ROOT_STACK_TYPE) qualified = `${parentType}$${type}`;
            }
            return `urn:pulumi:${start.stack}::${start.project}::${qualified}::${name}`;
        }

        override async registerResource(req: any, callback: Callback): Promise<void> {
            const type: string = req.getType();
            const urn = this.newUrn(req.getParent(), type, req.getName());
            if (!isDynamic(type, req.getCustom())) {
                this.echoed.push(urn);
                // Before its children register (they wait for this answer): the engine needs its aliases.
                if (!req.getCustom() && type !== ROOT_STACK_TYPE) {
                    await send({ kind: "component", urn, type, name: req.getName(), parent: req.getParent(), aliases: aliasesOf(req) }).catch(() => undefined);
                }
                return super.registerResource(req, callback);
            }
            if (req.getImportid()) {
                return callback(new Error(`${urn}: the import option cannot work for dynamic resources (the engine sends only an id, without __provider; pulumi/pulumi#16175)`), undefined);
            }
            const timeouts = req.getCustomtimeouts();
            const own = {
                inputs: toJs(req.getObject()),
                ignoreChanges: req.getIgnorechangesList(),
                protect: req.getProtect() ?? false,
                retainOnDelete: req.getRetainondelete() ?? false,
                // The SDK always sends a value; only `...defined` tells an unset option from `false`.
                deleteBeforeReplace: req.getDeletebeforereplacedefined() ? req.getDeletebeforereplace() : undefined,
                replaceOnChanges: req.getReplaceonchangesList(),
                aliases: aliasesOf(req),
                customTimeouts: timeouts ? { create: timeouts.getCreate(), update: timeouts.getUpdate(), delete: timeouts.getDelete() } : undefined,
                deletedWith: req.getDeletedwith() ?? "",
                propertyDependencies: propertyDependenciesOf(req),
            };
            await this.forward(req, urn, own, callback, (res) => {
                const resp = new resproto.RegisterResourceResponse();
                resp.setUrn(urn);
                resp.setId(res.id);
                resp.setObject(structpb.Struct.fromJavaScript(res.outputs as Record<string, any>));
                return resp;
            });
        }

        override async readResource(req: any, callback: Callback): Promise<void> {
            const type: string = req.getType();
            if (!isDynamic(type, true)) return super.readResource(req, callback);
            const urn = this.newUrn(req.getParent(), type, req.getName());
            const own = { inputs: toJs(req.getProperties()), ignoreChanges: [], protect: false, retainOnDelete: false, read: { id: req.getId() } };
            await this.forward(req, urn, own, callback, (res) => {
                const resp = new resproto.ReadResourceResponse();
                resp.setUrn(urn);
                resp.setProperties(structpb.Struct.fromJavaScript(res.outputs as Record<string, any>));
                return resp;
            });
        }

        /** Asks the runner (the engine) for the resource's step; records its outputs and answers the SDK. */
        private async forward(
            req: any,
            urn: string,
            own: Omit<RegisterMessage, "kind" | "seq" | "urn" | "type" | "name" | "parent" | "dependencies" | "additionalSecretOutputs">,
            callback: Callback,
            reply: (res: { id: string; outputs: WireObject }) => unknown,
        ): Promise<void> {
            try {
                const res = await ask({
                    urn, type: req.getType(), name: req.getName(), parent: req.getParent(),
                    dependencies: req.getDependenciesList(), additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
                    ...own,
                });
                this.resources.set(urn, { urn, id: res.id || null, state: res.outputs });
                callback(null, reply(res));
            } catch (e) {
                callback(e, undefined);
            }
        }

        override registerResourceOutputs(req: any, callback: Callback): void {
            const urn: string = req.getUrn();
            // The stack's outputs, still in wire form: secrets stay marked, unknowns stay UNKNOWN.
            if (urn.split("::")[2] === ROOT_STACK_TYPE) this.stackOutputs = toJs(req.getOutputs());
            super.registerResourceOutputs(req, callback);
        }
    }

    sdk.runtime.setAllConfig(start.config, start.secretKeys);
    await sdk.runtime.setMocks(echo, start.project, start.stack, start.dryRun, start.organization);
    // setMocks installs a plain MockMonitor as the store's monitor (getMonitor() returns it for the "mock"
    // address); put ours in its place. Fail loudly if the SDK's internals moved.
    const store = stateMod.getStore();
    if (!(store.settings.monitor instanceof MockMonitor)) {
        throw new Error(`program runner: @pulumi/pulumi at ${sdkRoot} no longer keeps the mock monitor in store.settings.monitor`);
    }
    const monitor = new EngineMonitor(echo);
    store.settings.monitor = monitor;

    // cmd/run/run.js, CommonJS branch: require the program; a function export is called; its result awaited.
    const runProgram = async () => {
        const programExport = require(programIsDir && !start.program.endsWith("/") ? start.program + "/" : start.program);
        const invokeResult = programExport instanceof Function ? programExport() : programExport;
        return await invokeResult;
    };
    await sdk.runtime.runInPulumiStack(runProgram);
    // Every registration (and the stack's outputs) has been answered once the RPC queue is drained.
    await sdk.runtime.disconnect();
    if (sdk.log.hasErrors()) {
        throw new Error("One or more errors occurred: the program logged errors (see its output)");
    }
    // The program's output so far reaches the runner before "done" does (pipes and IPC are not ordered together).
    await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
    await send({ kind: "done", outputs: monitor.stackOutputs, echoed: monitor.echoed });
}

/**
 * The aliases of a RegisterResourceRequest: alias specs (the SDK sends them since the mock monitor says it supports
 * `aliasSpecs`), or plain alias URNs from an SDK that computes them itself.
 */
function aliasesOf(req: any): AliasSpec[] {
    const specs: AliasSpec[] = (req.getAliasesList?.() ?? []).map((a: any): AliasSpec => {
        if (!a.hasSpec()) return { urn: a.getUrn() };
        const s = a.getSpec();
        return { name: s.getName(), type: s.getType(), stack: s.getStack(), project: s.getProject(), parentUrn: s.getParenturn(), noParent: s.getNoparent() };
    });
    for (const urn of req.getAliasurnsList?.() ?? []) specs.push({ urn });
    return specs;
}

/** The request's property dependencies: input key -> the URNs its value came from. */
function propertyDependenciesOf(req: any): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    req.getPropertydependenciesMap?.().forEach((deps: any, key: string) => {
        const urns: string[] = deps.getUrnsList();
        if (urns.length) out[key] = urns;
    });
    return out;
}

/** Writes the end-of-run mark (program-protocol.ts RUN_END) and resolves once the stream has taken it. */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
    return new Promise((resolve) => stream.write(RUN_END, () => resolve()));
}

// Boot ahead: the runner forks this process before the step that uses it, so load the SDK (the slow part) now. The
// program itself is only required once the start message arrives.
try {
    const sdkRoot = resolveSdkRoot(process.cwd());
    // Not the closure serializer (an inspector session and TypeScript's parser, 0.4 s of CPU): pulumi-cloudbees'
    // resources ship their provider text, and only a program with dynamic providers of its own serializes.
    for (const m of ["index.js", "runtime/mocks.js", "proto/resource_pb.js"]) require(path.join(sdkRoot, m));
} catch {
    // Resolved again from the program's folder at start.
}

// The SDK's language host fails the run on these too (automation/server.js newUncaughtHandler).
process.on("uncaughtException", (e) => void fatal(e));
process.on("unhandledRejection", (e) => void fatal(e));
// The runner went away (killed at its deadline, or the test process ended).
process.on("disconnect", () => process.exit(2));
// One run at a time: the runner sends the next start only after "done" (a failed run ends the process).
let running = false;
process.on("message", (m: ParentMessage) => {
    if (m.kind === "result") {
        const p = pending.get(m.seq);
        if (!p) return;
        pending.delete(m.seq);
        if (m.ok) p.resolve({ id: m.id, outputs: m.outputs });
        else p.reject(new Error(m.error));
        return;
    }
    if (running) return void fatal(new Error("a start message arrived while the program was running"));
    running = true;
    run(m).then(() => (running = false), fatal);
});
