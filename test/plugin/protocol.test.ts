// The plugin pulumi-resource-cloudbees over the provider protocol, as the engine drives it (gRPC, no CLI), against the
// emulator: Configure from the stack's cloudbees:* settings, a resource's whole life, secrets in and out, reads by id
// for `pulumi import`, invokes, and its plugin info and schema.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator, type Emulator } from "../../emulator";
import { OperationsCenterClient } from "../../provider";
import { emulatorConnection } from "../../testing/emulator-config";
import { isSecret, secret, unwrapSecrets } from "../../testing/engine/values";
import { cancelStops, configAndInfoMethods, providerInputs, resourceMethods } from "./every-method";
import { PLUGIN_MAIN, PluginProcess, provpb, statuspb, structpb, urnOf } from "./plugin-process";

const ROOT = path.join(__dirname, "..", "..");
let emu: Emulator;
let plugin: PluginProcess;

beforeAll(async () => {
  emu = await startEmulator();
  plugin = await PluginProcess.start();
  expect(await plugin.configure(providerInputs(emu))).toEqual({ acceptSecrets: true });
});
afterAll(async () => {
  await plugin?.close();
  await emu?.close();
});

it("answers its version, the package's schema, the config methods, and UNIMPLEMENTED for what it does not serve", async () => {
  const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string };
  await configAndInfoMethods(plugin, emu, version, fs.readFileSync(path.join(ROOT, "generated", "schema.json"), "utf8"));
});

it("serves each resource method and an invoke once, from check to delete", async () => {
  await resourceMethods(plugin);
});

describe("BundleAvailability through the plugin: check, create, read, diff, update, delete", () => {
  const urn = urnOf("BundleAvailability", "team-b");
  let id: string;
  let outs: Record<string, unknown>;

  it("check fails early, naming the input, and passes good inputs through", async () => {
    const bad = await plugin.check(urn, {}, { bundleId: "team-b", controlers: ["sandbox"] });
    expect(bad.failures.map((f) => f.property)).toContain("controlers");
    const good = await plugin.check(urn, {}, { bundleId: "team-b", controllers: ["team-b/controller-b", "sandbox"] });
    expect(good).toEqual({ inputs: { bundleId: "team-b", controllers: ["team-b/controller-b", "sandbox"] }, failures: [] });
  });

  it("create sets the pattern on the operations center", async () => {
    ({ id, properties: outs } = await plugin.create(urn, { bundleId: "team-b", controllers: ["team-b/controller-b", "sandbox"] }));
    expect(id).toBe("bundle-availability/team-b");
    expect(outs).toEqual({ bundleId: "team-b", controllers: ["team-b/controller-b", "sandbox"], regex: "^(?:sandbox|team-b/controller-b)$" });
    expect(emu.state.apiAvailabilityPatterns()["team-b"]).toBe("^(?:sandbox|team-b/controller-b)$");
  });

  it("read gives the state back; the same inputs make no diff, a new bundle id replaces", async () => {
    expect(await plugin.read(urn, id, outs)).toEqual({ id, properties: outs, inputs: { bundleId: "team-b", controllers: ["team-b/controller-b", "sandbox"] } });
    expect(await plugin.diff(urn, id, outs, { bundleId: "team-b", controllers: ["sandbox", "team-b/controller-b"] })).toEqual({ changes: false, replaces: [] });
    expect(await plugin.diff(urn, id, outs, { bundleId: "team-a", controllers: ["sandbox"] })).toEqual({ changes: true, replaces: ["bundleId"] });
  });

  it("update writes the new pattern; delete clears it", async () => {
    const updated = await plugin.update(urn, id, outs, { bundleId: "team-b", regex: "team-b/.*" });
    expect(updated).toEqual({ bundleId: "team-b", regex: "team-b/.*" });
    expect(emu.state.apiAvailabilityPatterns()["team-b"]).toBe("team-b/.*");
    await plugin.delete(urn, id, updated);
    expect(emu.state.apiAvailabilityPatterns()).toEqual({});
  });
});

describe("secrets", () => {
  it("a secret input comes back secret in the outputs, and in check's inputs", async () => {
    const urn = urnOf("Application", "shop");
    const checked = await plugin.check(urn, {}, { name: secret("secret-shop") });
    expect(isSecret(checked.inputs.name)).toBe(true);
    const created = await plugin.create(urn, { name: secret("secret-shop") });
    expect(created.properties.name).toEqual(secret("secret-shop"));
    expect(isSecret(created.properties.applicationId)).toBe(false);
    const read = await plugin.read(urn, created.id, created.properties);
    expect(read.properties!.name).toEqual(secret("secret-shop"));
    expect(read.inputs!.name).toEqual(secret("secret-shop"));
  });

  it("a controller's bundle token and link are secrets, whatever the inputs", async () => {
    await plugin.create(urnOf("BundleAvailability", "available"), { bundleId: "team-b", controllers: ["team-b/controller-b"] });
    await plugin.create(urnOf("ControllerBundleAssignment", "assign"), { controllerPath: "team-b/controller-b", bundleId: "team-b" });
    const urn = urnOf("ControllerBundleToken", "token");
    const created = await plugin.create(urn, { controllerPath: "team-b/controller-b" });
    expect(isSecret(created.properties.token)).toBe(true);
    expect(isSecret(created.properties.linkFileContent)).toBe(true);
    expect(isSecret(created.properties.url)).toBe(false);
    expect(unwrapSecrets(created.properties.token)).toBe(emu.state.controllerToken("team-b/controller-b"));
  });

  it("a create that made the object and then failed carries its id and properties (secrets wrapped) for the engine to record", async () => {
    await plugin.create(urnOf("BundleAvailability", "partial-available"), { bundleId: "team-a", controllers: ["team-a/controller-a"] });
    await plugin.create(urnOf("ControllerBundleAssignment", "partial-assign"), { controllerPath: "team-a/controller-a", bundleId: "team-a" });
    // The token is regenerated, then reading the new link fails.
    emu.faults.inject({ method: "GET", path: "/cjoc/config-bundle-download-link", status: 404, body: '{"error":"gone meanwhile"}' });
    const req = new provpb.CreateRequest();
    req.setUrn(urnOf("ControllerBundleToken", "partial"));
    req.setProperties(structpb.Struct.fromJavaScript({ controllerPath: "team-a/controller-a" }));
    const answer = await plugin.status("create", req, true);
    emu.faults.clear();
    expect(answer.details).toMatch(/^creating ControllerBundleToken \(bundle-token\/team-a\/controller-a\): .*the token was regenerated/);
    const status = statuspb.Status.deserializeBinary(answer.statusDetails!);
    const [any] = status.getDetailsList();
    expect(any!.getTypeUrl()).toMatch(/pulumirpc\.ErrorResourceInitFailed$/);
    const detail = provpb.ErrorResourceInitFailed.deserializeBinary(any!.getValue_asU8());
    const properties = detail.getProperties()!.toJavaScript() as Record<string, unknown>;
    expect({ id: detail.getId(), controllerPath: properties.controllerPath, tokenSecret: isSecret(properties.token) }).toEqual({
      id: "bundle-token/team-a/controller-a",
      controllerPath: "team-a/controller-a",
      tokenSecret: true,
    });
    expect(detail.getReasonsList()[0]).toContain("gone meanwhile");
  });

  it("the credentials never reach an output or a message", async () => {
    const { apiToken, featureManagementToken } = emulatorConnection(emu);
    expect(plugin.stderr).not.toContain(apiToken);
    expect(plugin.stderr).not.toContain(featureManagementToken);
  });
});

describe("read by id alone (pulumi import, Resource.get)", () => {
  it("a flag is found by <applicationId>/<name>, and read gives the inputs that declare it", async () => {
    const app = await plugin.create(urnOf("Application", "flags"), { name: "flags-app" });
    const appId = app.id;
    const flag = await plugin.create(urnOf("Flag", "f"), { applicationId: appId, name: "checkout.newFlow" });
    const read = await plugin.read(urnOf("Flag", "imported"), `${appId}/checkout.newFlow`);
    expect(read.id).toBe(flag.id);
    expect(read.inputs).toMatchObject({ applicationId: appId, name: "checkout.newFlow" });
  });

  it("a target group is read whole: its conditions are a required input", async () => {
    const app = await plugin.create(urnOf("Application", "groups"), { name: "groups-app" });
    const conditions = [{ property: "betaTester", operator: "is-true" }];
    await plugin.create(urnOf("TargetGroup", "beta"), { applicationId: app.id, name: "beta-users", conditions });
    const read = await plugin.read(urnOf("TargetGroup", "imported"), `${app.id}/beta-users`);
    expect(read.inputs).toEqual({ applicationId: app.id, name: "beta-users", conditions });
  });

  it("an environment's import id is <applicationId>/<name>; the read records its key as the id", async () => {
    const app = await plugin.create(urnOf("Application", "envs"), { name: "envs-app" });
    const read = await plugin.read(urnOf("Environment", "production"), `${app.id}/Production`);
    const production = emu.state.environments(app.id).find((e) => e.name === "Production")!;
    expect(read.id).toBe(production.key);
    expect(read.inputs).toEqual({ applicationId: app.id, name: "Production" });
  });

  it("a bundle availability set outside Pulumi is read by its id (an import is a deployment of its own)", async () => {
    const oc = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...emu.credentials.admin });
    await oc.setAvailabilityPattern("team-a", "^(?:sandbox)$");
    await oc.close();
    const fresh = await PluginProcess.start();
    try {
      await fresh.configure(providerInputs(emu));
      const read = await fresh.read(urnOf("BundleAvailability", "imported"), "bundle-availability/team-a");
      expect(read).toMatchObject({ id: "bundle-availability/team-a", inputs: { bundleId: "team-a", regex: "^(?:sandbox)$" } });
    } finally {
      await fresh.close();
    }
  });

  it("something that is not there reads as gone, and a kind that cannot be imported says why", async () => {
    expect(await plugin.read(urnOf("Flag", "missing"), "0123456789abcdef01234567/nothing")).toEqual({ id: "", properties: undefined, inputs: undefined });
    await expect(plugin.read(urnOf("DefaultBundle", "d"), "default-bundle")).rejects.toThrow(/DefaultBundle cannot be imported: no endpoint reads which bundle is the default/);
    await expect(plugin.read(urnOf("Flag", "bad"), "no-slash")).rejects.toThrow(/is not an id of the form "6b04319012a9f465249c6dce\/checkout\.newFlow"/);
  });
});

describe("invokes", () => {
  it("getBundles answers the bundle list as { bundles }", async () => {
    const { bundles } = (await plugin.invoke("cloudbees:index:getBundles", {})) as { bundles: Array<{ name: string }> };
    expect(bundles.map((b) => b.name).sort()).toEqual(["base", "team-a", "team-b"]);
  });

  it("getApplication takes its parameter by name; an unknown function names those there are", async () => {
    const created = await plugin.create(urnOf("Application", "lookup"), { name: "lookup-app" });
    expect(await plugin.invoke("cloudbees:index:getApplication", { applicationId: created.id })).toEqual({ id: created.id, name: "lookup-app" });
    await expect(plugin.invoke("cloudbees:index:getNothing", {})).rejects.toThrow(/cloudbees has no function getNothing \(it has getApplications, /);
  });
});

it("Cancel is acknowledged, and the plugin then stops cleanly", async () => {
  const fresh = await PluginProcess.start();
  await cancelStops(fresh);
  await fresh.close();
});

it("the engine gone (its process ended), the plugin stops by itself rather than lingering", async () => {
  // A stand-in engine: starts the plugin, says its pid once it listens, and exits.
  const engine = `const { spawn } = require("node:child_process");
    const child = spawn(process.execPath, [${JSON.stringify(PLUGIN_MAIN)}, "127.0.0.1:1"], { stdio: ["ignore", "pipe", "ignore"] });
    child.stdout.once("data", () => { console.log(child.pid); process.exit(0); });`;
  const pid = Number(execFileSync(process.execPath, ["-e", engine], { encoding: "utf8" }).trim());
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  for (let i = 0; i < 200 && alive(); i++) await new Promise((r) => setTimeout(r, 50));
  expect(alive()).toBe(false);
});

it("a resource type the package does not have is a check failure", async () => {
  const result = await plugin.check("urn:pulumi:s::p::cloudbees:index:Nothing::x", {}, {});
  expect(result.failures).toEqual([{ property: "", reason: "cloudbees has no resource type cloudbees:index:Nothing" }]);
});
