/* istanbul ignore file */
/**
 * `pulumi-cloudbees import` against an installation set up by hand (40 controllers, 10 bundles, patterns of every
 * kind, assignments, applications with environments, a target group, flags and their configurations): the built
 * bin writes a program that typechecks, whose first up plans only creates and writes nothing, and whose
 * `preview --refresh` with expectNoChanges passes.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import * as ts from "typescript";
import { startEmulator, type Emulator } from "../../emulator";
import { FeatureManagementClient, OperationsCenterClient } from "../../provider";
import { programText } from "../../cli/program-text";
import { ProgramRunner } from "../harness";
import { adminConfig, assertBuiltPackage, BLANK_ENV, LIST_PATH, REPO_ROOT, requests } from "../resources/helpers";

const BIN = path.join(REPO_ROOT, "dist", "cli", "main.js");
const TEAMS = ["team-01", "team-02", "team-03", "team-04", "team-05", "team-06", "team-07", "team-08"];
/** 40 controllers: five per team folder. */
const CONTROLLERS = TEAMS.flatMap((t) => [1, 2, 3, 4, 5].map((i) => `${t}/controller-${i}`));

let emu: Emulator;
let dir: string;
let project: string;

/** Bundles: a shared base, a nested one, and one per team; two carry a bundle.yaml pattern. */
function writeBundles(root: string): void {
  const bundle = (name: string, extra = "") => {
    fs.mkdirSync(path.join(root, name), { recursive: true });
    fs.writeFileSync(path.join(root, name, "bundle.yaml"), `apiVersion: "1"\nid: "${path.basename(name)}"\nversion: "1"\n${extra}`);
  };
  bundle("base");
  bundle("platform/tools");
  for (const [i, team] of TEAMS.entries()) bundle(team, i >= 6 ? `availabilityPattern: "${team}/.*"\n` : "");
}

async function importCli(args: string[], env: Record<string, string> = {}): Promise<{ stdout: string; stderr: string }> {
  return promisify(execFile)(process.execPath, [BIN, "import", ...args], {
    cwd: dir,
    env: {
      ...process.env,
      ...BLANK_ENV,
      CLOUDBEES_USERNAME: emu.credentials.admin.username,
      CLOUDBEES_API_TOKEN: emu.credentials.admin.apiToken,
      CLOUDBEES_FEATURE_MANAGEMENT_URL: emu.featureManagementUrl,
      CLOUDBEES_FEATURE_MANAGEMENT_TOKEN: emu.credentials.featureManagementToken,
      // The emulator's rate limit is off: no need to wait a second between the import's requests.
      CLOUDBEES_FEATURE_MANAGEMENT_REQUEST_INTERVAL_MS: "0",
      ...env,
    },
  });
}

beforeAll(async () => {
  assertBuiltPackage();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cloudbees-import-"));
  writeBundles(path.join(dir, "bundles"));
  emu = await startEmulator({ bundlesDir: path.join(dir, "bundles"), controllers: CONTROLLERS });

  // The installation, set up by hand (as people do in the UI), not by this package.
  const oc = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...emu.credentials.admin });
  const fm = new FeatureManagementClient({ baseUrl: emu.featureManagementUrl, token: emu.credentials.featureManagementToken, minRequestIntervalMs: 0 });
  try {
    await oc.setAvailabilityPattern("base", ".*");
    await oc.setAvailabilityPattern("platform/tools", "team-0[1-3]/controller-1");
    await oc.setAvailabilityPattern("team-01", "team-01/.*");
    for (const team of TEAMS.slice(1, 4)) {
      // A list of controllers, written the way this package writes one (so the import declares `controllers`).
      await oc.setAvailabilityPattern(team, `^(?:${[1, 2, 3, 4, 5].map((i) => `${team}/controller-${i}`).join("|")})$`);
    }
    // team-05 and team-06 keep no pattern at all; team-07 and team-08 their bundle.yaml's.
    await oc.setGlobalAvailabilityPatternBehavior(false);
    for (const c of CONTROLLERS) {
      const [team, name] = c.split("/");
      if (name === "controller-5") continue; // unassigned
      const bundle = name === "controller-1" && ["team-01", "team-02", "team-03"].includes(team!) ? "platform/tools"
        : ["team-05", "team-06"].includes(team!) ? "base"
        : team!;
      await oc.setControllerToBundle(bundle, c);
    }
    const checkout = await fm.createApplication("checkout");
    await fm.createApplication("web-shop");
    // The checkout team's flags, set up in the UI: what the import must declare so that the first up writes nothing.
    const app = checkout.id;
    await fm.createEnvironment(app, { name: "Staging", description: "pre-production" });
    await fm.putTargetGroup(app, { type: "target-group", name: "beta testers", description: "beta plan", operator: "or", conditions: [
      { property: "plan", operator: "in-array", operand: ["beta"] },
      { property: "email", operator: "regex", operand: "@example\\.com$" },
    ] });
    await fm.createFlag(app, { name: "checkout.newFlow" });
    await fm.createFlag(app, { name: "checkout.banner", availableValues: ["blue", "red"], isPermanent: true });
    await fm.putExperiment(app, "Production", { type: "experiment", flag: "checkout.newFlow", labels: ["checkout"], conditions: [{ group: { name: "beta testers" }, value: true }], value: false });
    await fm.putExperiment(app, "Staging", {
      type: "experiment",
      flag: "checkout.newFlow",
      enabled: false,
      value: [{ option: true, percentage: 30 }],
      // A platform's own rules name the group too, and depend on the banner flag.
      platforms: [{ name: "Android", conditions: [{ group: { name: "beta testers" }, dependency: { flag: "checkout.banner", value: "red" }, value: true }] }],
    });
    await fm.putExperiment(app, "Production", { type: "experiment", flag: "checkout.banner", description: "spring sale", value: "red" });
    // A team member besides the token's owner (U3), with permissions on two environments.
    await fm.putTeamMember({ email: "Dana@Checkout.example", name: "Dana", applications: { [app]: { environments: { Production: "read", Staging: "write" } } } });
  } finally {
    await oc.close();
    await fm.close();
  }

  project = path.join(dir, "project");
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, "Pulumi.yaml"), "name: adopted\nruntime: nodejs\nmain: index.ts\n");
  // The project's node_modules: this repository's (pulumi-cloudbees links to the built package).
  fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(project, "node_modules"), "dir");
  fs.writeFileSync(path.join(dir, "Pulumi.test.yaml"), `config:\n  cloudbees:operationsCenterUrl: ${emu.operationsCenterUrl}\n  cloudbees:timeoutMs: "5000"\n`);
});

afterAll(async () => {
  await emu?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("pulumi-cloudbees import of an installation set up by hand", () => {
  jest.setTimeout(120_000);
  let text: string;

  it("writes a program grouped by bundle, in a stable order, with names derived from the ids", async () => {
    const out = path.join(project, "index.ts");
    const run = await importCli(["--config-file", "Pulumi.test.yaml", "--out", out]);
    expect(run.stderr).toMatch(/wrote ".*index\.ts" \(10 bundles, 32 assignments, 2 applications, 2 flags, 2 team members read\)/);
    text = fs.readFileSync(out, "utf8");

    expect(text).toContain('new cloudbees.GlobalAvailabilityPattern("global-availability-pattern", { visibility: false });');
    expect(text).toContain('new cloudbees.BundleAvailability("base", { bundleId: "base", regex: ".*" });');
    expect(text).toMatch(/const platformToolsBundle = new cloudbees\.BundleAvailability\("platform-tools", \{\n  bundleId: "platform\/tools",\n  regex: "team-0\[1-3\]\/controller-1",\n\}\);/);
    expect(text).toMatch(/new cloudbees\.BundleAvailability\("team-02", \{\n  bundleId: "team-02",\n  controllers: \[\n    "team-02\/controller-1",\n/);
    expect(text).not.toMatch(/BundleAvailability\("team-0[5-8]"/);
    expect(text).toMatch(/new cloudbees\.ControllerBundleAssignment\("assign-team-07-controller-1", \{\n  controllerPath: "team-07\/controller-1",\n  bundleId: "team-07",\n\}\);/);
    expect(text).toContain('const checkoutApp = new cloudbees.Application("app-checkout", { name: "checkout", adoptExisting: true });');
    // The flags side: every environment (Production included), the target group, the flags, the configurations.
    expect(text).toMatch(/const checkoutStagingEnv = new cloudbees\.Environment\("checkout-Staging", \{\n  applicationId: checkoutApp\.applicationId,\n  name: "Staging",\n  description: "pre-production",\n\}\);/);
    expect(text).toMatch(/new cloudbees\.Flag\("checkout-checkout\.banner", \{[\s\S]*?availableValues: \["blue", "red"\],[\s\S]*?isPermanent: true/);
    // Target groups and flags that conditions name are the resources' outputs: the engine creates them first.
    expect(text).toMatch(/new cloudbees\.FlagConfiguration\("checkout-Production-checkout\.newFlow", \{[^;]*?environment: checkoutProductionEnv\.name,\n  flag: checkoutCheckoutNewFlowFlag\.name,[^;]*?conditions: \[\{ group: \{ operator: "or", name: checkoutBetaTestersGroup\.name \}, value: true \}\],[^;]*?\}\);/);
    const staging = /new cloudbees\.FlagConfiguration\("checkout-Staging-checkout\.newFlow", \{[^;]*\}\);/.exec(text)![0].replace(/\s+/g, " ");
    expect(staging).toContain('platforms: [ { name: "Android", conditions: [ { dependency: { flag: checkoutCheckoutBannerFlag.name, value: "red", }, group: { operator: "or", name: checkoutBetaTestersGroup.name, }, value: true, }, ],');
    expect(staging).not.toContain("conditions: []");
    expect(text).not.toContain("dependsOn");
    expect(text.match(/new cloudbees\.(Environment|TargetGroup|Flag|FlagConfiguration)\(/g)).toHaveLength(3 + 1 + 2 + 3);
    expect(text.match(/new cloudbees\.ControllerBundleAssignment\(/g)).toHaveLength(32);
    // Team members, adopted by email and kept on destroy; application ids literal, named in a comment.
    const checkoutId = emu.state.applications("acme").find((a) => a.name === "checkout")!.id;
    expect(text).toContain(
      `// Applications: checkout.\nnew cloudbees.TeamMember("member-Dana-Checkout.example", {\n  email: "Dana@Checkout.example",\n  name: "Dana",\n  teamAdmin: false,\n` +
        `  applications: {\n    "${checkoutId}": {\n      environments: {\n        Production: "read",\n        Staging: "write",\n      },\n    },\n  },\n` +
        `  adoptExisting: true,\n}, { retainOnDelete: true });`,
    );
    expect(text.match(/new cloudbees\.TeamMember\(/g)).toHaveLength(2);
    // Grouped by bundle, bundles sorted.
    const groups = [...text.matchAll(/^\/\/ Bundle "([^"]+)"/gm)].map((m) => m[1]);
    expect(groups).toEqual(["base", "platform/tools", ...TEAMS]);
  });

  it("the program typechecks against the package's types", () => {
    const program = ts.createProgram([path.join(project, "index.ts")], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.CommonJS,
      moduleResolution: ts.ModuleResolutionKind.Node10,
      esModuleInterop: true,
      skipLibCheck: true,
      types: [],
      // As our tsconfig.json: without the DOM's declarations, which would be half of what the check reads.
      lib: ["lib.es2022.d.ts"],
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(diagnostics).toEqual([]);
  });

  it("its first up plans only creates and writes nothing; preview --refresh expecting no changes passes", async () => {
    const runner = await ProgramRunner.start({ cwd: project, config: adminConfig(emu), env: BLANK_ENV, timeoutMs: 90_000 });
    try {
      emu.journal.clear();
      const up = await runner.up();
      // The global switch, 6 patterns, 32 assignments, 2 applications; 3 environments, a target group, 2 flags and
      // 3 configurations; 2 team members.
      expect(up).toHaveLength(1 + 6 + 32 + 2 + 9 + 2);
      expect(new Set(up.map((e) => e.op))).toEqual(new Set(["create"]));
      expect(emu.journal.entries().filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`)).toEqual([]);

      emu.journal.clear();
      const preview = await runner.preview(undefined, { refresh: true, expectNoChanges: true });
      expect(preview.filter((e) => e.op === "refresh")).toHaveLength(up.length);
      // Refresh steps run in parallel, so the CasC resources share one list (two if the reads straggle).
      expect(requests(emu, "GET", LIST_PATH)).toBeLessThanOrEqual(2 + 1);
      expect(emu.journal.entries().filter((e) => e.method !== "GET")).toEqual([]);

      // One at a time (parallel: 1) too: the deployment's list serves every read (the provider host writes nothing).
      emu.journal.clear();
      await runner.refresh({ parallel: 1, expectNoChanges: true });
      expect(requests(emu, "GET", LIST_PATH)).toBeGreaterThanOrEqual(1);
      expect(requests(emu, "GET", LIST_PATH)).toBeLessThanOrEqual(2);
    } finally {
      await runner.close();
    }
  });

  it("filters bundles and controllers, and declares the default bundle when told", async () => {
    const { stdout } = await importCli(["--bundles", "team-0[12]", "--controllers", "team-01/.*", "--default-bundle", "team-01"], {
      CLOUDBEES_OPERATIONS_CENTER_URL: emu.operationsCenterUrl,
    });
    expect([...stdout.matchAll(/^\/\/ Bundle "([^"]+)"/gm)].map((m) => m[1])).toEqual(["team-01", "team-02"]);
    // team-01/controller-1 uses platform/tools, team-01/controller-5 nothing.
    expect(stdout.match(/ControllerBundleAssignment\(/g)).toHaveLength(3);
    expect(stdout).toContain('new cloudbees.DefaultBundle("default-bundle", { bundleId: team01Bundle.bundleId });');
    expect(stdout).toContain("// Generated by `pulumi-cloudbees import --bundles 'team-0[12]' --controllers 'team-01/.*' --default-bundle team-01`");
  });

  it("fails with the fix: an encrypted setting, an unknown default bundle, an invalid regex", async () => {
    fs.writeFileSync(path.join(dir, "Pulumi.enc.yaml"), `config:\n  cloudbees:apiToken:\n    secure: AAABAxyz\n`);
    const failure = (args: string[], env?: Record<string, string>) => importCli(args, env).then(() => "", (e: { stderr: string }) => e.stderr);
    expect(await failure(["--stack", "enc"])).toMatch(/cloudbees:apiToken is encrypted \(secure\).*CLOUDBEES_API_TOKEN=/);
    expect(await failure(["--default-bundle", "nope"], { CLOUDBEES_OPERATIONS_CENTER_URL: emu.operationsCenterUrl })).toMatch(
      /--default-bundle "nope" names no bundle of the operations center \(bundles: "base", "platform\/tools", "team-01"/,
    );
    expect(await failure(["--controllers", "team-("])).toMatch(/--controllers "team-\(" is not a valid regular expression/);
  });
});

describe("programText names", () => {
  it("derives unique resource and variable names from ids that clash once made safe", () => {
    const bundle = (name: string, regex: string, usedBy: string[]) => ({ name, url: "", regex, availabilityPatternFromYaml: false, availableFor: usedBy, usedBy });
    const text = programText({
      operationsCenterUrl: "https://ci.example.com/cjoc/",
      globalVisibility: undefined,
      bundles: [bundle("a-b", "x", ["a/b"]), bundle("a/b", "y", ["a-b"])],
    });
    expect(text).toContain('const aBBundle = new cloudbees.BundleAvailability("a-b", { bundleId: "a-b", regex: "x" });');
    expect(text).toContain('const aBBundle2 = new cloudbees.BundleAvailability("a-b-2", { bundleId: "a/b", regex: "y" });');
    expect(text).toContain('new cloudbees.ControllerBundleAssignment("assign-a-b", { controllerPath: "a/b", bundleId: aBBundle.bundleId });');
    expect(text).toContain('new cloudbees.ControllerBundleAssignment("assign-a-b-2", { controllerPath: "a-b", bundleId: aBBundle2.bundleId });');
  });

  it("gives the same text for the same installation, whatever order the lists come in", () => {
    const bundle = (name: string, usedBy: string[]) => ({ name, url: "", regex: "", availabilityPatternFromYaml: false, availableFor: [], usedBy });
    const apps = [{ name: "b", id: "2" }, { name: "a", id: "1" }];
    const one = programText({ operationsCenterUrl: "u", globalVisibility: true, bundles: [bundle("x", ["c2", "c1"]), bundle("w", ["c3"])], applications: apps });
    const two = programText({ operationsCenterUrl: "u", globalVisibility: true, bundles: [bundle("w", ["c3"]), bundle("x", ["c1", "c2"])], applications: [...apps].reverse() });
    expect(one).toBe(two);
    expect([...one.matchAll(/"(assign-c\d|app-\w)"/g)].map((m) => m[1])).toEqual(["assign-c3", "assign-c1", "assign-c2", "app-a", "app-b"]);
    // Bundles without a pattern are available through the global switch: their assignments depend on it.
    expect(one).toContain('const globalVisibility = new cloudbees.GlobalAvailabilityPattern("global-availability-pattern", { visibility: true });');
    expect(one.match(/dependsOn: \[globalVisibility\]/g)).toHaveLength(3);
  });
});
