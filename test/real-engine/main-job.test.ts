/**
 * The main job (`npm start`, examples/main-job.ts) with the real CLI: every example's life cycle as the README shows
 * it, its own checks included (it stops with "UNEXPECTED: ..." when one fails). No test ran it before this one, and
 * a change of the drift warning's wording broke it unnoticed.
 */
import { spawn } from "node:child_process";
import * as path from "node:path";
import { realCli } from "./life-cycle";

const ROOT = path.join(__dirname, "..", "..");

it("npm start runs every example's life cycle with the real CLI and says so", async () => {
    const cli = realCli();
    const run = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
        const child = spawn(process.execPath, ["-r", "ts-node/register/transpile-only", "examples/main-job.ts", "--engine", "pulumi"], {
            cwd: ROOT,
            env: { ...process.env, PATH: `${cli.dir}${path.delimiter}${process.env.PATH}`, PULUMI_NODEJS_TRANSPILE_ONLY: "true" },
            stdio: ["ignore", "pipe", "pipe"],
        });
        let output = "";
        child.stdout.on("data", (d) => (output += d));
        child.stderr.on("data", (d) => (output += d));
        child.on("error", reject);
        child.on("exit", (code) => resolve({ code, output }));
    });
    expect({ code: run.code, unexpected: run.output.split("\n").filter((l) => l.includes("UNEXPECTED")) }).toEqual({ code: 0, unexpected: [] });
    expect(run.output).toContain(`engine: the real Pulumi CLI v${cli.version}`);
    for (const example of ["examples/index.ts", "examples/flags", "examples/controllers", "examples/pipeline", "examples/promotion"]) {
        expect(run.output).toContain(`######## ${example}`);
    }
}, 600_000);
