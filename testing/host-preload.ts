/**
 * Preloaded into every provider host and program process this kit starts (`node --require`: provider-host.ts,
 * program-process.ts), to make their start cheap.
 *
 * At start, @pulumi/pulumi loads two large modules that only closure *serialization* uses, which happens in the
 * program, never in a provider host: `typescript` (runtime/closure/parseFunction.js, through typescript-shim.js) and
 * `@npmcli/arborist` (runtime/closure/codePaths.js). Measured on a 2-core machine they are two thirds of a host's
 * start (0.8 of 1.2 s of CPU), and a suite starts a host per deployment, as the engine does. Here those two modules
 * get a stand-in that loads the real module at its first use: a host that did use one would still get it, and a
 * program gets typescript when it first serializes a provider. Nothing else is touched, and only those two requires
 * from those two files.
 */
import Module = require("node:module");

interface Deferred {
    /** The module asked for. */
    request: string;
    /** The end of the path of the @pulumi/pulumi file that asks for it. */
    from: string;
    /**
     * What the stand-in answers for `__esModule` before the real module is loaded. codePaths.js wraps arborist in
     * `__importStar`, which would copy (so load) every export unless the module says it is an ES module; given the
     * stand-in, it reads `arborist.Arborist` from it at its first use.
     */
    esModule?: boolean;
}

const DEFERRED: Deferred[] = [
    { request: "typescript", from: "/@pulumi/pulumi/typescript-shim.js" },
    { request: "@npmcli/arborist", from: "/@pulumi/pulumi/runtime/closure/codePaths.js", esModule: true },
];

/** A module's stand-in: every access loads the real module (once) and is answered by it. */
function standIn(load: () => object, esModule: boolean | undefined): object {
    let real: object | undefined;
    const target = () => (real ??= load());
    return new Proxy(
        {},
        {
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

type Load = (request: string, parent: { filename?: string } | undefined, isMain: boolean) => unknown;
const loader = Module as unknown as { _load: Load };
const load = loader._load;
loader._load = function (request, parent, isMain) {
    const filename = parent?.filename?.split("\\").join("/");
    const deferred = filename && DEFERRED.find((d) => d.request === request && filename.endsWith(d.from));
    if (!deferred) return load.call(this, request, parent, isMain);
    return standIn(() => load.call(this, request, parent, isMain) as object, deferred.esModule);
};
