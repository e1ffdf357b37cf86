/** The Pulumi project a runner runs: Pulumi.yaml's name and main, and the stack config as its program sees it. */
import * as fs from "node:fs";
import * as path from "node:path";
import { isSecret, unwrapSecrets } from "../engine/values";

/**
 * Pulumi.yaml (or .yml) in `cwd`: the project's name and its program (`main`), when given, and whether the nodejs
 * runtime compiles TypeScript (`runtime.options.typescript`, true unless false, as the language host reads it).
 */
export function readProjectFile(cwd: string): { name?: string; main?: string; typescript: boolean } {
    for (const f of ["Pulumi.yaml", "Pulumi.yml"]) {
        const p = path.join(cwd, f);
        if (!fs.existsSync(p)) continue;
        const doc = (require("yaml") as typeof import("yaml")).parse(fs.readFileSync(p, "utf8")) as { name?: unknown; main?: unknown; runtime?: unknown } | null;
        const runtime = doc?.runtime !== null && typeof doc?.runtime === "object" ? (doc.runtime as { options?: { typescript?: unknown } | null }) : undefined;
        return {
            name: typeof doc?.name === "string" ? doc.name : undefined,
            main: typeof doc?.main === "string" ? doc.main : undefined,
            typescript: runtime?.options?.typescript !== false,
        };
    }
    return { typescript: true };
}

/** The stack config as the program gets it: text values (others as JSON), and the keys that are secret. */
export function programConfig(stackConfig: Record<string, unknown>): { config: Record<string, string>; secretKeys: string[] } {
    const config: Record<string, string> = {};
    const secretKeys: string[] = [];
    for (const [k, v] of Object.entries(stackConfig)) {
        if (isSecret(v)) secretKeys.push(k);
        const plain = unwrapSecrets(v);
        config[k] = typeof plain === "string" ? plain : JSON.stringify(plain);
    }
    return { config, secretKeys };
}

/**
 * The file or folder the SDK's run script (`@pulumi/pulumi/cmd/run`) requires for `program`: a file as it is; for a
 * folder (no `main`, or `main` naming a folder), the entry point of the nearest package.json up from it (`exports`,
 * else `main`), else the folder itself. So a project folder without a package.json of its own, inside a package,
 * runs that package's entry point, under the real engine as here.
 */
export function programEntry(program: string): string {
    if (!fs.statSync(program).isDirectory()) return program;
    let root: string | undefined;
    for (let dir = program; !root; dir = path.dirname(dir)) {
        if (fs.existsSync(path.join(dir, "package.json"))) root = dir;
        else if (path.dirname(dir) === dir) return program;
    }
    let manifest: { exports?: unknown; main?: unknown };
    try {
        manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as typeof manifest;
    } catch {
        return program;
    }
    const dot = manifest.exports !== null && typeof manifest.exports === "object" ? (manifest.exports as Record<string, unknown>)["."] : undefined;
    const conditional = dot !== null && typeof dot === "object" ? (dot as Record<string, unknown>) : {};
    const entry =
        typeof manifest.exports === "string"
            ? manifest.exports
            : manifest.exports !== undefined && manifest.exports !== null && typeof manifest.exports === "object"
              ? typeof dot === "string"
                  ? dot
                  : (conditional.default ?? conditional.require ?? conditional.import)
              : manifest.main;
    if (typeof entry !== "string") return program;
    const resolved = path.join(root, entry);
    return fs.existsSync(resolved) ? resolved : program;
}
