/**
 * The release's check of its own plugin executable, on the platform that built it (each runner of the release
 * workflow): started with a PATH that holds nothing (so no `node`), it must say its port and report package.json's
 * version through GetPluginInfo, as the engine asks. A broken executable stops `npm run release` before it is archived.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type * as grpcTypes from "@grpc/grpc-js";
import type * as provgrpcTypes from "@pulumi/pulumi/proto/provider_grpc_pb";

const grpc = require("@grpc/grpc-js") as typeof grpcTypes;
const provgrpc = require("@pulumi/pulumi/proto/provider_grpc_pb") as typeof provgrpcTypes;
const emptypb = require("google-protobuf/google/protobuf/empty_pb") as { Empty: new () => unknown };

const START_TIMEOUT_MS = 60_000;

export async function smokeTestPlugin(file: string, version: string): Promise<void> {
  const emptyPath = fs.mkdtempSync(path.join(os.tmpdir(), "plugin-smoke-path-"));
  const child = spawn(file, ["127.0.0.1:1"], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, PATH: emptyPath } });
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let out = "";
      const timer = setTimeout(() => reject(new Error(`${file} did not say its port within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
      child.stdout!.on("data", (d: Buffer) => {
        out += d.toString();
        const line = /^(\d+)\r?\n/.exec(out);
        if (line) {
          clearTimeout(timer);
          resolve(Number(line[1]));
        }
      });
      child.on("error", (e) => reject(e));
      child.on("exit", (code) => reject(new Error(`${file} exited ${code} before it said its port, without Node.js on PATH:\n${stderr}`)));
    });
    const client = new provgrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    try {
      const reported = await new Promise<string>((resolve, reject) =>
        client.getPluginInfo(new emptypb.Empty() as never, (e, info) => (e ? reject(e) : resolve(info.getVersion()))),
      );
      if (reported !== version) throw new Error(`${file} reports version ${JSON.stringify(reported)}, the release is ${version}`);
    } finally {
      client.close();
    }
  } finally {
    child.kill("SIGTERM");
    fs.rmSync(emptyPath, { recursive: true, force: true });
  }
}
