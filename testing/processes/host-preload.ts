/**
 * Preloaded into every provider host and program process this kit starts (`node --require`: provider-host.ts,
 * program-process.ts), to make their start cheap.
 *
 * At start, @pulumi/pulumi loads large modules that a provider host never uses (DEFERRED lists them and says who
 * does): those of closure *serialization*, which happens in the program (`typescript`, `@npmcli/arborist` and its
 * helpers), the Automation API, and what only a program's own calls read (`semver`, `@opentelemetry/api`). Measured
 * on a 2-core machine they are over two thirds of a host's start (0.85 of 1.25 s of CPU, then 30 ms of the 300 left),
 * and a suite starts a host per deployment, as the engine does. Each gets a stand-in that loads the real module at
 * its first use: a host that did use one would still get it, and a program gets typescript when it first serializes
 * a provider. Nothing else is touched, and only those requires from those files.
 */
import Module = require("node:module");

interface Deferred {
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

const DEFERRED: Deferred[] = [
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
function standIn(load: () => object, { esModule, callable }: Deferred): object {
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

type Parent = { filename?: string } | undefined;
type Load = (request: string, parent: Parent, isMain: boolean) => unknown;
const loader = Module as unknown as { _load: Load; _resolveFilename(request: string, parent: Parent, isMain: boolean): string };
const load = loader._load;
loader._load = function (request, parent, isMain) {
    const filename = parent?.filename?.split("\\").join("/");
    const deferred = filename && DEFERRED.find((d) => d.request === request && filename.endsWith(d.from));
    if (!deferred || !resolvable(request, parent, isMain)) return load.call(this, request, parent, isMain);
    return standIn(() => load.call(this, request, parent, isMain) as object, deferred);
};

/**
 * Whether the real require would find the module. One that is not installed throws at once, as without this preload:
 * typescript-shim.js catches that and falls back to the SDK's vendored TypeScript (a JavaScript project has none).
 */
function resolvable(request: string, parent: Parent, isMain: boolean): boolean {
    try {
        loader._resolveFilename(request, parent, isMain);
        return true;
    } catch {
        return false;
    }
}
