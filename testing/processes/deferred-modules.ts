/**
 * The modules @pulumi/pulumi loads at start that a provider host (or a test file that only declares resources) never
 * uses, and their stand-ins: host-preload.ts gives them to the processes this kit starts, and `npm test`'s jest
 * resolver (test/harness/deferring-resolver.js) to each test file's module registry, where @pulumi/pulumi is loaded
 * afresh for every file. Pure: nothing is hooked by importing this.
 */
export interface Deferred {
    /** The module asked for. */
    request: string;
    /** The end of the path of the @pulumi/pulumi file that asks for it. */
    from: string;
    /**
     * What the stand-in answers for `__esModule` before the real module is loaded. codePaths.js wraps arborist, and
     * index.js the Automation API, in `__importStar`, which would copy (so load) every export unless the module says
     * it is an ES module (both are); given the stand-in, they read from it at first use.
     */
    esModule?: boolean;
    /** The module is a function (normalize-package-data, which codePaths.js calls through `__importDefault`). */
    callable?: boolean;
}

export const DEFERRED: readonly Deferred[] = [
    { request: "typescript", from: "/@pulumi/pulumi/typescript-shim.js" },
    { request: "@npmcli/arborist", from: "/@pulumi/pulumi/runtime/closure/codePaths.js", esModule: true },
    { request: "./automation", from: "/@pulumi/pulumi/index.js", esModule: true },
    // codePaths.js's other helpers: only computeCodePaths (serialization) uses them.
    { request: "normalize-package-data", from: "/@pulumi/pulumi/runtime/closure/codePaths.js", esModule: false, callable: true },
    { request: "fdir", from: "/@pulumi/pulumi/runtime/closure/codePaths.js" },
    // Read only when a program registers a resource with a provider version (rpc.js: semver.eq, semver.gt), when
    // serialization transforms a function (rewriteSuper.js: semver.parse, semver.satisfies) and when a client call
    // carries a trace context (settings.js); a host does none of these. All go through `__importStar`, and both files
    // read only named members of semver, so its stand-in may say it is an ES module (which keeps __importStar from
    // copying, so loading, every export).
    { request: "semver", from: "/@pulumi/pulumi/runtime/rpc.js", esModule: true },
    { request: "semver", from: "/@pulumi/pulumi/runtime/closure/rewriteSuper.js", esModule: true },
    { request: "@opentelemetry/api", from: "/@pulumi/pulumi/runtime/settings.js", esModule: true },
];

/** A module's stand-in: every access (or call) loads the real module (once) and is answered by it. */
export function standIn(load: () => object, { esModule, callable }: Deferred): object {
    let real: object | undefined;
    const target = () => (real ??= load());
    // An arrow function when callable: it has no non-configurable own property that the real module would lack.
    return new Proxy(
        callable ? () => undefined : {},
        {
            apply: (_, self, args) => Reflect.apply(target() as (...a: unknown[]) => unknown, self, args),
            get: (_, key) => (key === "__esModule" && real === undefined && esModule !== undefined ? esModule : Reflect.get(target(), key)),
            set: (_, key, value) => Reflect.set(target(), key, value),
            has: (_, key) => Reflect.has(target(), key),
            ownKeys: () => Reflect.ownKeys(target()),
            getOwnPropertyDescriptor: (_, key) => {
                const descriptor = Reflect.getOwnPropertyDescriptor(target(), key);
                // A proxy may not report a property its (empty) target lacks as non-configurable.
                return descriptor && { ...descriptor, configurable: true };
            },
        },
    );
}
