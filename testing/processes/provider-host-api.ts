/**
 * The provider-host driver's interface (provider-host.ts): what each RPC answers, the options, and the error every
 * failed RPC rejects with.
 */

export type JsonObject = Record<string, unknown>;

export interface CheckFailure {
    property: string;
    reason: string;
}

export interface CheckResult {
    inputs: JsonObject;
    failures: CheckFailure[];
}

export interface DiffResult {
    /**
     * true = DIFF_SOME, false = DIFF_NONE, undefined = DIFF_UNKNOWN (the provider has no diff or left `changes`
     * undefined; the engine then falls back to diffing all old and new inputs, `__provider` included, #12401).
     */
    changes: boolean | undefined;
    replaces: string[];
    deleteBeforeReplace: boolean;
    /** Top-level changed keys as reported by the provider. The dynamic host never fills these: always []. */
    diffs: string[];
}

export interface CreateResult {
    id: string;
    outs: JsonObject;
}

export interface ReadResult {
    /** "" when the provider reported the object gone (read returned no id). */
    id: string;
    props: JsonObject;
    /** Only present when the provider's read returned `inputs` (SDK >= 3.216). */
    inputs?: JsonObject;
}

export interface UpdateResult {
    outs: JsonObject;
}

export interface ConfigureResult {
    acceptSecrets: boolean;
    supportsPreview: boolean;
}

/** Detail of an `ErrorResourceInitFailed`: the provider threw an error carrying `{id, properties, reasons}`. */
export interface InitFailure {
    id: string;
    properties: JsonObject;
    reasons: string[];
}

/** The error every failed RPC rejects with. */
export class ProviderHostError extends Error {
    constructor(
        message: string,
        readonly method: string,
        /** gRPC status code (2 = UNKNOWN for errors thrown by the provider, 4 = DEADLINE_EXCEEDED, 14 = UNAVAILABLE). */
        readonly code: number | undefined,
        /** The host's error detail: for a provider that threw, its error message. */
        readonly details: string,
        /** Present when create/update threw an error carrying an id (a partially created resource). */
        readonly initFailure: InitFailure | undefined,
        /** Everything the host printed so far (its stderr carries the provider's stack trace). */
        readonly hostOutput: string,
    ) {
        super(message);
        this.name = "ProviderHostError";
    }
}

export interface StartProviderHostOptions {
    /** Working directory of the host. `require(...)` inside a serialized provider resolves from here. */
    cwd: string;
    /** Extra environment for the host process (merged over process.env). */
    env?: Record<string, string>;
    /**
     * Project and stack the host believes it runs in: `req.config.get("key")` without a namespace reads
     * `<project>:key`. The host takes them from PULUMI_NODEJS_PROJECT / PULUMI_NODEJS_STACK (its own default is
     * "project" / "stack"). Defaults here match engine.ts's URN defaults.
     */
    project?: string;
    stack?: string;
    /** Per-RPC deadline (ms). The host ignores the engine's timeouts, so without one a stuck provider would hang. */
    callTimeoutMs?: number;
    /** How long to wait for the host to print its port (ms). */
    startTimeoutMs?: number;
}

export interface CallOptions {
    /** Sets CreateRequest/UpdateRequest.preview. NOTE: the dynamic host ignores it and really creates/updates. */
    preview?: boolean;
    /** Old inputs, sent as `oldInputs` where the engine sends them (the dynamic host does not read them). */
    oldInputs?: JsonObject;
}

export interface ProviderHost {
    readonly port: number;
    readonly pid: number;
    /** Set by configure(): the host answers acceptSecrets=false, supportsPreview=false. */
    readonly configureResult: ConfigureResult | undefined;
    /**
     * Stack config for the provider (keys like "cloudbees:apiToken"). Values may be `secret(...)`-wrapped: the
     * engine sends config with secrets kept and the host unwraps each top-level value itself.
     */
    configure(config: Record<string, unknown>): Promise<ConfigureResult>;
    check(urn: string, olds: JsonObject, news: JsonObject): Promise<CheckResult>;
    diff(id: string, urn: string, olds: JsonObject, news: JsonObject, opts?: CallOptions): Promise<DiffResult>;
    create(urn: string, props: JsonObject, opts?: CallOptions): Promise<CreateResult>;
    read(id: string, urn: string, props: JsonObject, inputs?: JsonObject): Promise<ReadResult>;
    update(id: string, urn: string, olds: JsonObject, news: JsonObject, opts?: CallOptions): Promise<UpdateResult>;
    delete(id: string, urn: string, props: JsonObject, opts?: CallOptions): Promise<void>;
    /** All stdout + stderr of the host so far (stdout starts with the port line). */
    output(): string;
    stdout(): string;
    stderr(): string;
    /** Output since the previous takeOutput() call (or since start): handy to assert one step's console output. */
    takeOutput(): string;
    /**
     * Resolves with the output since the previous takeOutput() once it matches `pattern`. The host's stdout/stderr
     * pipes are not ordered with its gRPC answers, so a provider's console line may arrive just after the reply.
     * Rejects after `timeoutMs` with the output seen so far.
     */
    waitForOutput(pattern: string | RegExp, timeoutMs?: number): Promise<string>;
    /**
     * Resolves once everything the host wrote before the call has been received (an output barrier over the kit's
     * IPC channel, output-barrier.ts): read a step's output after it, since a warning may arrive after the answer
     * that followed it. Does nothing for a host that has exited or was started without the kit's preload.
     */
    settleOutput(): Promise<void>;
    /** Exit code / signal once the process has exited. */
    readonly exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    /**
     * Starts a new deployment in this host, as a new host would start one: the provider's clients closed and its reads
     * forgotten, its stack config kept, the output counted afresh. false when it cannot (a host started without the
     * kit's preload): start a new host then.
     */
    newDeployment(): Promise<boolean>;
    /** Closes the channel, kills the host and waits for it to exit. Idempotent. */
    close(): Promise<void>;
}
