/**
 * The self-contained plugin (issue 45) against the Node.js launcher: the time from the process's start until it has
 * answered GetSchema and Configure (what the engine asks first), median of REPS, each a process of its own; and the
 * size of the release's archive. The executable is built here (scripts/release/plugin-executable.ts); the launcher is
 * `node dist/provider/plugin/main.js` with the repository's @pulumi/pulumi.
 *
 * Runnable alone: `npm run bench -- --only plugin` (after `npm run build`).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import type * as provpbTypes from "@pulumi/pulumi/proto/provider_pb";
import { buildPluginExecutable } from "../scripts/release/plugin-executable";
import { call, startPlugin } from "../scripts/release/plugin-process";
import { median, ms, row } from "./table";

const ROOT = path.resolve(__dirname, "..");
const REPS = 7;
const provpb = require("@pulumi/pulumi/proto/provider_pb") as typeof provpbTypes;

/** Starts `command`, waits for its port, asks GetSchema then Configure; the milliseconds that took. */
async function startToConfigured(command: string, args: string[]): Promise<number> {
  const started = performance.now();
  const plugin = await startPlugin(command, args);
  try {
    await call(plugin.client, "getSchema", new provpb.GetSchemaRequest());
    const configure = new provpb.ConfigureRequest();
    configure.setAcceptsecrets(true);
    await call(plugin.client, "configure", configure);
    return performance.now() - started;
  } finally {
    plugin.stop();
  }
}

export async function pluginStartRows(): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "bench-plugin-"));
  try {
    console.error("the plugin's start: the self-contained executable against the Node.js launcher (about 30 s)");
    const version = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;
    const built = await buildPluginExecutable(work, version);
    const launcher = path.join(ROOT, "dist", "provider", "plugin", "main.js");
    const sea: number[] = [];
    const node: number[] = [];
    // Interleaved, so that a busy moment of the machine falls on both.
    for (let i = 0; i < REPS; i++) {
      sea.push(await startToConfigured(built.file, []));
      node.push(await startToConfigured(process.execPath, [launcher]));
    }
    const s = median(sea);
    const n = median(node);
    row(`plugin start until GetSchema and Configure answered, self-contained executable (median of ${REPS})`, ms(s), `${ms(n)} (the Node.js launcher)`, s / n);
    row("plugin executable's size", `${(built.bytes / 2 ** 20).toFixed(1)} MiB`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
