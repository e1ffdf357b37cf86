#!/usr/bin/env node
/**
 * `cloudbees-emulator [--port N] [--bundles DIR] [--rate-limit] [--reading NAME=VALUE]...
 * [--running-configuration CONTROLLER=FOLDER]... [--list-readings]` (the
 * package's bin; `npm run emulator --` in this repository): runs the emulator until Ctrl-C, for Pulumi programs and
 * manual exploration with curl.
 */
import * as path from "node:path";
import { DEFAULT_CONTROLLERS, DEFAULT_FM_ACCOUNTS, defaultBundlesDir, listReadings, READINGS_VARIABLE, startEmulator, type Emulator } from "./index";
import { parseReadingsText, type ReadingName } from "./readings";
import { readRunningFolder, RunningFolderError } from "./running-folder";
import { failureText, roxyLine } from "./console";
import { quoted } from "../provider/text/printable";

interface CliArgs {
  port: number;
  bundlesDir: string;
  rateLimit: boolean;
  /** --reading NAME=VALUE, in order (a later one wins). */
  readings: Record<string, string>;
  /** --running-configuration CONTROLLER=FOLDER: controller full path -> folder of an export. */
  runningConfigurations: Record<string, string>;
}

const USAGE =
  "usage: cloudbees-emulator [--port N] [--bundles DIR] [--rate-limit] [--reading NAME=VALUE]... [--running-configuration CONTROLLER=FOLDER]... [--list-readings]";

/** `CONTROLLER=FOLDER`: the controller must be one the CLI starts, the folder an export the emulator can read. */
function runningConfigurationArg(value: string): [string, string] {
  const at = value.indexOf("=");
  const [controller, folder] = at < 0 ? [value, ""] : [value.slice(0, at), value.slice(at + 1)];
  const flag = `--running-configuration ${quoted(value)}`;
  if (controller === "" || folder === "") throw new Error(`${flag}: expected CONTROLLER=FOLDER\n${USAGE}`);
  if (!DEFAULT_CONTROLLERS.includes(controller)) {
    throw new Error(`${flag}: ${quoted(controller)} is not a controller (${DEFAULT_CONTROLLERS.join(", ")})`);
  }
  try {
    readRunningFolder(path.resolve(folder));
  } catch (e) {
    if (e instanceof RunningFolderError) throw new Error(`${flag}: ${e.message}`);
    throw e;
  }
  return [controller, path.resolve(folder)];
}

function parseArgs(argv: string[]): CliArgs {
  const args: CliArgs = { port: 0, bundlesDir: defaultBundlesDir(), rateLimit: false, readings: {}, runningConfigurations: {} };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === "") throw new Error(`${quoted(flag)} needs a value\n${USAGE}`);
      return v;
    };
    switch (flag) {
      case "--port": {
        const v = value();
        if (!/^\d+$/.test(v) || Number(v) > 65535) throw new Error(`--port must be 0..65535, got ${quoted(v)}\n${USAGE}`);
        args.port = Number(v);
        break;
      }
      case "--bundles":
        args.bundlesDir = path.resolve(value());
        break;
      case "--rate-limit":
        args.rateLimit = true;
        break;
      case "--reading":
        Object.assign(args.readings, parseReadingsText(value(), "--reading"));
        break;
      case "--running-configuration": {
        const [controller, folder] = runningConfigurationArg(value());
        args.runningConfigurations[controller] = folder;
        break;
      }
      case "--list-readings":
        console.log(readingsHelp());
        process.exit(0);
        break;
      case "--help":
      case "-h":
        console.log(USAGE);
        process.exit(0);
        break;
      default:
        throw new Error(`unknown argument ${quoted(arg)}\n${USAGE}`);
    }
  }
  return args;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const emu = await startEmulator({
    port: args.port,
    bundlesDir: args.bundlesDir,
    featureManagementRateLimit: args.rateLimit,
    readings: args.readings,
    runningConfigurations: args.runningConfigurations,
  });
  const { admin, nonAdmin, featureManagementToken, otherFeatureManagementToken } = emu.credentials;
  const row = (label: string, value: string): string => `${label.padEnd(24)}${value}`;
  const lines = [
    "CloudBees emulator running (Ctrl-C to stop)",
    "",
    row("feature-flag service", emu.featureManagementUrl),
    row("  bearer tokens", `${featureManagementToken} (account acme), ${otherFeatureManagementToken} (account globex)`),
    row("  rate limit", args.rateLimit ? "on (1 request/s per client IP, else status 555)" : "off"),
    row("  SDK (roxy mode)", `${emu.baseUrl}roxy/<environment key>/ (printed below for each environment as it appears)`),
    row("  SDK (self-managed)", `${emu.selfManaged.serverURL} as serverURL and analyticsURL, with the environment's key (impressions are counted)`),
    row("operations center", emu.operationsCenterUrl),
    "controllers",
    ...Object.entries(emu.controllerUrls).map(([name, url]) => row(`  ${name}`, url)),
    row("admin (Basic)", `${admin.username}:${admin.apiToken}`),
    row("non-admin (Basic)", `${nonAdmin.username}:${nonAdmin.apiToken}`),
    row("readings", describeReadings(emu)),
    ...Object.entries(args.runningConfigurations).map(([c, folder]) => row(`  ${c} runs`, quoted(folder))),
    row("bundle location", `${quoted(emu.bundlesDir)} (re-read on POST casc-bundle/check-out)`),
    "",
    "example:",
    `  curl -u ${admin.username}:${admin.apiToken} ${emu.operationsCenterUrl}casc-bundle/list`,
  ];
  console.log(lines.join("\n"));
  const roxyTimer = setInterval(() => printNewEnvironments(emu), ROXY_POLL_MS);
  roxyTimer.unref();
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    console.log("\nstopping emulator");
    emu.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

const ROXY_POLL_MS = 1000;
const printedKeys = new Set<string>();

/** One line per environment, once, with the URL its application's SDK reads in roxy mode. */
function printNewEnvironments(emu: Emulator): void {
  const accounts = [...new Set(DEFAULT_FM_ACCOUNTS.map((a) => a.account))];
  for (const account of accounts) {
    for (const app of emu.state.applications(account)) {
      for (const env of emu.state.environments(app.id)) {
        if (printedKeys.has(env.key)) continue;
        printedKeys.add(env.key);
        console.log(roxyLine(app.name, account, env.name, emu.roxyUrl(env.key)));
      }
    }
  }
}

main().catch((e: unknown) => {
  console.error(failureText(e));
  process.exit(1);
});

/** The readings that differ from the defaults, or "defaults". */
function describeReadings(emu: Emulator): string {
  const changed = listReadings().filter((r) => emu.readings[r.name as ReadingName] !== r.default);
  const text = changed.map((r) => `${r.name}=${String(emu.readings[r.name as ReadingName])}`).join(", ");
  return `${text || "defaults"} (--list-readings shows every choice)`;
}

function readingsHelp(): string {
  const lines = [`Readings (--reading NAME=VALUE, or ${READINGS_VARIABLE}=NAME=VALUE,...); the first value is the default:`];
  for (const r of listReadings()) lines.push(`  ${r.name} = ${r.values.map(String).join(" | ")}`, `      ${r.reason}`);
  return lines.join("\n");
}
