/**
 * What a user installs to run the package from each language, made here the way the README says, offline: the
 * plugin archive installed with `pulumi plugin install --file`; the Python SDK as a wheel built from
 * generated/sdk/python and installed with pip into the project's virtualenv (beside pulumi from the wheels of
 * `npm run pulumi-cli`); the Go SDK as a module, replaced by its folder in the program's go.mod; the Node.js SDK
 * built with tsc and installed beside the packed package, whose bin puts the plugin on PATH.
 *
 * The same, on the lowest Pulumi SDK each generated SDK declares (SDK_FLOORS): pulumi==<floor> from the wheels that
 * `npm run pulumi-cli` fetched (scripts/pulumi-cli/sdk-floors.ts), the Go program on sdk/v3 at its floor (the
 * module cache holds it), the Node.js SDK built and run on @pulumi/pulumi at its floor (`pulumi-sdk-lowest`).
 *
 * The archive, the wheel and the Node.js projects are made once per tier run and shared by its test files
 * (test/harness/shared-once.ts), and so is the packed package (test/package/packed-package.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { buildArchive } from "../../../scripts/plugin-archive";
import { compileNodejsSdk } from "../../../scripts/release/nodejs-sdk";
import { goFloorFetched, pythonFloorWheels } from "../../../scripts/pulumi-cli/sdk-floors";
import { GO_MODULE, SDK_FLOORS } from "../../../scripts/schema/languages";
import { installConsumer, ROOT } from "../../package/consumer-project";
import { packedPackage } from "../../package/packed-package";
import { sharedOnce } from "../../harness/shared-once";
import { pythonWheels } from "../tier-cli";
import { mustRun } from "./cli-project";

export const PLUGIN_VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;

/** The plugin archive of `npm run plugin:archive`, from the built dist/. */
export async function pluginArchive(): Promise<string> {
  const dir = await sharedOnce("plugin-archive", async (d) => {
    buildArchive(d);
  });
  return path.join(dir, `pulumi-resource-cloudbees-v${PLUGIN_VERSION}.tar.gz`);
}

/** The environment of pip offline: the wheels of `npm run pulumi-cli`, and the folders given (the SDK's wheel, a release). */
export function pipEnv(env: NodeJS.ProcessEnv, ...findLinks: string[]): NodeJS.ProcessEnv {
  return { ...env, PIP_NO_INDEX: "1", PIP_FIND_LINKS: [pythonWheels(), ...findLinks].join(" "), PIP_DISABLE_PIP_VERSION_CHECK: "1" };
}

/**
 * A virtualenv with build, setuptools and wheel (offline, from the CLI cache's wheels), made once per tier run: the
 * SDK's wheel is built with its pip, the release's Python packages with its `python -m build`.
 */
export function pythonBuildVirtualenv(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return sharedOnce("python-build-venv", async (dir) => {
    await mustRun("python3", ["-m", "venv", path.join(dir, "venv")], dir, env);
    await mustRun(path.join(dir, "venv", "bin", "pip"), ["install", "build", "setuptools", "wheel"], dir, pipEnv(env));
  }).then((dir) => path.join(dir, "venv"));
}

/** The Python SDK as a wheel, built with pip from generated/sdk/python (offline, with the build tools' wheels). */
export async function pythonSdkWheel(env: NodeJS.ProcessEnv): Promise<string> {
  return sharedOnce("python-sdk-wheel", async (dir) => {
    const venv = await pythonBuildVirtualenv(env);
    const source = path.join(dir, "source");
    fs.cpSync(path.join(ROOT, "generated", "sdk", "python"), source, { recursive: true });
    await mustRun(path.join(venv, "bin", "pip"), ["wheel", "--no-deps", "--no-build-isolation", "--wheel-dir", path.join(dir, "wheels"), source], dir, pipEnv(env));
  }).then((dir) => path.join(dir, "wheels"));
}

/**
 * A virtualenv at `<project>/venv` with pulumi and the package's SDK, as the project's Pulumi.yaml names it: one per
 * tier run (about 10 s of CPU to make), linked into each project that asks (Python finds a virtualenv's pyvenv.cfg
 * through the link); the programs only read it.
 */
export async function pythonVirtualenv(project: string, env: NodeJS.ProcessEnv): Promise<void> {
  const shared = await sharedOnce("python-virtualenv", (dir) => virtualenvWith(dir, env, pulumiVersion()));
  fs.symlinkSync(path.join(shared, "venv"), path.join(project, "venv"));
}

/** The same, with pulumi at the Python SDK's floor (its wheels fetched by `npm run pulumi-cli`). */
export async function pythonFloorVirtualenv(project: string, env: NodeJS.ProcessEnv): Promise<void> {
  const wheels = pythonFloorWheels();
  if (!fs.existsSync(wheels)) throw new Error(`no wheels of pulumi==${SDK_FLOORS.python} in ${wheels}: run \`npm run pulumi-cli\` (it fetches them once)`);
  await virtualenvWith(project, env, SDK_FLOORS.python, wheels);
}

async function virtualenvWith(project: string, env: NodeJS.ProcessEnv, version: string, ...findLinks: string[]): Promise<void> {
  const wheels = await pythonSdkWheel(env);
  const venv = path.join(project, "venv");
  await mustRun("python3", ["-m", "venv", venv], project, env);
  await mustRun(path.join(venv, "bin", "pip"), ["install", `pulumi==${version}`, "pulumi_cloudbees"], project, pipEnv(env, ...findLinks, wheels));
  const installed = await mustRun(path.join(venv, "bin", "python"), ["-c", "import importlib.metadata as m; print(m.version('pulumi'))"], project, env);
  if (installed.trim() !== version) throw new Error(`the virtualenv holds pulumi ${installed.trim()}, not ${version}`);
}

function pulumiVersion(): string {
  return (JSON.parse(fs.readFileSync(require.resolve("@pulumi/pulumi/package.json"), "utf8")) as { version: string }).version;
}

/** A Go program's copy: its go.mod replaces the SDK's module with generated/sdk/go (the copy is elsewhere). */
export async function goProgram(project: string, env: NodeJS.ProcessEnv): Promise<void> {
  await mustRun("go", ["mod", "edit", `-replace=${GO_MODULE}=${path.join(ROOT, "generated", "sdk", "go")}`], project, env);
}

/**
 * A Go program's copy on sdk/v3 at the Go SDK's floor: a go.mod of its own that requires the floor and the SDK (its
 * folder), and the SDK's go.sum, made by `go mod tidy` on the floor (npm run sdks): the build then selects the
 * floor, offline.
 */
export async function goFloorProgram(project: string, env: NodeJS.ProcessEnv): Promise<void> {
  if (!goFloorFetched()) throw new Error(`Go's module cache may lack sdk/v3 v${SDK_FLOORS.go}: run \`npm run pulumi-cli\` (it fetches it once)`);
  const sdk = path.join(ROOT, "generated", "sdk", "go");
  const module = /^module (\S+)/m.exec(fs.readFileSync(path.join(project, "go.mod"), "utf8"))![1];
  fs.writeFileSync(
    path.join(project, "go.mod"),
    `module ${module}\n\ngo 1.24\n\nrequire (\n\t${GO_MODULE} v0.0.0\n\tgithub.com/pulumi/pulumi/sdk/v3 v${SDK_FLOORS.go}\n)\n\nreplace ${GO_MODULE} => ${sdk}\n`,
  );
  fs.copyFileSync(path.join(sdk, "go.sum"), path.join(project, "go.sum"));
  await mustRun("go", ["mod", "tidy"], project, env);
  const selected = (await mustRun("go", ["list", "-m", "-f", "{{.Version}}", "github.com/pulumi/pulumi/sdk/v3"], project, env)).trim();
  if (selected !== `v${SDK_FLOORS.go}`) throw new Error(`the Go program selects sdk/v3 ${selected}, not the floor v${SDK_FLOORS.go}`);
}

/**
 * A Node.js project with the packed package (its bin folder holds pulumi-resource-cloudbees), @pulumi/pulumi,
 * typescript and @types/node from the lock, and the Node.js SDK installed as @pulumi-cloudbees/cloudbees: compiled
 * once per tier run (compiledNodejsSdk), as the release packs it. Programs go in folders inside it.
 */
export function nodeProject(): Promise<string> {
  return nodeProjectOn("node-project", "node_modules/@pulumi/pulumi", {}, compiledNodejsSdk);
}

/**
 * The same on @pulumi/pulumi at the Node.js SDK's floor (`pulumi-sdk-lowest`, with ts-node, which it needs then),
 * the SDK compiled against that floor's declarations.
 */
export async function nodeFloorProject(): Promise<string> {
  const dir = await nodeProjectOn("node-project-floor", "node_modules/pulumi-sdk-lowest", { "ts-node": "node_modules/ts-node" }, async (project) =>
    compileNodejsSdk(fs.mkdtempSync(path.join(path.dirname(project), "node-project-floor-nodejs-sdk-")), path.join(project, "node_modules")),
  );
  const installed = (JSON.parse(fs.readFileSync(path.join(dir, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8")) as { version: string }).version;
  if (installed !== SDK_FLOORS.nodejs) throw new Error(`the Node.js project holds @pulumi/pulumi ${installed}, not ${SDK_FLOORS.nodejs}`);
  return dir;
}

/** The Node.js SDK's package folder, compiled once per tier run against the lock's @pulumi/pulumi (the release's too). */
export function compiledNodejsSdk(): Promise<string> {
  return sharedOnce("nodejs-sdk", async (dir) => {
    compileNodejsSdk(path.join(dir, "work"));
  }).then((dir) => path.join(dir, "work", "bin"));
}

async function nodeProjectOn(name: string, pulumi: string, more: Record<string, string>, sdk: (project: string) => Promise<string>): Promise<string> {
  return sharedOnce(name, async (dir) => {
    const installed = await installConsumer(
      dir,
      await packedPackage(),
      { "@pulumi/pulumi": pulumi, typescript: "node_modules/typescript", "@types/node": "node_modules/@types/node", ...more },
      null,
    );
    if (installed.code !== 0) throw new Error(`npm ci failed:\n${installed.output}`);
    // What the SDK's package is: its compiled files and its package.json (main: index.js).
    fs.cpSync(await sdk(dir), path.join(dir, "node_modules", "@pulumi-cloudbees", "cloudbees"), { recursive: true });
  });
}

/** A command line of the README's section "Every Pulumi language" (without its comment), by how it starts. */
function readmeCommand(start: string): string {
  const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("\n## Every Pulumi language\n"), readme.indexOf("\n## The main job\n"));
  const line = section.split("\n").find((l) => l.startsWith(start));
  if (!line) throw new Error(`README.md, "Every Pulumi language", has no command starting "${start}"`);
  return line.replace(/\s{2,}#.*$/, "").trim();
}

/** `pulumi plugin install ... --file <archive>` as the README writes it, with the archive this tier built. */
export async function installPlugin(cli: { ok(...args: string[]): Promise<unknown> }): Promise<void> {
  const archive = await pluginArchive();
  const line = readmeCommand("pulumi plugin install ");
  const file = /--file (\S+)/.exec(line)?.[1];
  if (!file || path.basename(file) !== path.basename(archive)) throw new Error(`README.md installs ${file}; npm run plugin:archive makes ${path.basename(archive)}`);
  await cli.ok(...line.replace(file, archive).split(/\s+/).slice(1));
}
