/* istanbul ignore file */
import type { FeatureFlagKind } from "../../provider/resources";
import { DECLARED_INPUTS_KEY } from "../../provider/resources/shared/declared-inputs";
import type { JsonObject, ManagedResource } from "../harness";
import { PluginProcess, urnOf } from "../plugin/plugin-process";
import { providerInputs } from "../plugin/every-method";
import { startFlagWorld, type FlagWorld } from "./feature-flag-helpers";

// Issue 52: after a create (and after `pulumi import`), the first refresh recorded a Flag's availableValues and
// isPermanent as inputs though the program declared neither (`Flag newFlow refresh [diff: +availableValues,
// isPermanent]` in a Python drift run): each read decided what was declared from the outputs, which hold every field
// the service returned. Now the dynamic providers keep the declared names in the outputs, and the plugin takes them
// from the inputs the engine sends with Read. Each feature-flag resource, with only what it requires, through the
// real provider host; then the same Flag through the plugin.
let w: FlagWorld;
let app: string;
beforeAll(async () => {
  w = await startFlagWorld();
  app = (await w.fm.createApplication("declared")).id;
});
afterAll(async () => w?.close());

const minimal = (): Array<[FeatureFlagKind, string, JsonObject]> => [
  ["environment", "staging", { applicationId: app, name: "Staging" }],
  ["flag", "newFlow", { applicationId: app, name: "checkout.newFlow" }],
  ["flagConfiguration", "newFlowProduction", { applicationId: app, environment: "Production", flag: "checkout.newFlow", value: true }],
  ["targetGroup", "beta", { applicationId: app, name: "beta", conditions: [{ property: "beta", operator: "is-true" }] }],
  ["teamMember", "erin", { email: "erin@example.com" }],
];

describe("the dynamic providers (the TypeScript face)", () => {
  const created: Record<string, ManagedResource> = {};
  const afterUp: Record<string, JsonObject> = {};

  it("each resource's create records the names of its declared inputs, nothing else of them", async () => {
    for (const [kind, name, inputs] of minimal()) {
      const r = w.ff(kind, name, inputs);
      await r.up();
      created[name] = r;
      afterUp[name] = structuredClone(r.state!.inputs);
      const names = Object.keys(inputs).sort();
      expect({ name, declared: r.state!.outputs[DECLARED_INPUTS_KEY] }).toEqual({ name, declared: names });
    }
  });

  it("two refreshes, each in a deployment of its own, change no input and find nothing to change", async () => {
    for (const round of [1, 2]) {
      await w.nextDeployment();
      for (const [name, r] of Object.entries(created)) {
        expect({ round, name, refresh: (await r.refresh({ judge: "diff" })).changedFields }).toEqual({ round, name, refresh: [] });
        expect({ round, name, inputs: r.state!.inputs }).toEqual({ round, name, inputs: afterUp[name] });
      }
    }
    expect(created.newFlow!.state!.inputs).not.toHaveProperty("availableValues");
    expect(created.newFlow!.state!.inputs).not.toHaveProperty("isPermanent");
  });

  it("a declared input changed by hand is still drift: the refresh records the service's value and names the input", async () => {
    const flag = w.ff("flag", "permanent", { applicationId: app, name: "checkout.permanent", isPermanent: false });
    await flag.up();
    await w.fm.setFlagConfiguration(app, "Production", { name: "checkout.permanent", enabled: false, isPermanent: true });
    await w.nextDeployment();
    const refreshed = await flag.refresh({ judge: "diff" });
    expect(refreshed.changedFields).toContain("isPermanent");
    expect(flag.state!.inputs).toMatchObject({ isPermanent: true });
    expect(flag.state!.inputs).not.toHaveProperty("availableValues");
  });

  it("a state written before the names were kept reads as it did (every field the read fills)", async () => {
    const flag = w.ff("flag", "legacy", { applicationId: app, name: "checkout.legacy" });
    await flag.up();
    delete flag.state!.outputs[DECLARED_INPUTS_KEY];
    await w.nextDeployment();
    await flag.refresh();
    expect(flag.state!.inputs).toMatchObject({ availableValues: expect.any(Array), isPermanent: false });
  });
});

describe("the plugin (Python, Go, YAML and the generated TypeScript SDK)", () => {
  let plugin: PluginProcess;
  beforeAll(async () => {
    plugin = await PluginProcess.start();
    await plugin.configure(providerInputs(w.emu));
  });
  afterAll(async () => plugin?.close());

  it("a refresh answers only the inputs the engine recorded, with the service's values; the outputs keep no names", async () => {
    const urn = urnOf("Flag", "pluginFlow");
    const declared = { applicationId: app, name: "checkout.pluginFlow" };
    const created = await plugin.create(urn, declared);
    expect(created.properties).not.toHaveProperty(DECLARED_INPUTS_KEY);
    const read = await plugin.read(urn, created.id, created.properties, declared);
    expect(read.inputs).toEqual(declared);
    expect(read.properties).not.toHaveProperty(DECLARED_INPUTS_KEY);
    expect(read.properties).toMatchObject({ availableValues: expect.any(Array), isPermanent: false });
    const withPermanence = await plugin.read(urn, created.id, created.properties, { ...declared, isPermanent: true });
    expect(withPermanence.inputs).toEqual({ ...declared, isPermanent: false });
  });

  it("an import (a read by id alone, no inputs) answers the inputs that declare the flag, and its refresh keeps them", async () => {
    const imported = await plugin.read(urnOf("Flag", "importedFlow"), `${app}/checkout.newFlow`);
    expect(imported.inputs).toEqual({ applicationId: app, name: "checkout.newFlow" });
    const refreshed = await plugin.read(urnOf("Flag", "importedFlow"), imported.id, imported.properties, imported.inputs);
    expect(refreshed.inputs).toEqual(imported.inputs);
  });
});
