/**
 * What the real-engine tier's tests share (the language hosts', the languages', the docs', the README's, import,
 * the plugin's, the main job's): a project folder of their own with the real CLI on PATH, a file
 * backend, a PULUMI_HOME and a passphrase in it, offline (Python installs from the wheels that `npm run pulumi-cli`
 * downloaded, Go with GOPROXY=off on the modules it resolved); the CLI run as a user types it; and a host started
 * alone, asked over its gRPC service what the engine would ask (GetRequiredPackages).
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type * as grpcTypes from "@grpc/grpc-js";
import type * as langgrpcTypes from "@pulumi/pulumi/proto/language_grpc_pb";
import type * as langpbTypes from "@pulumi/pulumi/proto/language_pb";
import type * as structTypes from "google-protobuf/google/protobuf/struct_pb";
import { isolatedCliEnvironment } from "../../testing/cli/pulumi-cli";
import { realCli } from "./life-cycle";

const pulumiRoot = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
const fromPulumi = <T>(id: string): T => require(require.resolve(id, { paths: [pulumiRoot] })) as T;
const grpc = fromPulumi<typeof grpcTypes>("@grpc/grpc-js");
const structpb = fromPulumi<typeof structTypes>("google-protobuf/google/protobuf/struct_pb");
const langpb = require(path.join(pulumiRoot, "proto", "language_pb")) as typeof langpbTypes;
const langgrpc = require(path.join(pulumiRoot, "proto", "language_grpc_pb")) as typeof langgrpcTypes;

export interface Run {
    code: number | null;
    stdout: string;
    stderr: string;
}

/** The wheels of `npm run pulumi-cli` (scripts/pulumi-cli/program-deps.ts), beside the CLI's bin folder. */
export function pythonWheels(): string {
    const dir = path.join(path.dirname(realCli().dir), "python-wheels");
    if (!fs.existsSync(dir)) throw new Error(`no Python wheels in ${dir}: run \`npm run pulumi-cli\` (it downloads them once, from PyPI)`);
    return dir;
}

/** A scratch folder with the CLI's own state in it, and the environment every command of the test gets. */
export function workspace(prefix: string): { dir: string; env: NodeJS.ProcessEnv; cleanup(): void } {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(PULUMI_|npm_|PIP_)/i.test(k)));
    const env: NodeJS.ProcessEnv = {
        ...inherited,
        ...isolatedCliEnvironment(realCli(), dir),
        // Offline: pip from the wheels only, Go from the module cache only.
        PIP_NO_INDEX: "1",
        PIP_FIND_LINKS: pythonWheels(),
        PIP_DISABLE_PIP_VERSION_CHECK: "1",
        GOPROXY: "off",
        GOFLAGS: "-mod=mod",
    };
    return { dir, env, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Runs a command to its end; its exit code is an answer, not an exception. */
export function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
    return new Promise((resolve, reject) => {
        const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
        child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
        child.on("error", reject);
        child.on("close", (code) => resolve({ code, stdout, stderr }));
    });
}

/** Copies a program of test/real-engine/language-hosts/ into `into`. */
export function copyProgram(name: string, into: string): string {
    fs.cpSync(path.join(__dirname, "language-hosts", name), into, { recursive: true });
    return into;
}

export interface ProgramInfo {
    rootDirectory: string;
    programDirectory: string;
    entryPoint?: string;
    options?: Record<string, unknown>;
}

/**
 * Starts `pulumi-language-<language>` alone (no engine: it serves until killed), asks it for the packages the
 * program in `info` requires, and stops it. Each package as `name@version (kind)`.
 */
export async function requiredPackages(language: string, info: ProgramInfo, env: NodeJS.ProcessEnv): Promise<string[]> {
    const host = spawn(path.join(realCli().dir, `pulumi-language-${language}`), [], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    host.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    try {
        const port = await new Promise<number>((resolve, reject) => {
            let out = "";
            host.stdout.on("data", (d: Buffer) => {
                out += d.toString();
                const line = /^(\d+)\n/.exec(out);
                if (line) resolve(Number(line[1]));
            });
            host.on("exit", (code) => reject(new Error(`pulumi-language-${language} exited (${code}) before it served: ${stderr}`)));
        });
        const client = new langgrpc.LanguageRuntimeClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
        const programInfo = new langpb.ProgramInfo()
            .setRootDirectory(info.rootDirectory)
            .setProgramDirectory(info.programDirectory)
            .setEntryPoint(info.entryPoint ?? ".")
            .setOptions(structpb.Struct.fromJavaScript((info.options ?? {}) as Record<string, structTypes.JavaScriptValue>));
        const request = new langpb.GetRequiredPackagesRequest().setInfo(programInfo);
        const response = await new Promise<langpbTypes.GetRequiredPackagesResponse>((resolve, reject) =>
            client.getRequiredPackages(request, (err, res) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(res))),
        );
        client.close();
        return response.getPackagesList().map((p) => `${p.getName()}@${p.getVersion()} (${p.getKind()})`);
    } finally {
        host.kill();
    }
}
