import * as fs from "fs";
import * as path from "path";

/**
 * The built host-preload.js (it defers two modules of @pulumi/pulumi that provider hosts never use, and programs only
 * when they serialize): beside this file when this is the built kit, else (this file run from its sources, under
 * jest) the built copy. Undefined without one: the process then starts as it is, only slower.
 */
export function hostPreloadPath(): string | undefined {
    for (const candidate of [path.join(__dirname, "host-preload.js"), path.join(__dirname, "..", "dist", "testing", "host-preload.js")]) {
        if (fs.existsSync(candidate)) return candidate;
    }
    return undefined;
}
