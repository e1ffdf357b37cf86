// The plugin over the provider protocol (gRPC, no CLI) against an emulator that answers as a stricter or plainer
// real service may (issue 43): E2 answered 204 No Content (environmentKeyBody=no-content), records carrying a field
// the API does not define (recordLinks=present) under a service that refuses unknown request fields, and PUT of an
// existing target group refused (putExistingTargetGroup=409). The same controllers as the dynamic providers'
// (test/resources/feature-flag-transport, target-group-refused-change, archived-experiment): here, the plugin's face.
import { startEmulator, type Emulator } from "../../emulator";
import { FeatureManagementClient } from "../../provider";
import { emulatorConnection } from "../../testing/emulator-config";
import { secret } from "../../testing/engine/values";
import { CONFIGURATION_FIELDS, loadCorpus } from "../fixtures/real-experiments-program/corpus";
import { PluginProcess, urnOf } from "./plugin-process";

let emu: Emulator;
let plugin: PluginProcess;
let fm: FeatureManagementClient;
let app: string;

beforeAll(async () => {
  emu = await startEmulator({ readings: { environmentKeyBody: "no-content", recordLinks: "present", putExistingTargetGroup: "409" } });
  plugin = await PluginProcess.start();
  const c = emulatorConnection(emu);
  await plugin.configure({ ...c, apiToken: secret(c.apiToken), featureManagementToken: secret(c.featureManagementToken) });
  fm = new FeatureManagementClient({ baseUrl: emu.featureManagementUrl, token: emu.credentials.featureManagementToken, minRequestIntervalMs: 0 });
  app = (await fm.createApplication("plugin-data")).id;
});
afterAll(async () => {
  await fm?.close();
  await plugin?.close();
  await emu?.close();
});

const writeBodies = () =>
  emu.journal
    .entries()
    .filter((e) => e.path.includes("/public-api/") && e.method !== "GET")
    .map((e) => e.body.toString("utf8"));

it("an Environment answered 204 gets the key the service lists", async () => {
  const { id, properties } = await plugin.create(urnOf("Environment", "staging"), { applicationId: app, name: "Staging" });
  const key = emu.state.environments(app).find((e) => e.name === "Staging")!.key;
  expect({ id, key: properties.key }).toEqual({ id: key, key });
});

it("the archived experiment with platforms (rollout/sound-redux-cac 94046cea) keeps every field; an update sends back none of the service's own", async () => {
  const record = loadCorpus().find((i) => i.whole && i.source.commit.startsWith("94046cea"))!.experiment!;
  await fm.createFlag(app, { name: String(record.flag) });
  await fm.putTargetGroup(app, { type: "target-group", name: "Anon", conditions: [{ property: "rox.distinct_id", operator: "is-undefined" }] });
  const inputs: Record<string, unknown> = { applicationId: app, environment: "Production", flag: record.flag };
  for (const k of CONFIGURATION_FIELDS) if (record[k] !== undefined) inputs[k] = record[k];
  const urn = urnOf("FlagConfiguration", "shuffle");
  const { id, properties } = await plugin.create(urn, inputs);
  expect(properties).toMatchObject({ archived: true, platforms: record.platforms, conditions: record.conditions, value: record.value });

  const updated = await plugin.update(urn, id, properties, { ...inputs, value: [{ option: true, percentage: 20 }] });
  expect(updated).toMatchObject({ archived: true, value: [{ option: true, percentage: 20 }] });
  const held = emu.state.flags(app).find((f) => f.name === record.flag)!.configurations["Production"];
  expect(held).toMatchObject({ archived: true, platforms: [{ name: "Browser", value: true }, { name: "NodeJS", value: false }], conditions: [{ group: { name: "Anon" } }] });
  for (const body of writeBodies()) expect(body).not.toContain("_links");

  const read = await plugin.read(urn, id, updated);
  expect(read.inputs).toMatchObject({ archived: true, platforms: record.platforms });
});

it("a TargetGroup the service will not change fails alone, naming the ways out, the server's words once", async () => {
  const urn = urnOf("TargetGroup", "beta");
  const conditions = [{ property: "plan", operator: "eq", operand: "beta" }];
  const { id, properties } = await plugin.create(urn, { applicationId: app, name: "beta", conditions });
  const error = await plugin.update(urn, id, properties, { applicationId: app, name: "beta", conditions: [...conditions, { property: "plan", operator: "eq", operand: "preview" }] }).then(
    () => undefined,
    (e: Error) => e.message,
  );
  expect(error).toMatch(/updating TargetGroup "beta" \([^)]*\): the service refused to change the existing target group "beta" \(409, saying "Target group 'beta' already exists"\): .* Fix: change the group in the CloudBees Feature Management UI .*, or declare the changed group under a new name and point the flags' conditions at that name/);
  expect(error!.split("already exists")).toHaveLength(2);
});
