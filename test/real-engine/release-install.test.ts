/**
 * Issue 45, as a user installs the release, in YAML, Python, Go and TypeScript: dist/release (made offline) served on
 * loopback, a fresh PULUMI_HOME, PULUMI_IGNORE_AMBIENT_PLUGINS=true, the documented mirror variable
 * PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES pointing the release location at the loopback server, and no `node` on PATH:
 * the engine downloads the plugin archive exactly once into its cache and runs the self-contained executable; a
 * second `up` downloads nothing; without the override, the error names the install command.
 */
import * as fs from "node:fs";
import * as http from "node:http";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type Emulator } from "../../emulator";
import { emulatorConnection } from "../../testing/emulator-config";
import { release, VERSION } from "../../scripts/release/release";
import { realCli } from "./life-cycle";
import { run, type Run } from "./tier-cli";
import { installConsumer } from "../package/consumer-project";
import { packedPackage } from "../package/packed-package";
import { compiledNodejsSdk, pipEnv, pythonBuildVirtualenv } from "./languages/toolchains";

const SERVER = "github://api.github.com/pulumi-cloudbees/pulumi-cloudbees";
const ASSET = `pulumi-resource-cloudbees-v${VERSION}-linux-amd64.tar.gz`;

let scratch: string;
let releaseDir: string;
let server: http.Server;
let port: number;
const requests: string[] = [];
let emu: Emulator;
/** The interpreter itself (not a shim): virtualenvs are made from it. */
let python: string;

async function mustRun(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const r = await run(command, args, cwd, env);
  if (r.code !== 0) throw new Error(`${command} ${args.join(" ")} exited ${r.code}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}


/** A static server of the release folder, logging each request. */
function serve(dir: string): Promise<http.Server> {
  const s = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const wanted = decodeURIComponent((req.url ?? "/").split("?")[0]!);
    const file = path.join(dir, wanted.startsWith("/empty/") ? "(none)" : path.basename(wanted));
    if (!fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.statusCode = 404;
      res.end();
      return;
    }
    // /corrupt/<asset>: the asset with one byte flipped in its middle (a damaged mirror).
    const body = fs.readFileSync(file);
    if (wanted.startsWith("/corrupt/")) body[body.length >> 1] ^= 0xff;
    res.setHeader("content-length", body.length);
    res.end(body);
  });
  return new Promise((resolve) => s.listen(0, "127.0.0.1", () => resolve(s)));
}

beforeAll(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "release-install-"));
  releaseDir = path.join(scratch, "release");
  python = (await mustRun("python3", ["-c", "import sys; print(sys.executable)"], scratch)).trim();
  // The release made offline: its Python SDK built with build, setuptools and wheel from the CLI cache's wheels.
  const builder = await pythonBuildVirtualenv();
  // The package packed and the Node.js SDK compiled once per tier run, as the other files install them.
  await release(releaseDir, { python: path.join(builder, "bin", "python"), packed: await packedPackage(), nodejsSdk: await compiledNodejsSdk() });
  server = await serve(releaseDir);
  port = (server.address() as { port: number }).port;
  emu = await startEmulator();
}, 300_000);
afterAll(async () => {
  server?.close();
  await emu?.close();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

/** The loopback mirror of the release location (`prefix`: a folder of the server, "empty/" for one without it). */
const override = (prefix = "") => `^${SERVER.replace(/\./g, "\\.")}=http://127.0.0.1:${port}/${prefix}`;

/**
 * A user's project in a fresh home: its own PULUMI_HOME and file backend, ambient plugins ignored (the plugin on
 * PATH cannot stand in), the release location mirrored on loopback, PATH holding `pathDirs` only.
 */
function userProject(home: string, dir: string, pathDirs: string[], more: NodeJS.ProcessEnv = {}, prefix = ""): { dir: string; env: NodeJS.ProcessEnv; pulumi(...args: string[]): Promise<Run> } {
  const cli = realCli();
  const env: NodeJS.ProcessEnv = {
    PATH: [cli.dir, ...pathDirs].join(path.delimiter),
    HOME: home,
    ...more,
    PULUMI_HOME: path.join(home, ".pulumi"),
    PULUMI_BACKEND_URL: `file://${home}`,
    PULUMI_CONFIG_PASSPHRASE: "release-install",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_IGNORE_AMBIENT_PLUGINS: "true",
    PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: override(prefix),
  };
  return { dir, env, pulumi: (...args) => run(path.join(cli.dir, "pulumi"), [...args, "--non-interactive", "--color", "never"], dir, env) };
}

/** A YAML project in a fresh home; PATH holds the CLI's folder only (no node anywhere on it). */
function yamlProject(name: string, mirror: "release" | "empty"): { dir: string; env: NodeJS.ProcessEnv; pulumi(...args: string[]): Promise<Run> } {
  const home = path.join(scratch, name);
  const dir = path.join(home, "project");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, "Pulumi.yaml"),
    [
      "name: release-install",
      "runtime: yaml",
      "resources:",
      "  pattern:",
      "    type: cloudbees:BundleAvailability",
      "    properties:",
      "      bundleId: base",
      "      controllers: [sandbox]",
      "    options:",
      `      version: ${VERSION}`,
      `      pluginDownloadURL: ${SERVER}`,
      "outputs:",
      "  controllers: ${pattern.controllers}",
      "",
    ].join("\n"),
  );
  expect(fs.existsSync(path.join(realCli().dir, "node"))).toBe(false);
  // "empty": a folder without the release (as a download that fails: without an override the engine would go to
  // GitHub, and only loopback is reached here).
  return userProject(home, dir, [], {}, mirror === "empty" ? "empty/" : "");
}

/** A refreshing preview finds nothing to change and downloads nothing; destroy then removes what up made. */
async function expectNoChangeThenDestroy(pulumi: (...args: string[]) => Promise<Run>, bundleId: string): Promise<void> {
  const downloads = [...requests];
  const preview = await pulumi("preview", "--refresh", "--expect-no-changes");
  expect({ code: preview.code, out: `${preview.stdout}${preview.stderr}`.slice(-2000) }).toMatchObject({ code: 0 });
  expect(requests).toEqual(downloads);
  const destroy = await pulumi("destroy", "--yes", "--skip-preview");
  expect({ code: destroy.code, out: `${destroy.stdout}${destroy.stderr}`.slice(-2000) }).toMatchObject({ code: 0 });
  expect(emu.state.apiAvailabilityPatterns()).not.toHaveProperty(bundleId);
}

async function initStack(p: ReturnType<typeof yamlProject>): Promise<void> {
  const c = emulatorConnection(emu);
  for (const args of [
    ["stack", "init", "dev"],
    ["config", "set", "cloudbees:operationsCenterUrl", c.operationsCenterUrl],
    ["config", "set", "cloudbees:username", c.username],
    ["config", "set", "--secret", "cloudbees:apiToken", c.apiToken],
  ]) {
    const r = await p.pulumi(...args);
    expect({ args, code: r.code, stderr: r.stderr }).toMatchObject({ code: 0 });
  }
}

it("YAML: up downloads the archive once through the override and runs the plugin without Node.js; a second up and a refreshing preview download nothing; destroy", async () => {
  const p = yamlProject("yaml", "release");
  await initStack(p);
  requests.length = 0;
  const up = await p.pulumi("up", "--yes", "--skip-preview");
  expect({ code: up.code, out: up.stdout.slice(-2000) }).toMatchObject({ code: 0 });
  expect(requests).toEqual([`GET /${ASSET}`]);
  expect(fs.existsSync(path.join(p.env.PULUMI_HOME!, "plugins", `resource-cloudbees-v${VERSION}`, "pulumi-resource-cloudbees"))).toBe(true);
  expect(emu.state.apiAvailabilityPatterns()).toHaveProperty("base");
  const again = await p.pulumi("up", "--yes", "--skip-preview");
  expect(again.code).toBe(0);
  expect(requests).toEqual([`GET /${ASSET}`]);
  await expectNoChangeThenDestroy(p.pulumi, "base");
}, 300_000);

it("Python: the wheel from the release with pip --no-index; up downloads the plugin once, as the SDK's pulumi-plugin.json says; a refreshing preview changes nothing; destroy", async () => {
  const home = path.join(scratch, "python");
  const dir = path.join(home, "project");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), ["name: release-install-python", "runtime:", "  name: python", "  options:", "    toolchain: pip", "    virtualenv: venv", ""].join("\n"));
  fs.writeFileSync(
    path.join(dir, "__main__.py"),
    ["import pulumi", "import pulumi_cloudbees as cloudbees", "", 'pattern = cloudbees.BundleAvailability("pattern", bundle_id="team-b", controllers=["sandbox"])', 'pulumi.export("controllers", pattern.controllers)', ""].join("\n"),
  );
  await mustRun(python, ["-m", "venv", path.join(dir, "venv")], dir);
  await mustRun(path.join(dir, "venv", "bin", "pip"), ["install", `pulumi_cloudbees==${VERSION}`], dir, pipEnv(process.env, releaseDir));
  const { env, pulumi } = userProject(home, dir, []);
  await initStack({ dir, env, pulumi });
  requests.length = 0;
  const up = await pulumi("up", "--yes", "--skip-preview");
  expect({ code: up.code, out: `${up.stdout}${up.stderr}`.slice(-2000) }).toMatchObject({ code: 0 });
  expect(requests).toEqual([`GET /${ASSET}`]);
  expect(emu.state.apiAvailabilityPatterns()).toHaveProperty("team-b");
  await expectNoChangeThenDestroy(pulumi, "team-b");
  expect(requests).toEqual([`GET /${ASSET}`]);
}, 300_000);

it("Go: the module from the release's module proxy layout (GOPROXY=file://...); up downloads the plugin once; a refreshing preview changes nothing and downloads nothing; destroy", async () => {
  const home = path.join(scratch, "go");
  const dir = path.join(home, "project");
  fs.mkdirSync(dir, { recursive: true });
  const module = "github.com/pulumi-cloudbees/pulumi-cloudbees/generated/sdk/go";
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: release-install-go\nruntime: go\n");
  fs.writeFileSync(
    path.join(dir, "main.go"),
    [
      "package main",
      "",
      "import (",
      `\t"${module}/cloudbees"`,
      '\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"',
      ")",
      "",
      "func main() {",
      "\tpulumi.Run(func(ctx *pulumi.Context) error {",
      '\t\tpattern, err := cloudbees.NewBundleAvailability(ctx, "pattern", &cloudbees.BundleAvailabilityArgs{BundleId: pulumi.String("team-a"), Controllers: pulumi.StringArray{pulumi.String("sandbox")}})',
      "\t\tif err != nil {",
      "\t\t\treturn err",
      "\t\t}",
      '\t\tctx.Export("controllers", pattern.Controllers)',
      "\t\treturn nil",
      "\t})",
      "}",
      "",
    ].join("\n"),
  );
  // The SDK at the release's version from its module layout; sdk/v3 at the SDK's floor from the module cache
  // (`npm run pulumi-cli` fetched it). Nothing else is reached: the checksum database is off (the module is local).
  fs.writeFileSync(path.join(dir, "go.mod"), `module release-install.local/program\n\ngo 1.24\n\nrequire (\n\t${module} v${VERSION}\n\tgithub.com/pulumi/pulumi/sdk/v3 v3.216.0\n)\n`);
  fs.copyFileSync(path.join(__dirname, "..", "..", "generated", "sdk", "go", "go.sum"), path.join(dir, "go.sum"));
  const goEnv: NodeJS.ProcessEnv = { ...process.env, GOPROXY: `file://${path.join(releaseDir, "go")},off`, GOSUMDB: "off", GOFLAGS: "-mod=mod" };
  await mustRun("go", ["mod", "tidy"], dir, goEnv);
  const { env, pulumi } = userProject(home, dir, [path.dirname(await whichGo())], {
    GOPATH: process.env.GOPATH ?? path.join(os.homedir(), "go"),
    GOMODCACHE: (await mustRun("go", ["env", "GOMODCACHE"], dir)).trim(),
    GOCACHE: (await mustRun("go", ["env", "GOCACHE"], dir)).trim(),
    GOPROXY: goEnv.GOPROXY,
    GOSUMDB: "off",
    GOFLAGS: "-mod=mod",
  });
  await initStack({ dir, env, pulumi });
  requests.length = 0;
  const up = await pulumi("up", "--yes", "--skip-preview");
  expect({ code: up.code, out: `${up.stdout}${up.stderr}`.slice(-2000) }).toMatchObject({ code: 0 });
  expect(requests).toEqual([`GET /${ASSET}`]);
  expect(emu.state.apiAvailabilityPatterns()).toHaveProperty("team-a");
  await expectNoChangeThenDestroy(pulumi, "team-a");
}, 300_000);

it("TypeScript: the Node.js SDK's tarball from the release, installed offline; up downloads the plugin once; a refreshing preview changes nothing and downloads nothing; destroy", async () => {
  const home = path.join(scratch, "typescript");
  const dir = path.join(home, "project");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: release-install-typescript\nruntime: nodejs\n");
  // The release's packages, installed offline: the dynamic-provider package and @pulumi/pulumi (with typescript and
  // @types/node) by npm ci from the repository's lock and npm's cache (test/package/consumer-project.ts), then the
  // Node.js SDK's tarball by `npm install <tarball>`, as a user installs a downloaded release asset.
  const installed = await installConsumer(
    dir,
    path.join(releaseDir, `pulumi-cloudbees-${VERSION}.tgz`),
    { "@pulumi/pulumi": "node_modules/@pulumi/pulumi", typescript: "node_modules/typescript", "@types/node": "node_modules/@types/node" },
    null,
  );
  expect({ code: installed.code, output: installed.output.slice(-1000) }).toMatchObject({ code: 0 });
  await mustRun("npm", ["install", "--offline", "--no-audit", "--no-fund", path.join(releaseDir, `pulumi-cloudbees-cloudbees-${VERSION}.tgz`)], dir);
  const sdk = JSON.parse(fs.readFileSync(path.join(dir, "node_modules", "@pulumi-cloudbees", "cloudbees", "package.json"), "utf8")) as { version: string; pulumi: { server: string } };
  expect(sdk).toMatchObject({ version: VERSION, pulumi: { server: SERVER } });
  fs.writeFileSync(
    path.join(dir, "index.ts"),
    ['import * as cloudbees from "@pulumi-cloudbees/cloudbees";', "", 'const pattern = new cloudbees.BundleAvailability("pattern", { bundleId: "base", controllers: ["team-a/controller-a"] });', "export const controllers = pattern.controllers;", ""].join("\n"),
  );
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ ...JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")), main: "index.ts" }));
  const { env, pulumi } = userProject(home, dir, [path.dirname(process.execPath)]);
  await initStack({ dir, env, pulumi });
  requests.length = 0;
  const up = await pulumi("up", "--yes", "--skip-preview");
  expect({ code: up.code, out: `${up.stdout}${up.stderr}`.slice(-2000) }).toMatchObject({ code: 0 });
  expect(requests).toEqual([`GET /${ASSET}`]);
  expect(emu.state.apiAvailabilityPatterns()).toHaveProperty("base");
  await expectNoChangeThenDestroy(pulumi, "base");
}, 300_000);

async function whichGo(): Promise<string> {
  return (await mustRun("go", ["env", "GOROOT"], scratch)).trim() + "/bin/go";
}

describe("pulumi plugin install --checksum (the sha256 the release's checksums file gives)", () => {
  const sumOf = () => {
    const line = fs.readFileSync(path.join(releaseDir, `pulumi-cloudbees_${VERSION}_checksums.txt`), "utf8").split("\n").find((l) => l.endsWith(`  ${ASSET}`));
    return line!.split(" ")[0]!;
  };
  const install = (name: string, prefix: string) => {
    const home = path.join(scratch, name);
    const cli = realCli();
    const env = {
      PATH: cli.dir,
      HOME: home,
      PULUMI_HOME: home,
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: override(prefix),
    };
    return run(path.join(cli.dir, "pulumi"), ["plugin", "install", "resource", "cloudbees", VERSION, "--server", SERVER, "--checksum", sumOf(), "--non-interactive"], scratch, env);
  };

  it("a corrupted archive is refused", async () => {
    const r = await install("checksum-corrupt", "corrupt/");
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/invalid checksum, expected [0-9a-f]{64}/);
  }, 120_000);

  it("a good archive fetched over HTTP is refused too, by Pulumi 3.248.0's defect (the bytes of its last read are not summed): this test fails when the CLI is fixed", async () => {
    const r = await install("checksum-good", "");
    expect(r.code).not.toBe(0);
    const actual = /actual ([0-9a-f]{64})/.exec(r.stderr)?.[1];
    expect(actual).toBeDefined();
    expect(actual).not.toBe(sumOf());
  }, 120_000);
});

it("YAML: when the download fails, the error names the install command", async () => {
  const p = yamlProject("no-release", "empty");
  await initStack(p);
  const up = await p.pulumi("up", "--yes", "--skip-preview");
  expect(up.code).not.toBe(0);
  expect(`${up.stdout}${up.stderr}`).toContain(`pulumi plugin install resource cloudbees v${VERSION} --server ${SERVER}`);
}, 300_000);
