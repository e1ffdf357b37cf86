// What replaces each resource, three ways that must agree: its page's "What replaces it" (docs/resources), the schema's
// replaceOnChanges made from it, and what the controller's diff answers through the plugin when that one input changes.
import * as fs from "node:fs";
import * as path from "node:path";
import { PluginProcess, urnOf } from "./plugin-process";

const schema = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "generated", "schema.json"), "utf8")) as {
  resources: Record<string, { inputProperties: Record<string, { replaceOnChanges?: boolean }> }>;
};

/** A resource's inputs as its state holds them: every input a diff can be asked about, with a value. */
const SAMPLES: Record<string, Record<string, unknown>> = {
  Application: { name: "shop", adoptExisting: true },
  Environment: { applicationId: "a1", name: "Staging", description: "d" },
  Flag: { applicationId: "a1", name: "checkout.newFlow", availableValues: [false, true], isPermanent: false, onDelete: "archive" },
  FlagConfiguration: {
    applicationId: "a1", environment: "Production", flag: "f", enabled: true, value: true, labels: ["l"], description: "d", stickinessProperty: "p", archived: false,
    conditions: [{ group: { name: "beta" }, value: true }], platforms: [{ name: "Android", value: false }],
  },
  TargetGroup: { applicationId: "a1", name: "beta", description: "d", operator: "and", conditions: [{ property: "p", operator: "is-true" }] },
  TeamMember: { email: "dana@example.com", name: "Dana", teamAdmin: false, adoptExisting: false, applications: { a1: { environments: { Production: "read" } } } },
  BundleAvailability: { bundleId: "team-a", controllers: ["c1"], regex: "^(?:c1)$" },
  ControllerBundleAssignment: { controllerPath: "c1", bundleId: "team-a", fallbackBundleId: "base" },
  ControllerConfiguration: { controllerPath: "c1", instanceUrl: "https://ci.example.com/c1/", bundleTreePath: "bundles", bundleId: "team-a", ignore: ["jenkins.yaml: jenkins.systemMessage"] },
  DefaultBundle: { bundleId: "base" },
  GlobalAvailabilityPattern: { visibility: true },
  BundleCheckout: { timeoutSeconds: 60, triggers: [1] },
  ControllerBundleToken: { controllerPath: "c1", triggers: [1] },
  BundleReload: { instanceUrl: "http://127.0.0.1:1/c1/", allowRestartRequired: true, triggers: [1] },
  Items: { yaml: "items: []\n", path: "f", instanceUrl: "http://127.0.0.1:1/c1/", triggers: [1] },
  BundleValidation: { bundlePath: "b", bundleTreePath: "t", instanceUrl: "http://127.0.0.1:1/c1/", bundles: ["x"], branch: "main", triggers: [1], contentHash: "h" },
};

function changed(value: unknown): unknown {
  if (typeof value === "string") return `${value}-2`;
  if (typeof value === "boolean") return !value;
  if (typeof value === "number") return value + 1;
  if (value !== null && typeof value === "object" && !Array.isArray(value)) return {};
  if (Array.isArray(value)) {
    if (typeof value[0] === "object") return [];
    return typeof value[0] === "boolean" ? ["x", "y"] : [...value, typeof value[0] === "number" ? 2 : "y"];
  }
  throw new Error(`no change for ${JSON.stringify(value)}`);
}

let plugin: PluginProcess;
beforeAll(async () => {
  plugin = await PluginProcess.start();
  await plugin.configure({ connections: JSON.stringify({ other: {} }) });
});
afterAll(() => plugin?.close());

for (const [token, resource] of Object.entries(schema.resources)) {
  const type = token.split(":")[2]!;
  it(`${type}: a change of an input replaces it exactly when docs and schema say so`, async () => {
    const sample: Record<string, unknown> = { ...SAMPLES[type], connection: "default", ...("instance" in resource.inputProperties ? { instance: "i1" } : {}) };
    const answers: Record<string, { replaces: boolean; says: boolean }> = {};
    for (const [input, spec] of Object.entries(resource.inputProperties)) {
      if (!(input in sample)) throw new Error(`SAMPLES.${type} has no ${input}`);
      const diff = await plugin.diff(urnOf(type), "id", sample, { ...sample, [input]: changed(sample[input]) });
      answers[input] = { replaces: diff.replaces.includes(input), says: spec.replaceOnChanges === true };
    }
    expect(Object.entries(answers).filter(([, a]) => a.replaces !== a.says)).toEqual([]);
  });
}
