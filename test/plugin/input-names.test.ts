// Issue 52: an invoke's error names the input as the caller wrote it. The plugin cannot tell the caller's language (the
// generated SDKs send the schema's names), so it names the schema property with the Python and Go spellings:
// `bundleZip (Python: bundle_zip, Go: BundleZip)` (provider/plugin/input-spellings.ts). Every function of the schema
// once, with a bad input, over the provider protocol; nothing reaches the emulator.
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator, type Emulator } from "../../emulator";
import { goName, pythonName, spelled } from "../../provider/plugin/input-spellings";
import { providerInputs } from "./every-method";
import { PluginProcess } from "./plugin-process";

const ROOT = path.join(__dirname, "..", "..");
const SCHEMA = JSON.parse(fs.readFileSync(path.join(ROOT, "generated", "schema.json"), "utf8")) as {
  functions: Record<string, { inputs?: { properties?: Record<string, unknown> } }>;
  resources: Record<string, { inputProperties?: Record<string, unknown> }>;
};
/** An empty zip (its end record alone), as base64: a zip the plugin takes, before the function's own checks. */
const ZIP = Buffer.concat([Buffer.from("PK\x05\x06", "latin1"), Buffer.alloc(18)]).toString("base64");

/** Each function: a bad input, the input the error must name, and the call it must quote when that matters. */
const BAD: Record<string, { args: Record<string, unknown>; input: string; call?: string }> = {
  checkBundleUpdate: { args: { quiet: "yes" }, input: "quiet" },
  downloadEffectiveBundleFile: { args: { fileName: 5 }, input: "fileName" },
  downloadSchema: { args: { name: "nothing.json" }, input: "name" },
  exportConfiguration: { args: { instanceUrl: 5 }, input: "instanceUrl" },
  exportConfigurationZip: { args: { instanceUrl: "https://ci.example.com/", instance: "team-a" }, input: "instance" },
  exportEffectiveBundle: { args: { includeZip: "yes" }, input: "includeZip" },
  exportItem: { args: { itemUri: "job/x", section: "nothing.yaml" }, input: "section" },
  getApplication: { args: { applicationId: "a/b" }, input: "applicationId" },
  getApplications: { args: { connection: "no name!" }, input: "connection" },
  getAuditLogs: { args: { applicationId: "a", environment: "e", startDate: "not a date" }, input: "startDate" },
  getBundle: { args: { name: 5 }, input: "name" },
  getBundles: { args: { connection: 5 }, input: "connection" },
  getControllerItems: { args: { connection: "" }, input: "connection" },
  getControllers: { args: { connection: "a b" }, input: "connection" },
  // The zips' functions: the TypeScript face calls these inputs `tree` and `bundle`; the invoke, treeZip and bundleZip.
  getEffectiveBundle: { args: { treeZip: ZIP, bundle: 5 }, input: "bundle", call: "getEffectiveBundle(treeZip: <zip of 22 bytes>, bundle: 5)" },
  getEffectiveBundleValidationLog: { args: { controller: 5 }, input: "controller" },
  getEnvironments: { args: { applicationId: 5 }, input: "applicationId" },
  getExperiments: { args: { applicationId: "a", environment: "a/b" }, input: "environment" },
  getFlag: { args: { applicationId: "a", environment: "e", flag: "a/b" }, input: "flag" },
  getFlags: { args: { applicationId: "a", environment: 5 }, input: "environment" },
  getRawBundleValidationLog: { args: { controller: "yes" }, input: "controller" },
  getTargetGroups: { args: { applicationId: "" }, input: "applicationId" },
  getTeamMember: { args: { email: 5 }, input: "email" },
  getTeamMembers: { args: { connection: 5 }, input: "connection" },
  getUpdateLog: { args: { instanceUrl: 5 }, input: "instanceUrl" },
  preValidateBundles: { args: { treeZip: ZIP, quiet: "yes" }, input: "quiet", call: "preValidateBundles(treeZip: <zip of 22 bytes>, quiet: \"yes\")" },
  validateBundle: { args: { bundleZip: ZIP, quiet: "yes" }, input: "quiet", call: 'validateBundle(bundleZip: <zip of 22 bytes>, quiet: "yes")' },
  validateUploadedBundle: { args: { bundleId: 5 }, input: "bundleId" },
};

let emu: Emulator;
let plugin: PluginProcess;
beforeAll(async () => {
  emu = await startEmulator();
  plugin = await PluginProcess.start();
  await plugin.configure(providerInputs(emu));
});
afterAll(async () => {
  await plugin?.close();
  await emu?.close();
});

it("the table has one case per function of the schema", () => {
  expect(Object.keys(BAD).sort()).toEqual(Object.keys(SCHEMA.functions).map((t) => t.split(":").at(-1)!).sort());
});

it.each(Object.entries(BAD))("%s names the bad input in the schema's, Python's and Go's words", async (name, { args, input, call }) => {
  expect(Object.keys(SCHEMA.functions[`cloudbees:index:${name}`]!.inputs?.properties ?? {})).toEqual(expect.arrayContaining(Object.keys(args)));
  const error = (await plugin.invoke(`cloudbees:index:${name}`, args as never).then(() => undefined, (e: unknown) => e)) as Error;
  expect(error?.message).toContain(`invalid ${spelled(input)}: `);
  if (call) expect(error.message).toContain(`${call}: invalid`);
  expect(emu.journal.entries()).toEqual([]);
});

it("a zip that is not base64 names the input the caller gave", async () => {
  await expect(plugin.invoke("cloudbees:index:validateBundle", { bundleZip: 5 })).rejects.toThrow("invalid bundleZip (Python: bundle_zip, Go: BundleZip): ");
  await expect(plugin.invoke("cloudbees:index:getEffectiveBundle", { treeZip: "", bundle: "a" })).rejects.toThrow("invalid treeZip (Python: tree_zip, Go: TreeZip): ");
});

it("the spellings are the generated SDKs' own, for every input of the schema", () => {
  const read = (dir: string, ext: string) =>
    fs.readdirSync(dir).filter((f) => f.endsWith(ext)).map((f) => fs.readFileSync(path.join(dir, f), "utf8")).join("\n");
  const python = read(path.join(ROOT, "generated", "sdk", "python", "pulumi_cloudbees"), ".py");
  const go = read(path.join(ROOT, "generated", "sdk", "go", "cloudbees"), ".go");
  const inputs = new Set([
    ...Object.values(SCHEMA.functions).flatMap((f) => Object.keys(f.inputs?.properties ?? {})),
    ...Object.values(SCHEMA.resources).flatMap((r) => Object.keys(r.inputProperties ?? {})),
  ]);
  for (const p of inputs) {
    expect({ p, python: new RegExp(`\\b${pythonName(p)}: `).test(python) }).toEqual({ p, python: true });
    expect({ p, go: new RegExp(`\\b${goName(p)} +\\S+ +\`pulumi:"${p}"\``).test(go) }).toEqual({ p, go: true });
  }
  expect(spelled("name")).toBe("name (Go: Name)");
  expect(spelled("rules[0].operand")).toBe("rules[0].operand (Go: Rules[0].Operand)");
});
