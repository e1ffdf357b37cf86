// The functions that take or give zips, as invokes of the plugin over the provider protocol (issue 43): zips as
// base64 text in and out, against the emulator over real HTTP; the same requests and results as the TypeScript
// functions of the same names (test/functions/functions.test.ts). And the text exports, and lists read leniently.
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator, type Emulator, type JournalEntry } from "../../emulator";
import { FeatureManagementClient, InstanceClient, OperationsCenterClient } from "../../provider";
import { unzipBundle, zipBundle, zipBundleTree, type InstanceValidationResult } from "../../sdk";
import { emulatorConnection } from "../../testing/emulator-config";
import { secret } from "../../testing/engine/values";
import { SAMPLE_BUNDLES, writeTree } from "../functions/helpers";
import { PluginProcess } from "./plugin-process";

const CONTROLLER = "team-a/controller-a";
let emu: Emulator;
let plugin: PluginProcess;
let controllerUrl: string;
let controllerPrefix: string;

const token = (name: string) => `cloudbees:index:${name}`;
const last = (): JournalEntry => emu.journal.entries().at(-1)!;
const base64 = (b: Buffer) => b.toString("base64");

beforeAll(async () => {
  emu = await startEmulator();
  controllerUrl = emu.controllerUrls[CONTROLLER]!;
  controllerPrefix = new URL(controllerUrl).pathname;
  // The controller runs team-a (inheriting base): assigned on the operations center, then reloaded.
  const oc = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...emu.credentials.admin });
  await oc.setControllerToBundle("team-a", CONTROLLER);
  await oc.close();
  const controller = new InstanceClient({ baseUrl: controllerUrl, ...emu.credentials.admin });
  await controller.reloadBundle();
  await controller.close();
  plugin = await PluginProcess.start();
  const c = emulatorConnection(emu);
  await plugin.configure({ ...c, apiToken: secret(c.apiToken), featureManagementToken: secret(c.featureManagementToken) });
});
afterAll(async () => {
  await plugin?.close();
  await emu?.close();
});
beforeEach(() => emu.journal.clear());

describe("zips as base64 through the plugin", () => {
  it("validateBundle sends the zip given as base64, to the operations center or a controller, and answers the verdict", async () => {
    const zip = await zipBundle(path.join(SAMPLE_BUNDLES, "base"));
    const verdict = await plugin.invoke(token("validateBundle"), { bundleZip: base64(zip), quiet: false });
    expect([last().method, last().path, last().query]).toEqual(["POST", "/cjoc/casc-bundle-mgnt/casc-bundle-validate", { quiet: "false" }]);
    expect(last().body.equals(zip)).toBe(true);
    expect(verdict).toMatchObject({ valid: true, validationMessages: expect.any(Array) });

    // An invalid bundle is a verdict, not an error.
    const dir = writeTree({ "bundle.yaml": 'apiVersion: "one"\nid: x\n' });
    try {
      const onController = (await plugin.invoke(token("validateBundle"), { bundleZip: base64(await zipBundle(dir)), instanceUrl: controllerUrl })) as unknown as InstanceValidationResult;
      expect([last().method, last().path]).toEqual(["POST", `${controllerPrefix}casc-bundle-mgnt/casc-bundle-validate`]);
      expect(onController.valid).toBe(false);
      expect(onController.validationMessages).toContain("ERROR - [VERSIONVAL] - Missing version property in the bundle.yaml file.");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("preValidateBundles and getEffectiveBundle take the tree's zip; getEffectiveBundle gives files, hash and the zip as base64", async () => {
    const tree = await zipBundleTree(SAMPLE_BUNDLES);
    const all = (await plugin.invoke(token("preValidateBundles"), { treeZip: base64(tree) })) as { validations: Array<{ bundle: string; result: { valid: boolean } }> };
    expect([last().method, last().path]).toEqual(["POST", "/cjoc/casc-bundle/pre-validate-bundle"]);
    expect(last().body.equals(tree)).toBe(true);
    expect(all.validations.map((v) => v.bundle).sort()).toEqual(["main/base", "main/team-a", "main/team-b"]);

    const effective = (await plugin.invoke(token("getEffectiveBundle"), { treeZip: base64(tree), bundle: "main/team-a", includeZip: true })) as {
      bundle: string;
      files: Record<string, string>;
      hash: string;
      zip: string;
    };
    expect([last().method, last().path, last().query]).toEqual(["POST", "/cjoc/casc-bundle/get-effective-bundle", { bundle: "main/team-a" }]);
    expect(effective.bundle).toBe("main/team-a");
    expect(Object.keys(effective.files)).toEqual(expect.arrayContaining(["bundle.yaml", "main___base/jenkins.yaml", "main___team-a/jenkins.yaml"]));
    expect(effective.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(await unzipBundle(Buffer.from(effective.zip, "base64"))).toEqual(effective.files);
    const without = await plugin.invoke(token("getEffectiveBundle"), { treeZip: base64(tree), bundle: "main/team-a" });
    expect(without).toEqual({ bundle: "main/team-a", files: effective.files, hash: effective.hash });
  });

  it("exportEffectiveBundle and exportConfigurationZip give zips as base64; the text exports give text", async () => {
    const exported = (await plugin.invoke(token("exportEffectiveBundle"), { instanceUrl: controllerUrl, includeZip: true })) as { files: Record<string, string>; zip: string };
    expect([last().method, last().path]).toEqual(["POST", `${controllerPrefix}core-casc-effective-bundle-export`]);
    const name = Object.keys(exported.files).find((f) => f.endsWith("team-a/jenkins.yaml"))!;
    expect(exported.files[name]).toContain("Managed by CasC: team A");
    expect(await unzipBundle(Buffer.from(exported.zip, "base64"))).toEqual(exported.files);

    const file = await plugin.invoke(token("downloadEffectiveBundleFile"), { fileName: name, instanceUrl: controllerUrl });
    expect(file).toEqual({ text: exported.files[name] });

    const configuration = (await plugin.invoke(token("exportConfigurationZip"), { instanceUrl: controllerUrl })) as { zip: string };
    expect([last().method, last().path]).toEqual(["GET", `${controllerPrefix}core-casc-export/zipExport`]);
    expect(Object.keys(await unzipBundle(Buffer.from(configuration.zip, "base64")))).toContain("bundle.yaml");
    const text = (await plugin.invoke(token("exportConfiguration"), { instanceUrl: controllerUrl })) as { text: string };
    expect(text.text).toContain("building team A");
  });

  it("exportItem and downloadSchema answer in a property; validateUploadedBundle answers the verdict", async () => {
    const item = (await plugin.invoke(token("exportItem"), { itemUri: "job/team-a/job/build", instanceUrl: controllerUrl, section: "items.yaml" })) as { text: string };
    expect([last().method, last().path]).toEqual(["POST", `${controllerPrefix}job/team-a/job/build/export/download/items.yaml`]);
    expect(item.text).toContain("pipeline");
    const { schema } = (await plugin.invoke(token("downloadSchema"), { name: "plugins.json" })) as { schema: Record<string, unknown> };
    expect([last().method, last().path]).toEqual(["GET", "/cjoc/core-casc-schema-download/download/plugins.json"]);
    expect(typeof schema).toBe("object");
    const verdict = await plugin.invoke(token("validateUploadedBundle"), { bundleId: "team-a", quiet: true });
    expect([last().method, last().path]).toEqual(["POST", "/cjoc/casc-bundle/validate-uploaded-bundle"]);
    expect(verdict).toMatchObject({ valid: true, structureValidations: expect.any(Array), controllerValidations: expect.any(Array) });
  });

  it("refuses what is not base64, naming the input, before any request", async () => {
    await expect(plugin.invoke(token("validateBundle"), { bundleZip: "not base64!" })).rejects.toThrow(/bundleZip.*expected the zip's bytes as base64 text/);
    await expect(plugin.invoke(token("preValidateBundles"), { treeZip: "" })).rejects.toThrow(/treeZip.*base64 text \(it is empty\)/);
    await expect(plugin.invoke(token("validateBundle"), { bundleZip: base64(Buffer.from("hello")) })).rejects.toThrow(/bundleZip.*its 5 bytes do not start as a zip does/);
    expect(emu.journal.entries()).toEqual([]);
  });
});

it("reads a list leniently through the plugin too: the unreadable experiment is skipped, warned of once, the others answered", async () => {
  const fm = new FeatureManagementClient({ baseUrl: emu.featureManagementUrl, token: emu.credentials.featureManagementToken, minRequestIntervalMs: 0 });
  try {
    const app = (await fm.createApplication("plugin-lenient")).id;
    await fm.putTargetGroup(app, { type: "target-group", name: "beta", conditions: [{ property: "beta", operator: "is-true" }] });
    for (const flag of ["fine", "odd"]) {
      await fm.createFlag(app, { name: flag });
      await fm.putExperiment(app, "Production", { type: "experiment", flag, conditions: [{ group: { name: "beta" }, value: true }], value: false });
    }
    const answer = (await fm.listExperiments(app, "Production")).map((e) => (e.flag === "odd" ? { ...e, conditions: [{ group: { operator: "xor", name: "beta" }, value: true }] } : e));
    emu.faults.inject({ method: "GET", path: `/feature-management/public-api/applications/${app}/Production/experiments`, status: 200, body: JSON.stringify(answer), times: 1 });
    const before = plugin.stderr.length;
    const { experiments } = (await plugin.invoke(token("getExperiments"), { applicationId: app, environment: "Production" })) as { experiments: Array<{ flag: string }> };
    expect(experiments.map((e) => e.flag)).toEqual(["fine"]);
    // No engine takes the plugin's log here (PluginProcess gives it a dead address): the warning falls back to stderr.
    await plugin.stderrLine(/skipped experiment "odd"/, 15_000);
    const warnings = plugin.stderr.slice(before).split("\n").filter((l) => l.includes("skipped"));
    expect(warnings).toEqual([expect.stringMatching(/^warning: getExperiments\(.*\): skipped experiment "odd" \(item 2 of the answer\), .*conditions\[0\]\.group\.operator/)]);
  } finally {
    await fm.close();
  }
});

it("reads the operations center's lists leniently through the plugin too (issue 52): the entry skipped, warned of once, the others answered", async () => {
  const oc = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...emu.credentials.admin });
  const answer = (await oc.listBundles().finally(() => oc.close())).map((b) => (b.name === "team-b" ? { ...b, regex: null } : b));
  emu.faults.inject({ method: "GET", path: "/cjoc/casc-bundle/list", status: 200, body: JSON.stringify({ bundles: answer }), times: 1 });
  const before = plugin.stderr.length;
  const { bundles } = (await plugin.invoke(token("getBundles"), {})) as { bundles: Array<{ name: string }> };
  expect(bundles.map((b) => b.name).sort()).toEqual(["base", "team-a"]);
  await plugin.stderrLine(/skipped bundle "team-b"/, 15_000);
  const warnings = plugin.stderr.slice(before).split("\n").filter((l) => l.includes("skipped"));
  const position = answer.findIndex((b) => b.name === "team-b") + 1;
  expect(warnings).toEqual([`warning: getBundles(): skipped bundle "team-b" (item ${position} of the answer), in a form this version of pulumi-cloudbees cannot read (regex: Invalid input: expected string, received null); the other items were read`]);
});
