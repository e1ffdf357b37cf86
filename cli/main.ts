#!/usr/bin/env node
/**
 * The `pulumi-cloudbees` command (package.json `bin`): `import`, `drift` (cli/drift/command.ts) and `flags`
 * (cli/flags/command.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { replaceFile, writeNewFile } from "../provider/files/safe-write";
import { printable, quoted } from "../provider/text/printable";
import { fullPathProblem } from "../provider/clients/inputs";
import { patternUrl, type ControllerOptions } from "./controller-text";
import { shellWord } from "./escape";
import { readStackConfigFile } from "./stack-config-file";

const USAGE = `Usage: pulumi-cloudbees import [options]
       pulumi-cloudbees drift [options]   (the drift check over many stacks: pulumi-cloudbees drift --help)
       pulumi-cloudbees flags [options]   (flag hygiene, what can be removed: pulumi-cloudbees flags --help)

Reads the operations center (and the feature-flag account, when its token is set) and writes a TypeScript Pulumi
program declaring what is there: availability patterns set through the API, every assignment, the global
visibility, applications (adoptExisting) with their environments, target groups, flags and configurations, and
with --bundle-tree what each controller runs. Its first \`pulumi up\` writes nothing; \`pulumi preview --refresh
--expect-no-changes\` passes after it.

Settings: the CLOUDBEES_* environment variables (CLOUDBEES_OPERATIONS_CENTER_URL, CLOUDBEES_USERNAME,
CLOUDBEES_API_TOKEN, CLOUDBEES_FEATURE_MANAGEMENT_TOKEN, ...), under the stack config file's cloudbees:* keys
when --stack or --config-file is given (encrypted values: use the environment variables); its
cloudbees:connections gives the default connection's instances (controllers' URLs, for --bundle-tree).

Options:
  --bundles <regex>          only bundles whose whole id matches
  --controllers <regex>      only assignments of controllers whose whole full path matches
  --default-bundle <id>      declare this bundle as the default (the API cannot read the default)
  --bundle-tree <folder>     the local folder of bundle folders the program will use (relative to the
                             program's folder: --out's, or the current one): each assigned controller gets a
                             ControllerConfiguration (what it runs, against its bundle there), whose create
                             writes nothing when the controller runs its bundle (else it reloads the bundle,
                             and fails naming what a reload cannot put back). A controller's URL comes from
                             --controller-url, else an instance of the connection's settings named after it
                             (its path with - for /, or its name), else --controller-url-pattern, else CloudBees
                             CI's layout: <base>/<controller name>/ beside an operations center at <base>/cjoc/.
                             A controller without one is not declared (a note says why)
  --controller-url <path>=<url>
                             the URL of the controller at that full path (repeatable; with --bundle-tree)
  --controller-url-pattern <url>
                             controllers' URLs, {path} and {name} (the last segment) replaced, e.g.
                             https://ci.example.com/{name}/ (with --bundle-tree)
  --applications <regex>     the environments, target groups, flags and their configurations of these
                             applications only (whole name; default: every application). Each costs
                             3 requests plus one per environment, at one request per second
  --out <file>               write the program there (default: standard output); an existing file needs --force
  --force                    replace --out (a link there is replaced itself, never followed)
  --stack <name>             read settings from Pulumi.<name>.yaml in the current folder
  --config-file <file>       read settings from this stack config file
  -h, --help                 this text
`;

/**
 * Prints the message and exits. Values in it are quoted (quoted()) where it is built: its own line breaks (the usage
 * text's) stay, every other unsafe character is escaped here.
 */
function fail(message: string): never {
  process.stderr.write(`pulumi-cloudbees: ${printable(message, { keepNewlines: true })}\n`);
  process.exit(1);
}

/** Another library's message (Node's, a parser's), quoting input as it likes: one line. */
function messageOfOther(e: unknown): string {
  return printable(e instanceof Error ? e.message : String(e));
}

function regex(value: string | undefined, option: string): RegExp | undefined {
  if (value === undefined) return undefined;
  try {
    return new RegExp(value);
  } catch (e) {
    return fail(`${option} ${quoted(value)} is not a valid regular expression: ${messageOfOther(e)}`);
  }
}

export async function main(argv: string[]): Promise<void> {
  if (argv[0] === "drift") {
    // Its own options and exit codes; loaded only when asked for.
    const { driftCommand } = require("./drift/command") as typeof import("./drift/command");
    process.exitCode = await driftCommand(argv.slice(1));
    return;
  }
  if (argv[0] === "flags") {
    const { flagsCommand } = require("./flags/command") as typeof import("./flags/command");
    process.exitCode = await flagsCommand(argv.slice(1));
    return;
  }
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (e) {
    fail(`${messageOfOther(e)}\n\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (positionals[0] !== "import" || positionals.length > 1) fail(`expected the command "import"\n\n${USAGE}`);
  if (values.stack !== undefined && values["config-file"] !== undefined) fail("give --stack or --config-file, not both");
  const configFile = values["config-file"] ?? (values.stack !== undefined ? `Pulumi.${values.stack}.yaml` : undefined);
  if (values.force && values.out === undefined) fail("--force goes with --out");
  const out = values.out === undefined || values.out === "-" ? undefined : path.resolve(values.out);
  // Early, so that nobody waits for the reads in vain; the write itself is exclusive (writeNewFile), whatever happens meanwhile.
  if (out && !values.force && existsOrIsLink(out)) fail(exists(out));

  const bundles = regex(values.bundles, "--bundles");
  const controllers = regex(values.controllers, "--controllers");
  const applications = regex(values.applications, "--applications");
  const controllerOptions = controllerOptionsOf(values, out ? path.dirname(out) : process.cwd());
  let settings: ReturnType<typeof readStackConfigFile> | undefined;
  try {
    settings = configFile ? readStackConfigFile(configFile) : undefined;
  } catch (e) {
    fail((e as Error).message);
  }
  // Loaded once the arguments are known to be good: the functions load @pulumi/pulumi, a second of CPU.
  const { importProgram } = require("./import") as typeof import("./import");
  const { closeClients } = require("../provider/config") as typeof import("../provider/config");
  try {
    const { text, installation, skipped, controllers: configurations } = await importProgram({
      settings,
      bundles,
      controllers,
      applications,
      defaultBundle: values["default-bundle"],
      ...controllerOptions,
      commandLine: commandLineOf(argv),
    });
    // Each item that could not be read, once, on its line: the import went on without it.
    for (const why of [...skipped, ...configurations.notDeclared]) process.stderr.write(`pulumi-cloudbees: ${printable(why)}\n`);
    if (out) {
      try {
        // Never through a link planted at the path: --force replaces the link itself, never what it points to.
        await (values.force ? replaceFile(out, text) : writeNewFile(out, text));
      } catch (e) {
        fail((e as NodeJS.ErrnoException).code === "EEXIST" ? exists(out) : `writing ${quoted(out)}: ${messageOfOther(e)}`);
      }
      const assignments = installation.bundles.reduce((n, b) => n + b.usedBy.length, 0);
      process.stderr.write(
        `pulumi-cloudbees: wrote ${quoted(out)} (${installation.bundles.length} bundles, ${assignments} assignments` +
          `${controllerOptions.bundleTree !== undefined ? `, ${configurations.declared} controller configurations` : ""}` +
          `${installation.applications ? `, ${installation.applications.length} applications` : ""}` +
          `${installation.flags ? `, ${installation.flags.reduce((n, f) => n + f.flags.length, 0)} flags` : ""}` +
          `${installation.teamMembers ? `, ${installation.teamMembers.length} team members` : ""} read)\n`,
      );
    } else {
      process.stdout.write(text);
    }
  } catch (e) {
    fail((e as Error).message ?? String(e));
  } finally {
    await closeClients();
  }
}

/** --bundle-tree and the controllers' URLs, checked before anything is read. */
function controllerOptionsOf(values: ReturnType<typeof parse>["values"], programFolder: string): ControllerOptions & { programFolder: string } {
  const tree = values["bundle-tree"];
  const urls = values["controller-url"] ?? [];
  const pattern = values["controller-url-pattern"];
  if (tree === undefined) {
    if (urls.length || pattern !== undefined) fail("--controller-url and --controller-url-pattern go with --bundle-tree");
    return { programFolder };
  }
  const root = path.resolve(programFolder, tree);
  if (tree.trim() === "" || !fs.statSync(root, { throwIfNoEntry: false })?.isDirectory()) {
    fail(`--bundle-tree ${quoted(tree)} is not a folder (from the program's folder ${quoted(programFolder)}: ${quoted(root)}); give the folder of bundle folders`);
  }
  const controllerUrls: Record<string, string> = {};
  for (const given of urls) {
    const m = /^(.+?)=(https?:\/\/.+)$/.exec(given);
    // The value itself is not echoed: a URL may carry credentials by mistake.
    if (!m) fail(`--controller-url (the one after ${quoted(given.split("=")[0]!)}) must be <controller full path>=<http(s) URL>, e.g. team-a/controller-a=https://ci.example.com/controller-a/`);
    const [, controllerPath, url] = m;
    const problem = fullPathProblem(controllerPath!) ?? urlProblem(url!);
    if (problem) fail(`--controller-url for ${quoted(controllerPath!)}: ${problem}`);
    if (controllerPath! in controllerUrls) fail(`--controller-url gives ${quoted(controllerPath!)} twice`);
    controllerUrls[controllerPath!] = url!;
  }
  if (pattern !== undefined) {
    const problem = !/\{(path|name)\}/.test(pattern) ? "it has neither {path} nor {name}" : urlProblem(patternUrl(pattern, "folder/controller"));
    if (problem) fail(`--controller-url-pattern: ${problem}; e.g. https://ci.example.com/{name}/`);
  }
  return { programFolder, bundleTree: tree, controllerUrls, ...(pattern !== undefined ? { controllerUrlPattern: pattern } : {}) };
}

/** Why `url` cannot be a controller's URL in the program, or undefined. */
function urlProblem(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return "not a URL";
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return "not an http(s) URL";
  if (u.username || u.password) return "a URL with credentials in it (they belong in the settings)";
  if (u.search || u.hash) return "a URL with a query or a fragment (a controller's base URL has neither)";
  return undefined;
}

function exists(out: string): string {
  return `${quoted(out)} exists: give --force to replace it, or another --out`;
}

/** Anything at the path, a dangling link included (existsSync follows links: a dangling one reads as absent). */
function existsOrIsLink(file: string): boolean {
  try {
    fs.lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      bundles: { type: "string" },
      controllers: { type: "string" },
      "default-bundle": { type: "string" },
      "bundle-tree": { type: "string" },
      "controller-url": { type: "string", multiple: true },
      "controller-url-pattern": { type: "string" },
      applications: { type: "string" },
      out: { type: "string" },
      force: { type: "boolean" },
      stack: { type: "string" },
      "config-file": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
}

/** The command line for the program's header, without --out / --force and their values. */
function commandLineOf(argv: string[]): string {
  const kept: string[] = ["pulumi-cloudbees"];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--force" || a.startsWith("--out=")) continue;
    if (a === "--out") {
      i++;
      continue;
    }
    kept.push(shellWord(a));
  }
  return kept.join(" ");
}

if (require.main === module) {
  void main(process.argv.slice(2));
}
