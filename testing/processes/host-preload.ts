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
import { DEFERRED, standIn } from "./deferred-modules";

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

// A provider host of this kit takes "new deployment" and output barrier requests from startProviderHost
// (new-deployment.ts, output-barrier.ts).
if (process.send && process.argv.some((a) => /[\\/]dynamic-provider[\\/]index\.js$/.test(a))) {
    (require("./output-barrier") as typeof import("./output-barrier")).listenForOutputBarriers();
    (require("./new-deployment") as typeof import("./new-deployment")).listenForNewDeployments();
}
