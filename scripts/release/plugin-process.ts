/**
 * A provider plugin process as the engine starts one: the command with the engine's address, its port read from the
 * first line of its stdout, and a gRPC client of its ResourceProvider service. Shared by the release's smoke check
 * (plugin-smoke.ts) and the bench's start figure (bench/plugin-start.ts).
 */
import { spawn, type ChildProcess } from "node:child_process";
import type * as grpcTypes from "@grpc/grpc-js";
import type * as provgrpcTypes from "@pulumi/pulumi/proto/provider_grpc_pb";

const grpc = require("@grpc/grpc-js") as typeof grpcTypes;
const provgrpc = require("@pulumi/pulumi/proto/provider_grpc_pb") as typeof provgrpcTypes;

export interface PluginProcess {
  client: provgrpcTypes.ResourceProviderClient;
  child: ChildProcess;
  /** Closes the client and stops the process. */
  stop(): void;
}

/** Starts `command args... 127.0.0.1:1` (an engine address nothing answers at) and waits for its port. */
export async function startPlugin(command: string, args: string[], options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<PluginProcess> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const child = spawn(command, [...args, "127.0.0.1:1"], { stdio: ["ignore", "pipe", "pipe"], env: options.env ?? process.env });
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let out = "";
      const timer = setTimeout(() => reject(new Error(`${command} did not say its port within ${timeoutMs / 1000} s`)), timeoutMs);
      child.stdout!.on("data", (d: Buffer) => {
        out += d.toString();
        const line = /^(\d+)\r?\n/.exec(out);
        if (line) {
          clearTimeout(timer);
          resolve(Number(line[1]));
        }
      });
      child.on("error", (e) => reject(e));
      child.on("exit", (code) => reject(new Error(`${command} exited ${code} before it said its port:\n${stderr}`)));
    });
    const client = new provgrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    return {
      client,
      child,
      stop: () => {
        client.close();
        child.kill("SIGTERM");
      },
    };
  } catch (e) {
    child.kill("SIGTERM");
    throw e;
  }
}

/** One unary call of the client, as a promise. */
export function call<T>(client: provgrpcTypes.ResourceProviderClient, method: string, request: unknown): Promise<T> {
  const fn = (client as unknown as Record<string, (r: unknown, cb: (e: Error | null, v: T) => void) => void>)[method]!;
  return new Promise<T>((resolve, reject) => fn.call(client, request, (e, v) => (e ? reject(e) : resolve(v))));
}
