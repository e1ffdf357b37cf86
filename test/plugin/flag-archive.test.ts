// A Flag's onDelete through the plugin over the provider protocol (gRPC, no CLI), against the emulator: the plugin's
// face of test/resources/flag-archive (the same controller). Check refuses another value naming the input; a change
// is an update with no replacement and no request; Delete with the state's "archive" archives and turns off the
// configuration in every environment and keeps the flag; without it, Delete deletes.
import { startEmulator, type Emulator } from "../../emulator";
import { FeatureManagementClient } from "../../provider";
import { emulatorConnection } from "../../testing/emulator-config";
import { secret } from "../../testing/engine/values";
import { PluginProcess, urnOf } from "./plugin-process";

let emu: Emulator;
let plugin: PluginProcess;
let fm: FeatureManagementClient;
let app: string;

beforeAll(async () => {
  emu = await startEmulator();
  plugin = await PluginProcess.start();
  const c = emulatorConnection(emu);
  await plugin.configure({ ...c, apiToken: secret(c.apiToken), featureManagementToken: secret(c.featureManagementToken) });
  fm = new FeatureManagementClient({ baseUrl: emu.featureManagementUrl, token: emu.credentials.featureManagementToken, minRequestIntervalMs: 0 });
  app = (await fm.createApplication("plugin-archive")).id;
  await fm.createEnvironment(app, { name: "Staging" });
});
afterAll(async () => {
  await fm?.close();
  await plugin?.close();
  await emu?.close();
});

const PREFIX = "/feature-management/public-api";
const mark = () => emu.journal.entries().length;
const writesSince = (m: number) =>
  emu.journal
    .entries()
    .slice(m)
    .filter((e) => e.path.startsWith(PREFIX) && e.method !== "GET")
    .map((e) => `${e.method} ${e.path.slice(PREFIX.length)}`);
const held = (name: string) => emu.state.flags(app).find((f) => f.name === name);

it("Check refuses any other onDelete, naming the input", async () => {
  const { failures } = await plugin.check(urnOf("Flag", "f"), {}, { applicationId: app, name: "f", onDelete: "retain" });
  expect(failures).toEqual([{ property: "onDelete", reason: expect.stringMatching(/^onDelete \(Python: on_delete, Go: OnDelete\) must be "archive" .* or "delete" .*, got "retain"$/) }]);
});

it('onDelete "archive": Diff and Update change it in place with no request; Delete archives the configuration in every environment and keeps the flag', async () => {
  const urn = urnOf("Flag", "new-flow");
  const inputs = { applicationId: app, name: "checkout.newFlow", onDelete: "archive" };
  expect((await plugin.check(urn, {}, inputs)).failures).toEqual([]);
  const { id, properties } = await plugin.create(urn, inputs);
  expect(properties).toMatchObject({ name: "checkout.newFlow", onDelete: "archive" });
  await fm.putExperiment(app, "Production", { type: "experiment", flag: "checkout.newFlow", value: true, labels: ["checkout"] });
  await fm.putExperiment(app, "Staging", { type: "experiment", flag: "checkout.newFlow", value: false });

  const m = mark();
  expect(await plugin.diff(urn, id, properties, { ...inputs, onDelete: "delete" })).toMatchObject({ changes: true, replaces: [] });
  const updated = await plugin.update(urn, id, properties, { ...inputs, onDelete: "delete" });
  expect(updated).toMatchObject({ onDelete: "delete", writtenAt: properties.writtenAt });
  const back = await plugin.update(urn, id, updated, inputs);
  expect(back).toMatchObject({ onDelete: "archive" });
  expect(writesSince(m)).toEqual([]);

  await plugin.delete(urn, id, back);
  expect(writesSince(m)).toEqual([`PUT /applications/${app}/Production/experiments`, `PUT /applications/${app}/Staging/experiments`]);
  expect(held("checkout.newFlow")?.configurations).toEqual({
    Production: expect.objectContaining({ value: true, labels: ["checkout"], archived: true, enabled: false }),
    Staging: expect.objectContaining({ value: false, archived: true, enabled: false }),
  });
});

it("without onDelete, Delete deletes the flag in every environment", async () => {
  const urn = urnOf("Flag", "old-flow");
  const { id, properties } = await plugin.create(urn, { applicationId: app, name: "checkout.oldFlow" });
  expect(properties.onDelete).toBeUndefined();
  await fm.putExperiment(app, "Production", { type: "experiment", flag: "checkout.oldFlow", value: true });
  const m = mark();
  await plugin.delete(urn, id, properties);
  expect(writesSince(m)).toEqual([`DELETE /applications/${app}/flags/checkout.oldFlow`]);
  expect(held("checkout.oldFlow")).toBeUndefined();
});
