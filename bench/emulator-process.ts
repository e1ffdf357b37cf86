/**
 * The emulator in a process of its own, for the bench: its work must not share a CPU queue with the gRPC client
 * that measures the provider host. Forked by emulator-client.ts; answers its questions over IPC.
 */
import * as path from "node:path";
import type { Emulator, EmulatorOptions } from "../emulator";

// The built emulator (`npm run bench` builds first): ts-node would compile the emulator's sources, about 2 s of CPU
// for each of the many emulators the bench starts (one per scale run), against 0.2 s for the built one.
const { startEmulator } = require(path.join(__dirname, "..", "dist", "emulator")) as typeof import("../emulator");

export type EmulatorQuestion =
  | { op: "count"; method: string; path: string; status?: number }
  /** Requests whose path starts with `prefix`, of any of `methods` (all when absent), with `status` when given. */
  | { op: "countPrefix"; prefix: string; methods?: string[]; status?: number }
  | { op: "clear" }
  /** The write requests (POST, PUT, PATCH, DELETE) since the last clear: method, path, query, body text, status. */
  | { op: "writes" }
  | { op: "rateLimit"; on: boolean }
  | { op: "applications"; account: string };

export interface WriteRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: string;
  status: number;
}

export interface EmulatorInfo {
  operationsCenterUrl: string;
  featureManagementUrl: string;
  admin: { username: string; apiToken: string };
  featureManagementToken: string;
  /** Controller full path -> its base URL. */
  controllerUrls: Record<string, string>;
}

let emu: Emulator;

function answer(q: EmulatorQuestion): unknown {
  switch (q.op) {
    case "count":
      return emu.journal.entries().filter((e) => e.method === q.method && e.path === q.path && (q.status === undefined || e.status === q.status)).length;
    case "countPrefix":
      return emu.journal
        .entries()
        .filter((e) => e.path.startsWith(q.prefix) && (!q.methods || q.methods.includes(e.method)) && (q.status === undefined || e.status === q.status)).length;
    case "writes":
      return emu.journal
        .entries()
        .filter((e) => e.method !== "GET" && e.method !== "HEAD")
        .map((e) => ({ method: e.method, path: e.path, query: e.query, body: e.body.toString("utf8"), status: e.status }));
    case "clear":
      emu.journal.clear();
      return null;
    case "rateLimit":
      emu.setFeatureManagementRateLimit(q.on);
      return null;
    case "applications":
      return emu.state.applications(q.account).length;
  }
}

process.once("message", async (options: EmulatorOptions) => {
  emu = await startEmulator(options);
  const info: EmulatorInfo = {
    operationsCenterUrl: emu.operationsCenterUrl,
    featureManagementUrl: emu.featureManagementUrl,
    admin: emu.credentials.admin,
    featureManagementToken: emu.credentials.featureManagementToken,
    controllerUrls: emu.controllerUrls,
  };
  process.on("message", (m: { id: number; question: EmulatorQuestion }) => process.send!({ id: m.id, result: answer(m.question) }));
  process.send!({ id: 0, result: info });
});
process.on("disconnect", () => void emu?.close().finally(() => process.exit(0)));
