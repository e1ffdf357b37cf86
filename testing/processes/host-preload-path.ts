import * as fs from "fs";
import * as path from "path";

let args: string[] | undefined;

/**
 * `--require <host-preload.js>` for a node process (it defers modules of @pulumi/pulumi that provider hosts never
 * use, and programs only when they serialize or drive the CLI): the copy beside this file when this is the built kit, else (this file
 * run from its sources, under jest) the built copy. None without one: the process then starts as it is, only slower.
 */
export function hostPreloadArgs(): string[] {
    if (!args) {
        const preload = [path.join(__dirname, "host-preload.js"), path.join(__dirname, "..", "..", "dist", "testing", "processes", "host-preload.js")].find((p) => fs.existsSync(p));
        args = preload ? ["--require", preload] : [];
    }
    return args;
}
