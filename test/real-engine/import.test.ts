/**
 * `pulumi import`, the CLI's own, through the plugin's read by id: for every resource with an id a user can know, the
 * command its page shows (docs/resources, "Import") adopts an object made outside Pulumi, in a YAML project; so does
 * the named-connection form (`<connection>:<id>`) from a second emulator registered as `cloudbees:connections.second`.
 * Nothing is written to the services; the code the CLI generates, put into the program, then previews and refreshes
 * with no change. An id that names nothing ends with the engine's own "does not exist"; a hostile id (control
 * characters, CI log commands, 200 KB) never reaches the CLI's output raw, and never at length.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import YAML from "yaml";
import { startEmulator, type Emulator } from "../../emulator";
import { FeatureManagementClient, OperationsCenterClient } from "../../provider";
import { IMPORT_IDS } from "../../provider/plugin/import-ids";
import { kinds, typeNameOf } from "../../provider/plugin/tokens";
import { pageOf, sectionOf } from "../../scripts/schema/docs";
import { emulatorConnection } from "../../testing/emulator-config";
import { workspace } from "./tier-cli";
import { CliProject } from "./languages/cli-project";
import { installPlugin } from "./languages/toolchains";

/** The application id the docs' commands show, which the test's application replaces. */
const DOCS_APPLICATION_ID = "6b04319012a9f465249c6dce";

let emu: Emulator;
/** The second server, reached through the named connection `second` only. */
let second: Emulator;
let cli: CliProject;
let ws: ReturnType<typeof workspace>;
let applicationId: string;
const generated: Record<string, unknown> = {};

/** What the docs' commands name, made outside Pulumi: an application with a flag configured in Production, ... */
async function madeByHand(): Promise<void> {
  const c = emulatorConnection(emu);
  const fm = new FeatureManagementClient({ baseUrl: c.featureManagementUrl, token: c.featureManagementToken, minRequestIntervalMs: 0 });
  applicationId = (await fm.createApplication("checkout-service")).id;
  await fm.createEnvironment(applicationId, { name: "Staging" });
  await fm.createFlag(applicationId, { name: "checkout.newFlow" });
  await fm.setFlagConfiguration(applicationId, "Production", { name: "checkout.newFlow", enabled: true, value: true });
  await fm.putTargetGroup(applicationId, { type: "target-group", name: "beta-users", conditions: [{ property: "betaTester", operator: "is-true" }] });
  await fm.putTeamMember({ email: "dana@example.com", name: "Dana Reyes" });
  await fm.close();
  const oc = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...emu.credentials.admin });
  await oc.setAvailabilityPattern("team-b", "^(?:team-b/controller-b)$");
  await oc.setControllerToBundle("team-b", "team-b/controller-b");
  await oc.setGlobalAvailabilityPatternBehavior(true);
  await oc.close();
}

/** The stack config of a named connection, as `pulumi config set --path` sets it (tokens secret). */
async function registerConnection(name: string, e: Emulator): Promise<void> {
  const c = emulatorConnection(e);
  for (const [key, value] of Object.entries(c)) {
    if (value === undefined) continue;
    const secret = key === "apiToken" || key === "featureManagementToken";
    await cli.ok("config", "set", "--path", ...(secret ? ["--secret"] : []), `cloudbees:connections.${name}.${key}`, String(value));
  }
}

beforeAll(async () => {
  emu = await startEmulator();
  second = await startEmulator();
  await madeByHand();
  ws = workspace("import");
  const dir = path.join(ws.dir, "project");
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: adopted\nruntime: yaml\n");
  cli = new CliProject(dir, ws.env);
  await installPlugin(cli);
  await cli.initFor(emu);
  await registerConnection("second", second);
  emu.journal.clear();
});
afterAll(async () => {
  await emu?.close();
  await second?.close();
  ws?.cleanup();
});

describe("each importable resource's page: its pulumi import command adopts the object", () => {
  for (const kind of kinds().filter((k) => IMPORT_IDS[k])) {
    const type = typeNameOf(kind);
    it(type, async () => {
      const [, token, name, docsId] = /^pulumi import (\S+) (\S+) (\S+)$/m.exec(sectionOf(pageOf(type), "Import"))!;
      const id = docsId!.replace(DOCS_APPLICATION_ID, applicationId);
      const out = path.join(ws.dir, `${type}.yaml`);
      await cli.ok("import", token!, name!, id, "--yes", "--protect=false", "--out", out);
      Object.assign(generated, (YAML.parse(fs.readFileSync(out, "utf8")) as { resources: Record<string, unknown> }).resources);
      const state = JSON.parse((await cli.ok("stack", "export")).stdout) as { deployment: { resources: Array<{ type: string; id?: string }> } };
      expect(state.deployment.resources.filter((r) => r.type === token).map((r) => r.id)).toHaveLength(1);
    });
  }
});

describe("from a named connection: <connection>:<id>", () => {
  it("a flag of the second server is read from it alone, and recorded with connection: second", async () => {
    const c = emulatorConnection(second);
    const fm = new FeatureManagementClient({ baseUrl: c.featureManagementUrl, token: c.featureManagementToken, minRequestIntervalMs: 0 });
    const otherApp = (await fm.createApplication("payments-service")).id;
    await fm.createFlag(otherApp, { name: "payments.retry" });
    await fm.close();
    second.journal.clear();
    const before = emu.journal.entries().length;
    const out = path.join(ws.dir, "second.yaml");
    await cli.ok("import", "cloudbees:index:Flag", "paymentsRetry", `second:${otherApp}/payments.retry`, "--yes", "--protect=false", "--out", out);
    const resources = (YAML.parse(fs.readFileSync(out, "utf8")) as { resources: Record<string, { properties: Record<string, unknown> }> }).resources;
    expect(resources.paymentsRetry!.properties).toMatchObject({ applicationId: otherApp, name: "payments.retry", connection: "second" });
    Object.assign(generated, resources);
    const state = JSON.parse((await cli.ok("stack", "export")).stdout) as { deployment: { resources: Array<{ urn: string; id?: string; outputs?: Record<string, unknown> }> } };
    const flag = state.deployment.resources.find((r) => r.urn.endsWith("::paymentsRetry"))!;
    expect({ id: flag.id, connection: flag.outputs?.connection }).toEqual({ id: `${otherApp}/payments.retry`, connection: "second" });
    expect(second.journal.entries().length).toBeGreaterThan(0);
    expect(emu.journal.entries().slice(before)).toEqual([]);
  });
});

describe("ids that name nothing, and hostile ids", () => {
  /** `pulumi import --file`: each entry's error, the whole output of a command that must fail. */
  async function importFails(entries: Array<{ type: string; name: string; id: string }>): Promise<string> {
    const file = path.join(ws.dir, `import-${entries[0]!.name}.json`);
    fs.writeFileSync(file, JSON.stringify({ resources: entries }));
    const r = await cli.run("import", "--file", file, "--yes", "--protect=false", "--out", path.join(ws.dir, "failed.yaml"));
    expect(r.code).not.toBe(0);
    return `${r.stdout}\n${r.stderr}`;
  }

  // Of the right form, naming nothing on the servers (GlobalAvailabilityPattern is one setting, always there).
  const missing: Record<string, (appId: string) => string> = {
    Application: () => "0123456789abcdef01234567",
    Environment: (appId) => `${appId}/Nowhere`,
    Flag: (appId) => `${appId}/no.such.flag`,
    TargetGroup: (appId) => `${appId}/nobody`,
    FlagConfiguration: (appId) => `${appId}/Production/no.such.flag`,
    TeamMember: () => "nobody@example.com",
    BundleAvailability: () => "bundle-availability/no-such-bundle",
    ControllerBundleAssignment: () => "assignment/team-b/no-such-controller",
    ControllerBundleToken: () => "bundle-token/team-b/no-such-controller",
  };
  for (const [type, idOf] of Object.entries(missing)) {
    it(`${type}: an id that names nothing ends with the engine's "does not exist"`, async () => {
      const id = idOf(applicationId);
      const output = await importFails([{ type: `cloudbees:index:${type}`, name: `missing${type}`, id }]);
      expect(output).toContain(`resource '${id}' does not exist`);
      expect(output).not.toContain("does not support importing");
    });
  }

  it("an id with control characters, CI log commands or 200 KB is refused, quoted, escaped and bounded", async () => {
    const long = `${applicationId}/${"x".repeat(200 * 1024)}`;
    const hostile = [`${applicationId}/a\u001b[2J\n::error::forged`, `${applicationId}/b ##vso[task.setvariable variable=x]y`, long];
    const output = await importFails(hostile.map((id, i) => ({ type: "cloudbees:index:Flag", name: `hostile${i}`, id })));
    expect(output).not.toContain("\u001b");
    expect(output).not.toContain("##vso[");
    expect(output.split(/\r?\n|\r/).filter((line) => /^\s*(::error::|##vso\[)/.test(line))).toEqual([]);
    expect(output).not.toContain("x".repeat(300));
    expect(output).toMatch(/names no Flag: an id has at most 1000 characters/);
  });
});

it("the imports wrote nothing to either service", () => {
  expect(emu.journal.entries().filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`)).toEqual([]);
});

// Issue 52: the first refresh after an import used to add to the inputs what the generated code left out (a Flag's
// availableValues and isPermanent).
it("the program with the generated code declares what was adopted: a preview and two refreshes find nothing to change and leave the inputs as imported", async () => {
  expect(Object.keys(generated)).toHaveLength(Object.keys(IMPORT_IDS).length + 1);
  fs.writeFileSync(path.join(cli.dir, "Pulumi.yaml"), YAML.stringify({ name: "adopted", runtime: "yaml", resources: generated }));
  await cli.ok("preview", "--expect-no-changes");
  const imported = await cli.recordedInputs();
  await cli.ok("refresh", "--expect-no-changes", "--yes");
  await cli.ok("preview", "--expect-no-changes");
  expect(await cli.recordedInputs()).toEqual(imported);
  await cli.ok("refresh", "--expect-no-changes", "--yes");
  expect(await cli.recordedInputs()).toEqual(imported);
});

it("a program's import resource option takes the same <connection>:<id>, with connection declared: the up adopts it, writing nothing", async () => {
  const c = emulatorConnection(second);
  const fm = new FeatureManagementClient({ baseUrl: c.featureManagementUrl, token: c.featureManagementToken, minRequestIntervalMs: 0 });
  const ledger = (await fm.createApplication("ledger-service")).id;
  await fm.createEnvironment(ledger, { name: "Staging" });
  await fm.close();
  second.journal.clear();
  const program = YAML.parse(fs.readFileSync(path.join(cli.dir, "Pulumi.yaml"), "utf8")) as { resources: Record<string, unknown> };
  program.resources.ledgerStaging = {
    type: "cloudbees:index:Environment",
    properties: { applicationId: ledger, name: "Staging", connection: "second" },
    options: { import: `second:${ledger}/Staging` },
  };
  fs.writeFileSync(path.join(cli.dir, "Pulumi.yaml"), YAML.stringify(program));
  await cli.ok("up", "--yes");
  expect(second.journal.entries().filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`)).toEqual([]);
  const state = JSON.parse((await cli.ok("stack", "export")).stdout) as { deployment: { resources: Array<{ urn: string; id?: string; outputs?: Record<string, unknown> }> } };
  const adopted = state.deployment.resources.find((r) => r.urn.endsWith("::ledgerStaging"))!;
  const key = second.state.environments(ledger).find((e) => e.name === "Staging")!.key;
  expect({ id: adopted.id, connection: adopted.outputs?.connection }).toEqual({ id: key, connection: "second" });
  await cli.ok("preview", "--expect-no-changes");
});
