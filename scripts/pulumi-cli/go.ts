/**
 * Running the go command (and pip) for the build, with failures said in a sentence that names what is missing (Go
 * itself, its version, the module proxy) rather than a stack of Go errors.
 */
import { spawn } from "node:child_process";

/** A failure of the build that the message explains in full. */
export class GoToolError extends Error {
    override name = "GoToolError";
}

export interface GoRun {
    stdout: string;
    stderr: string;
}

/** Runs `go args...` in `cwd`; rejects with the command and the end of its output when it fails. */
export function go(args: string[], cwd: string, env?: NodeJS.ProcessEnv): Promise<GoRun> {
    return tool("go", args, cwd, GO_MISSING, env);
}

const GO_MISSING = "Go is not installed (no `go` on PATH): the real Pulumi CLI is built from its Go modules. Install Go, or put a Pulumi CLI on PATH";

/** Runs `program args...` in `cwd`; `missing` is the message when the program is not installed. */
export function tool(program: string, args: string[], cwd: string, missing: string, env?: NodeJS.ProcessEnv): Promise<GoRun> {
    return new Promise((resolve, reject) => {
        const child = spawn(program, args, { cwd, env: env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (b: Buffer) => (stdout += b.toString()));
        child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
        child.on("error", (e: NodeJS.ErrnoException) => reject(e.code === "ENOENT" ? new GoToolError(missing) : e));
        child.on("close", (code) => {
            if (code === 0) resolve({ stdout, stderr });
            else reject(new GoToolError(`\`${program} ${args.join(" ")}\` failed (exit ${code}):\n${tail(stderr || stdout, 15)}`));
        });
    });
}

/** The Go of this machine: `go1.26.8` -> `1.26.8`. */
export async function goVersion(cwd: string): Promise<string> {
    const { stdout } = await go(["env", "GOVERSION"], cwd);
    return stdout.trim().replace(/^go/, "");
}

/** What the module proxy says of one module version: its Go version and, when served, its folder once downloaded. */
export async function moduleInfo(module: string, version: string, cwd: string): Promise<{ goVersion?: string }> {
    try {
        const { stdout } = await go(["list", "-m", "-json", `${module}@${version}`], cwd);
        const info = JSON.parse(stdout) as { GoVersion?: string; Error?: { Err?: string } };
        if (info.Error?.Err) throw new GoToolError(info.Error.Err);
        return { goVersion: info.GoVersion };
    } catch (e) {
        if (e instanceof GoToolError && e.message === GO_MISSING) throw e;
        const proxy = await go(["env", "GOPROXY"], cwd).then((r) => r.stdout.trim(), () => "?");
        throw new GoToolError(
            `the Go module proxy (GOPROXY=${proxy}) did not serve ${module}@${version}, which the CLI is built from: ` +
                `${e instanceof Error ? tail(e.message, 3) : String(e)}`,
        );
    }
}

/** The folder of a module of the build's go.mod, in the module cache. */
export async function moduleDir(module: string, cwd: string): Promise<string> {
    const { stdout } = await go(["list", "-m", "-f", "{{.Dir}}", module], cwd);
    return stdout.trim();
}

/** The last `lines` lines of a text. */
function tail(text: string, lines: number): string {
    return text.trim().split("\n").slice(-lines).join("\n");
}

/** Any other failure of the build, said once. */
export function goProblem(e: unknown): string {
    return e instanceof Error ? e.message : String(e);
}
