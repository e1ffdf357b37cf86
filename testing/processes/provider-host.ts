/**
 * Drives the SDK's real dynamic-provider host (`@pulumi/pulumi/cmd/dynamic-provider`) over gRPC, as the Pulumi
 * engine does, so tests exercise what mocks cannot: closure deserialization with `require-from-string`, protobuf
 * Struct conversion, the host's `__provider` lookup, its Configure answer and its error mapping.
 *
 * This layer is the engine's *provider plugin* layer only (one RPC per method, plain JSON in and out). Life-cycle
 * semantics (which RPCs to call, in what order, with which olds) live in `engine.ts`.
 */
import { spawn, type ChildProcess } from "child_process";
import * as path from "path";
import type * as grpcTypes from "@grpc/grpc-js";
import type * as structTypes from "google-protobuf/google/protobuf/struct_pb";
import type * as provpbTypes from "@pulumi/pulumi/proto/provider_pb";
import type * as provgrpcTypes from "@pulumi/pulumi/proto/provider_grpc_pb";
import type {
    CallOptions,
    ConfigureResult,
    InitFailure,
    JsonObject,
    ProviderHost,
    ReadResult,
    StartProviderHostOptions,
} from "./provider-host-api";
import { ProviderHostError } from "./provider-host-api";
import { hostPreloadArgs } from "./host-preload-path";
import { requestNewDeployment } from "./new-deployment";
import { requestOutputBarrier, withoutLine } from "./output-barrier";
import { normalizeForWire, unwrapSecrets } from "../engine/values";

// ---- Module loading: the generated proto code binds to the @grpc/grpc-js and google-protobuf copies that
// @pulumi/pulumi itself resolves; a Struct from another google-protobuf copy would not be accepted by its messages.

/** The folder of the @pulumi/pulumi this harness is compiled against (its proto definitions are used client-side). */
export const pulumiRoot: string = path.dirname(require.resolve("@pulumi/pulumi/package.json"));

function requireFromPulumi<T>(id: string): T {
    return require(require.resolve(id, { paths: [pulumiRoot] })) as T;
}

const grpc = requireFromPulumi<typeof grpcTypes>("@grpc/grpc-js");
const structpb = requireFromPulumi<typeof structTypes>("google-protobuf/google/protobuf/struct_pb");
const provpb = require(path.join(pulumiRoot, "proto", "provider_pb")) as typeof provpbTypes;
const provgrpc = require(path.join(pulumiRoot, "proto", "provider_grpc_pb")) as typeof provgrpcTypes;

export * from "./provider-host-api";

// ---- Struct conversion

function toStruct(value: JsonObject, keepSecrets: boolean): structTypes.Struct {
    // The engine marshals with KeepSecrets = the provider's acceptSecrets (false for this host), so secret
    // wrappers are stripped before they reach the wire; the SDK has already dropped undefined keys.
    const v = normalizeForWire(keepSecrets ? value : unwrapSecrets(value)) as structTypes.JavaScriptValue;
    return structpb.Struct.fromJavaScript(v as Record<string, structTypes.JavaScriptValue>);
}

function fromStruct(s: structTypes.Struct | undefined): JsonObject {
    return s ? (s.toJavaScript() as JsonObject) : {};
}

// ---- Host process

/** Resolve the host script from the program folder first (what the engine runs), else from this harness. */
function resolveHostScript(cwd: string): string {
    let root: string;
    try {
        root = path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [cwd] }));
    } catch {
        root = pulumiRoot;
    }
    return path.join(root, "cmd", "dynamic-provider", "index.js");
}

export async function startProviderHost(options: StartProviderHostOptions): Promise<ProviderHost> {
    const callTimeoutMs = options.callTimeoutMs ?? 20_000;
    const script = resolveHostScript(options.cwd);
    const child: ChildProcess = spawn(
        process.execPath,
        // The engine passes its own address; the host requires the argument but never dials it.
        [...hostPreloadArgs(), script, "127.0.0.1:0"],
        {
            cwd: options.cwd,
            env: {
                ...process.env,
                PULUMI_NODEJS_PROJECT: options.project ?? "project",
                PULUMI_NODEJS_STACK: options.stack ?? "stack",
                ...options.env,
            },
            // ipc: new deployments in the same host (new-deployment.ts).
            stdio: ["ignore", "pipe", "pipe", "ipc"],
        },
    );
    child.channel?.unref();

    let stdoutText = "";
    let stderrText = "";
    let allText = "";
    let taken = 0;
    let exited: ProviderHost["exited"];
    child.stdout!.setEncoding("utf8");
    child.stderr!.setEncoding("utf8");
    const waiters = new Set<() => void>();
    child.stdout!.on("data", (d: string) => {
        stdoutText += d;
        allText += d;
        waiters.forEach((w) => w());
    });
    child.stderr!.on("data", (d: string) => {
        stderrText += d;
        allText += d;
        waiters.forEach((w) => w());
    });
    async function settleOutput(): Promise<void> {
        if (exited || hostPreloadArgs().length === 0 || !child.connected) return;
        const line = await requestOutputBarrier(child, waiters, (l) => stdoutText.includes(l) && stderrText.includes(l), callTimeoutMs);
        [stdoutText, stderrText] = [withoutLine(stdoutText, line, 0).text, withoutLine(stderrText, line, 0).text];
        ({ text: allText, index: taken } = withoutLine(allText, line, taken));
    }
    // Safety net: never leave a host behind if the test process exits without close().
    const killOnExit = () => child.kill("SIGKILL");
    process.once("exit", killOnExit);
    const exitPromise = new Promise<void>((resolve) => {
        child.once("exit", (code, signal) => {
            exited = { code, signal };
            process.off("exit", killOnExit);
            resolve();
        });
    });

    // The first stdout line is the port the host's gRPC server bound to.
    const port = await new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => fail(new Error(`timed out after ${options.startTimeoutMs ?? 15_000} ms`)),
            options.startTimeoutMs ?? 15_000);
        const onData = () => {
            const nl = stdoutText.indexOf("\n");
            if (nl < 0) return;
            const line = stdoutText.slice(0, nl).trim();
            const p = Number(line);
            if (Number.isInteger(p) && p > 0) {
                cleanup();
                resolve(p);
            } else {
                fail(new Error(`unexpected first stdout line ${JSON.stringify(line)}`));
            }
        };
        const onExit = () => fail(new Error(`host exited early (code ${exited?.code}, signal ${exited?.signal})`));
        const onError = (e: Error) => fail(e);
        function cleanup() {
            clearTimeout(timer);
            child.stdout!.off("data", onData);
            child.off("exit", onExit);
            child.off("error", onError);
        }
        function fail(e: Error) {
            cleanup();
            if (!exited) child.kill("SIGKILL");
            reject(new Error(`dynamic-provider host ${script} failed to start: ${e.message}\n--- host output ---\n${allText}`));
        }
        child.stdout!.on("data", onData);
        child.once("exit", onExit);
        child.once("error", onError);
    });

    // Message/metadata limits generous like the engine's Go client, so only the host's own limits show up (e.g. an
    // error whose {id, properties} exceed ~64 KB of trailers: the host never answers, the call hits its deadline).
    const client = new provgrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), {
        "grpc.max_receive_message_length": 400 * 1024 * 1024,
        "grpc.max_send_message_length": 400 * 1024 * 1024,
        "grpc.max_metadata_size": 16 * 1024 * 1024,
        // A pool of its own: the process-wide subchannel pool outlives close() and keeps a jest worker alive.
        "grpc.use_local_subchannel_pool": 1,
    });
    let configureResult: ConfigureResult | undefined;
    let closed = false;

    /** Promisified unary call with a deadline; errors become ProviderHostError carrying the host's detail. */
    function call<Req, Res>(method: string, request: Req): Promise<Res> {
        return new Promise<Res>((resolve, reject) => {
            if (closed) {
                reject(new Error(`${method}: provider host is closed`));
                return;
            }
            const deadline = new Date(Date.now() + callTimeoutMs);
            const stderrMark = stderrText.length;
            const fn = (client as unknown as Record<string, Function>)[method];
            fn.call(client, request, new grpc.Metadata(), { deadline }, (err: grpcTypes.ServiceError | null, res: Res) => {
                if (!err) {
                    resolve(res);
                    return;
                }
                // The host prints the provider's stack trace to stderr just before answering: give the pipe a
                // moment so the error can carry it.
                setTimeout(() => reject(toHostError(method, err, stderrText.slice(stderrMark))), 20);
            });
        });
    }

    function toHostError(method: string, err: grpcTypes.ServiceError, callStderr: string): ProviderHostError {
        const details = err.details || err.message;
        let message = `${method} failed: ${details}`;
        if (err.code === grpc.status.DEADLINE_EXCEEDED && !exited) {
            // Seen in practice: a provider promise that never settles, or a reply the host cannot send at all (an
            // error whose {id, properties} exceed ~64 KB of gRPC trailers hangs the call and breaks the connection).
            message += ` (the host did not answer within ${callTimeoutMs} ms)`;
        }
        if (callStderr.trim() && !exited) message += `\n--- host stderr during this call ---\n${callStderr}`;
        if (exited) {
            message += ` (host exited: code ${exited.code}, signal ${exited.signal})\n--- host stderr ---\n${stderrText}`;
        }
        return new ProviderHostError(message, method, err.code, details, parseInitFailure(err), allText);
    }

    // Secrets policy for requests, from the Configure answer (the engine always configures first).
    const keepSecrets = () => configureResult?.acceptSecrets ?? false;

    /** Diff and Update carry the same olds and news: the old outputs, the checked inputs, and the old inputs. */
    function change<R extends provpbTypes.DiffRequest | provpbTypes.UpdateRequest>(
        req: R, id: string, urn: string, olds: JsonObject, news: JsonObject, opts: CallOptions | undefined,
    ): R {
        req.setId(id);
        req.setUrn(urn);
        req.setOlds(toStruct(olds, keepSecrets()));
        req.setNews(toStruct(news, keepSecrets()));
        if (opts?.oldInputs) req.setOldInputs(toStruct(opts.oldInputs, keepSecrets()));
        return req;
    }

    const host: ProviderHost = {
        port,
        pid: child.pid!,
        get configureResult() {
            return configureResult;
        },
        get exited() {
            return exited;
        },

        async configure(config) {
            const req = new provpb.ConfigureRequest();
            // `args` is what the dynamic host reads (it throws without it); `variables` is the legacy string map
            // the engine also fills. Keys keep their namespace: dynamic providers get the whole stack config.
            const vars = req.getVariablesMap();
            for (const [k, v] of Object.entries(config)) {
                const plain = unwrapSecrets(v);
                vars.set(k, typeof plain === "string" ? plain : JSON.stringify(plain));
            }
            req.setArgs(toStruct(config, true));
            req.setAcceptsecrets(true);
            req.setAcceptresources(true);
            const res = await call<provpbTypes.ConfigureRequest, provpbTypes.ConfigureResponse>("configure", req);
            configureResult = { acceptSecrets: res.getAcceptsecrets(), supportsPreview: res.getSupportspreview() };
            return configureResult;
        },

        async check(urn, olds, news) {
            const req = new provpb.CheckRequest();
            req.setUrn(urn);
            req.setOlds(toStruct(olds, keepSecrets()));
            req.setNews(toStruct(news, keepSecrets()));
            const res = await call<provpbTypes.CheckRequest, provpbTypes.CheckResponse>("check", req);
            return {
                inputs: fromStruct(res.getInputs()),
                failures: res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
            };
        },

        async diff(id, urn, olds, news, opts) {
            const req = change(new provpb.DiffRequest(), id, urn, olds, news, opts);
            const res = await call<provpbTypes.DiffRequest, provpbTypes.DiffResponse>("diff", req);
            const c = res.getChanges();
            const C = provpb.DiffResponse.DiffChanges;
            return {
                changes: c === C.DIFF_SOME ? true : c === C.DIFF_NONE ? false : undefined,
                replaces: res.getReplacesList(),
                deleteBeforeReplace: res.getDeletebeforereplace(),
                diffs: res.getDiffsList(),
            };
        },

        async create(urn, props, opts) {
            const req = new provpb.CreateRequest();
            req.setUrn(urn);
            req.setProperties(toStruct(props, keepSecrets()));
            req.setPreview(opts?.preview ?? false);
            const res = await call<provpbTypes.CreateRequest, provpbTypes.CreateResponse>("create", req);
            return { id: res.getId(), outs: fromStruct(res.getProperties()) };
        },

        async read(id, urn, props, inputs) {
            const req = new provpb.ReadRequest();
            req.setId(id);
            req.setUrn(urn);
            req.setProperties(toStruct(props, keepSecrets()));
            if (inputs) req.setInputs(toStruct(inputs, keepSecrets()));
            const res = await call<provpbTypes.ReadRequest, provpbTypes.ReadResponse>("read", req);
            const out: ReadResult = { id: res.getId(), props: fromStruct(res.getProperties()) };
            if (res.hasInputs()) out.inputs = fromStruct(res.getInputs());
            return out;
        },

        async update(id, urn, olds, news, opts) {
            const req = change(new provpb.UpdateRequest(), id, urn, olds, news, opts);
            req.setPreview(opts?.preview ?? false);
            const res = await call<provpbTypes.UpdateRequest, provpbTypes.UpdateResponse>("update", req);
            return { outs: fromStruct(res.getProperties()) };
        },

        async delete(id, urn, props, opts) {
            const req = new provpb.DeleteRequest();
            req.setId(id);
            req.setUrn(urn);
            req.setProperties(toStruct(props, keepSecrets()));
            if (opts?.oldInputs) req.setOldInputs(toStruct(opts.oldInputs, keepSecrets()));
            await call<provpbTypes.DeleteRequest, unknown>("delete", req);
        },

        output: () => allText,
        stdout: () => stdoutText,
        stderr: () => stderrText,
        takeOutput() {
            const s = allText.slice(taken);
            taken = allText.length;
            return s;
        },

        waitForOutput(pattern, timeoutMs = 2_000) {
            const matches = (t: string) => (typeof pattern === "string" ? t.includes(pattern) : pattern.test(t));
            return new Promise<string>((resolve, reject) => {
                const check = () => {
                    const t = allText.slice(taken);
                    if (!matches(t)) return false;
                    done();
                    resolve(t);
                    return true;
                };
                const timer = setTimeout(() => {
                    done();
                    reject(new Error(`host output did not match ${pattern} within ${timeoutMs} ms; output:\n${allText.slice(taken)}`));
                }, timeoutMs);
                const done = () => {
                    clearTimeout(timer);
                    waiters.delete(check);
                };
                if (!check()) waiters.add(check);
            });
        },

        settleOutput,

        async newDeployment() {
            if (hostPreloadArgs().length === 0 || !child.connected || exited) return false;
            // The last lines of this deployment are not the next one's.
            await settleOutput();
            await requestNewDeployment(child, callTimeoutMs);
            // Its output counted afresh, as a new host's.
            stdoutText = stderrText = allText = "";
            taken = 0;
            return true;
        },

        async close() {
            if (!closed) {
                closed = true;
                client.close();
            }
            if (exited) return;
            child.kill("SIGTERM");
            const timer = setTimeout(() => {
                if (!exited) child.kill("SIGKILL");
            }, 5_000);
            await exitPromise;
            clearTimeout(timer);
        },
    };
    // takeOutput()/waitForOutput() start after the port line.
    taken = allText.length;
    return host;
}

/**
 * create/update errors that carry `id` are sent as a google.rpc.Status in `grpc-status-details-bin` whose detail
 * is a pulumirpc.ErrorResourceInitFailed: the engine then records a partially created resource.
 */
function parseInitFailure(err: grpcTypes.ServiceError): InitFailure | undefined {
    const bin = err.metadata?.get("grpc-status-details-bin")?.[0];
    if (!bin || typeof bin === "string") return undefined;
    try {
        const statuspb = require(path.join(pulumiRoot, "proto", "status_pb")) as {
            Status: { deserializeBinary(b: Uint8Array): { getDetailsList(): Array<{ getTypeName(): string; getValue_asU8(): Uint8Array }> } };
        };
        for (const any of statuspb.Status.deserializeBinary(bin).getDetailsList()) {
            if (any.getTypeName() !== "pulumirpc.ErrorResourceInitFailed") continue;
            const d = provpb.ErrorResourceInitFailed.deserializeBinary(any.getValue_asU8());
            return { id: d.getId(), properties: fromStruct(d.getProperties()), reasons: d.getReasonsList() };
        }
    } catch {
        // Malformed details: report the plain error.
    }
    return undefined;
}
