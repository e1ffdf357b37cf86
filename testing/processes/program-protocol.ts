/**
 * Messages between the program runner (the "engine", in the test process) and the program child (the "language
 * host": the user's program running under the SDK's mocks). They travel over the IPC channel of
 * `child_process.fork` as JSON. Property values are in the engine's wire form: secrets as
 * `{"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value}`, unknowns (preview only) as the
 * UNKNOWN string.
 */

export type WireObject = Record<string, unknown>;

/** Runner -> child: run the program once. */
export interface StartMessage {
    kind: "start";
    /** Absolute path of the program (a file, or a folder with index.ts / index.js / package.json main). */
    program: string;
    project: string;
    stack: string;
    organization: string;
    /** true for `pulumi preview`: the SDK runs with isDryRun() = true. */
    dryRun: boolean;
    /** Stack config as the language host passes it: plain strings, plus the list of keys that are secret. */
    config: Record<string, string>;
    secretKeys: string[];
}

/** Child -> runner: RegisterResource (or ReadResource, `read: true`) of a dynamic resource. */
export interface RegisterMessage {
    kind: "register";
    seq: number;
    urn: string;
    type: string;
    name: string;
    /** Parent URN ("" for none; the stack is the parent of every top-level resource). */
    parent: string;
    /** Wire-form inputs, `__provider` included. For a read: the properties sent with ReadResource. */
    inputs: WireObject;
    /** URNs this resource depends on (dependsOn plus the resources its inputs came from). */
    dependencies: string[];
    additionalSecretOutputs: string[];
    ignoreChanges: string[];
    protect: boolean;
    retainOnDelete: boolean;
    /** The `deleteBeforeReplace` option; undefined when the program left it unset (the provider's diff decides). */
    deleteBeforeReplace?: boolean;
    /** The `replaceOnChanges` property paths. */
    replaceOnChanges?: string[];
    /** The `aliases` option as the SDK sends it to an engine that takes alias specs (the mock monitor does). */
    aliases?: AliasSpec[];
    /** The `customTimeouts` option (Go duration strings, "" when unset). */
    customTimeouts?: { create: string; update: string; delete: string };
    /** The `deletedWith` option: the URN of the resource whose delete takes this one with it ("" for none). */
    deletedWith?: string;
    /** Per input key, the URNs of the resources its value came from. */
    propertyDependencies?: Record<string, string[]>;
    /** ReadResource (`new X(name, props, { id })` / `X.get(...)`): read an existing object, never manage it. */
    read?: { id: string };
}

/**
 * One alias of a registration (proto/alias.proto): an old URN, or the parts that differ from the resource's own
 * (name, type, stack, project, parent), empty strings meaning "the same as now".
 */
export type AliasSpec =
    | { urn: string }
    | { name: string; type: string; stack: string; project: string; parentUrn: string; noParent: boolean };

/** Runner -> child: the engine's answer to a RegisterMessage. */
export type RegisterResult =
    | { kind: "result"; seq: number; ok: true; id: string; outputs: WireObject }
    | { kind: "result"; seq: number; ok: false; error: string };

/** Child -> runner: the program finished and every registration has been answered. */
export interface DoneMessage {
    kind: "done";
    /** Stack outputs in wire form (secrets marked). */
    outputs: WireObject;
    /** Non-dynamic resources the child answered itself (echoed mocks): their URNs, in registration order. */
    echoed: string[];
}

/** Child -> runner: the program failed (threw, an unhandled rejection, an error logged with pulumi.log.error). */
export interface FatalMessage {
    kind: "fatal";
    message: string;
}

/**
 * Child -> runner: a component resource (answered by the mocks, not in the state) and its aliases, so that the
 * engine can give its children the aliases they inherit (a component renamed, moved or retyped).
 */
export interface ComponentMessage {
    kind: "component";
    urn: string;
    type: string;
    name: string;
    parent: string;
    aliases: AliasSpec[];
}

export type ChildMessage = RegisterMessage | DoneMessage | FatalMessage | ComponentMessage;
export type ParentMessage = StartMessage | RegisterResult;

/**
 * Written by the child to its stdout and its stderr at the end of each clean run, before "done": the runner takes a
 * run's output as complete once both streams have brought it (pipes and the IPC channel are not ordered together),
 * and strips it.
 */
export const RUN_END = "\u001epulumi-cloudbees:end-of-run\u001e\n";
