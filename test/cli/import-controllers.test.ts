/* istanbul ignore file */
/**
 * `pulumi-cloudbees import --bundle-tree` against controllers that run their bundles (set up by hand: assigned, then
 * reloaded): the built bin declares each controller's ControllerConfiguration, its URL from the pattern, from
 * --controller-url and from an instance of the connection; the program's first up reads each controller and writes
 * nothing (the emulator's journal), and a refresh expecting no changes passes.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { startEmulator, type Emulator } from "../../emulator";
import { InstanceClient, OperationsCenterClient } from "../../provider";
import { ProgramRunner } from "../harness";
import { adminConfig, assertBuiltPackage, BLANK_ENV, REPO_ROOT } from "../resources/helpers";
import { cliEnvironment } from "./cli-environment";

const BIN = path.join(REPO_ROOT, "dist", "cli", "main.js");
const A = "team-a/controller-a";
const A2 = "team-a/controller-2";
const B = "team-b/controller-b";
const CONTROLLERS = [A, A2, B, "sandbox"];

let emu: Emulator;
let project: string;

beforeAll(async () => {
  assertBuiltPackage();
  project = fs.mkdtempSync(path.join(os.tmpdir(), "cloudbees-import-controllers-"));
  // The program's bundle folders are the operations center's: the same tree (examples/bundles: team-a inherits base).
  fs.cpSync(path.join(REPO_ROOT, "examples", "bundles"), path.join(project, "bundles"), { recursive: true });
  emu = await startEmulator({ bundlesDir: path.join(project, "bundles"), controllers: CONTROLLERS });
  const oc = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...emu.credentials.admin });
  try {
    // team-b has no availability pattern: every controller may use it.
    await oc.setGlobalAvailabilityPatternBehavior(true);
    await oc.setControllerToBundle("team-a", A);
    await oc.setControllerToBundle("team-a", A2);
    await oc.setControllerToBundle("team-b", B);
  } finally {
    await oc.close();
  }
  // Each controller runs its bundle, as after its restart.
  for (const c of [A, A2, B]) {
    const controller = new InstanceClient({ baseUrl: emu.controllerUrls[c]!, ...emu.credentials.admin });
    try {
      expect(await controller.reloadBundle()).toMatchObject({ reloaded: true });
    } finally {
      await controller.close();
    }
  }
  fs.writeFileSync(path.join(project, "Pulumi.yaml"), "name: adopted-controllers\nruntime: nodejs\nmain: index.ts\n");
  fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(project, "node_modules"), "dir");
});

afterAll(async () => {
  await emu?.close();
  if (project) fs.rmSync(project, { recursive: true, force: true });
});

/** The default connection's instances, as the stack config and the import's config file hold them. */
const instances = () => ({ default: { instances: { "team-b-controller-b": { url: emu.controllerUrls[B]! } } } });

describe("pulumi-cloudbees import --bundle-tree", () => {
  jest.setTimeout(120_000);

  it("declares what each controller runs; the first up reads each controller and writes nothing; a refresh changes nothing", async () => {
    fs.writeFileSync(path.join(project, "Pulumi.test.yaml"), `config:\n  cloudbees:connections: ${JSON.stringify(instances())}\n`);
    const origin = new URL(emu.operationsCenterUrl).origin;
    const { stderr } = await promisify(execFile)(
      process.execPath,
      [BIN, "import", "--config-file", "Pulumi.test.yaml", "--bundle-tree", "bundles", "--controller-url-pattern", `${origin}/controllers/{path}/`,
        "--controller-url", `${A2}=${emu.controllerUrls[A2]!}`, "--out", "index.ts"],
      { cwd: project, env: cliEnvironment(emu) },
    );
    expect(stderr).toMatch(/\(3 bundles, 3 assignments, 3 controller configurations, /);
    const text = fs.readFileSync(path.join(project, "index.ts"), "utf8");
    expect(text).toContain(`// What "${A}" runs, against its bundle; its URL from --controller-url-pattern.`);
    expect(text).toContain(`instanceUrl: "${emu.controllerUrls[A]!}",\n  bundleTreePath: "bundles",\n  bundleId: teamAControllerAAssignment.bundleId,`);
    expect(text).toContain(`// What "${A2}" runs, against its bundle; its URL given with --controller-url.`);
    expect(text).toContain(`// What "${B}" runs, against its bundle; its URL instance "team-b-controller-b" of the connection's settings.`);
    expect(text).toContain('instance: "team-b-controller-b",');

    const config = { ...adminConfig(emu), "cloudbees:connections": JSON.stringify(instances()) };
    const runner = await ProgramRunner.start({ cwd: project, config, env: BLANK_ENV, timeoutMs: 90_000 });
    try {
      emu.journal.clear();
      const up = await runner.up();
      expect(up.filter((e) => e.type.endsWith("ControllerConfiguration")).map((e) => e.op)).toEqual(["create", "create", "create"]);
      expect(new Set(up.map((e) => e.op))).toEqual(new Set(["create"]));
      // Adopted without a write: each controller read (its update check and its export), nothing sent.
      expect(emu.journal.entries().filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`)).toEqual([]);
      for (const c of [A, A2, B]) {
        const reads = emu.journal.entries().filter((e) => e.path.startsWith(`/controllers/${c}/`)).map((e) => e.path.slice(`/controllers/${c}/`.length));
        expect(reads.sort()).toEqual(["casc-bundle-mgnt/check-bundle-update", "core-casc-export/zipExport"]);
      }

      emu.journal.clear();
      await runner.preview(undefined, { refresh: true, expectNoChanges: true });
      expect(emu.journal.entries().filter((e) => e.method !== "GET")).toEqual([]);
    } finally {
      await runner.close();
    }
  });

  it("fails early, naming the option: a missing tree, a malformed --controller-url, a pattern without a placeholder", async () => {
    const failure = (args: string[]) =>
      promisify(execFile)(process.execPath, [BIN, "import", ...args], { cwd: project, env: cliEnvironment(emu) }).then(() => "", (e: { stderr: string }) => e.stderr);
    expect(await failure(["--bundle-tree", "nowhere"])).toMatch(/--bundle-tree "nowhere" is not a folder/);
    expect(await failure(["--bundle-tree", "bundles", "--controller-url", "team-a/controller-a"])).toMatch(/must be <controller full path>=<http\(s\) URL>/);
    expect(await failure(["--bundle-tree", "bundles", "--controller-url", "a=https://u:p@ci.example.com/a/"])).toMatch(/a URL with credentials in it/);
    expect(await failure(["--bundle-tree", "bundles", "--controller-url-pattern", "https://ci.example.com/x/"])).toMatch(/it has neither \{path\} nor \{name\}/);
    expect(await failure(["--controller-url", "a=https://ci.example.com/a/"])).toMatch(/go with --bundle-tree/);
  });
});
