/** The Pulumi project a runner runs: Pulumi.yaml's name and main, and the stack config as its program sees it. */
import * as fs from "node:fs";
import * as path from "node:path";
import { isSecret, unwrapSecrets } from "./values";

/** Pulumi.yaml (or .yml) in `cwd`: the project's name and its program (`main`), when given. */
export function readProjectFile(cwd: string): { name?: string; main?: string } {
    for (const f of ["Pulumi.yaml", "Pulumi.yml"]) {
        const p = path.join(cwd, f);
        if (!fs.existsSync(p)) continue;
        const doc = (require("yaml") as typeof import("yaml")).parse(fs.readFileSync(p, "utf8")) as { name?: unknown; main?: unknown } | null;
        return {
            name: typeof doc?.name === "string" ? doc.name : undefined,
            main: typeof doc?.main === "string" ? doc.main : undefined,
        };
    }
    return {};
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
