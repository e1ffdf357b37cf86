/**
 * The release's check of its own plugin executable, on the platform that built it (each runner of the release
 * workflow): started with a PATH that holds nothing (so no `node`), it must say its port and report package.json's
 * version through GetPluginInfo, as the engine asks. A broken executable stops `npm run release` before it is archived.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type * as plugpbTypes from "@pulumi/pulumi/proto/plugin_pb";
import { call, startPlugin } from "./plugin-process";

const emptypb = require("google-protobuf/google/protobuf/empty_pb") as { Empty: new () => unknown };

export async function smokeTestPlugin(file: string, version: string): Promise<void> {
  const emptyPath = fs.mkdtempSync(path.join(os.tmpdir(), "plugin-smoke-path-"));
  try {
    const plugin = await startPlugin(file, [], { env: { ...process.env, PATH: emptyPath } }).catch((e: Error) => {
      throw new Error(`${e.message} (started without Node.js on PATH)`);
    });
    try {
      const reported = (await call<plugpbTypes.PluginInfo>(plugin.client, "getPluginInfo", new emptypb.Empty())).getVersion();
      if (reported !== version) throw new Error(`${file} reports version ${JSON.stringify(reported)}, the release is ${version}`);
    } finally {
      plugin.stop();
    }
  } finally {
    fs.rmSync(emptyPath, { recursive: true, force: true });
  }
}
