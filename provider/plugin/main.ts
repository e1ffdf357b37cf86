#!/usr/bin/env node
/**
 * `pulumi-resource-cloudbees`: the package's provider plugin, which the Pulumi engine starts for a program in any
 * language (Python, Go, YAML, TypeScript through the generated SDK) and talks to over the provider protocol. The
 * plugin serves the ResourceProvider service itself (server.ts), with the gRPC and protobuf stubs of the user's own
 * `@pulumi/pulumi` (any version of the peer range; one outside it is refused here, in one sentence). The startup
 * contract is the engine's: its address comes as an argument (after the logging flags it may pass), and the port
 * the plugin listens on is the first line on stdout.
 *
 * Installed with `pulumi plugin install resource cloudbees <version> --file <archive>` (npm run plugin:archive makes
 * the archive), found on PATH, or named by a project's `plugins.providers` (README, "Every Pulumi language").
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { printable } from "../text/printable";
import { checkPulumiVersion, ownManifest } from "./pulumi-sdk";

/** The package's schema, made from the sources by scripts/schema (npm run schema) and shipped with the package. */
export const SCHEMA_FILE = path.join("generated", "schema.json");

/** The gRPC message size Pulumi's own servers accept (a schema, a bundle's properties). */
const MAX_MESSAGE_BYTES = 400 * 1024 * 1024;
/** How long a graceful stop waits for calls in flight before it stops them. */
const STOP_GRACE_MS = 30_000;
/** How often the plugin looks for its engine, to stop with it. */
const ENGINE_WATCH_MS = 2_000;

/**
 * `args`: the engine's (its logging flags, `--logtostderr`, `-v=<n>`, `--tracing <endpoint>`, then its address). The
 * plugin calls the engine only to log its warnings (engine-log.ts: the engine hides a resource plugin's stderr).
 */
export async function serve(args: string[]): Promise<void> {
  const manifest = ownManifest();
  const pulumiRoot = checkPulumiVersion(manifest);
  // Loaded after the version check: a version outside the range never loads any of this.
  const { loadProtocol } = require("./protocol") as typeof import("./protocol");
  await serveWith(args, {
    protocol: loadProtocol(pulumiRoot),
    version: manifest.version,
    readSchema: () => fs.readFileSync(path.join(manifest.root, SCHEMA_FILE), "utf8"),
  });
}

/** What serving needs, wherever it comes from: the user's @pulumi/pulumi (serve), or bundled (standalone.ts). */
export interface PluginParts {
  protocol: import("./protocol").Protocol;
  version: string;
  readSchema(): string;
}

/** Serves the provider protocol with the given parts until the engine stops it. */
export async function serveWith(args: string[], parts: PluginParts): Promise<void> {
  // The engine that started the plugin, read before the port is announced: an engine that exits as soon as it has
  // read the port would otherwise have re-parented the plugin already, and the watch below would never see it go.
  const engine = process.ppid;
  const { providerService } = require("./server") as typeof import("./server");
  const { cloudbeesProvider } = require("./provider") as typeof import("./provider");
  const { engineAddressOf, warningsToEngine } = require("./engine-log") as typeof import("./engine-log");
  const { protocol } = parts;
  const { grpc } = protocol;
  warningsToEngine(engineAddressOf(args), protocol);

  const server = new grpc.Server({ "grpc.max_receive_message_length": MAX_MESSAGE_BYTES });
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => server.forceShutdown(), STOP_GRACE_MS);
    force.unref();
    server.tryShutdown(() => process.exit(process.exitCode ?? 0));
  };
  let schema: string | undefined;
  server.addService(
    protocol.provgrpc.ResourceProviderService,
    providerService(protocol, {
      version: parts.version,
      schema: () => (schema ??= parts.readSchema()),
      provider: cloudbeesProvider(),
      onCancel: stop,
    }) as never,
  );
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  // The engine reads the port from the first line; a plain string, so that no colour codes reach it.
  process.stdout.write(`${port}\n`);

  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  // The engine gone (it crashed, or was killed), the plugin is re-parented: it stops rather than lingering.
  setInterval(() => process.ppid !== engine && stop(), ENGINE_WATCH_MS).unref();
  // A failure outside any call (a stray rejection) stays the plugin's: said once on stderr, and the plugin serves on.
  const report = (e: unknown) => {
    process.exitCode = 1;
    console.error(`pulumi-resource-cloudbees: ${printable(e instanceof Error ? e.message : String(e)).slice(0, 2000)}`);
  };
  process.on("uncaughtException", report);
  process.on("unhandledRejection", report);
}

if (require.main === module) {
  serve(process.argv.slice(2)).catch((e: unknown) => {
    console.error(`pulumi-resource-cloudbees: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  });
}
