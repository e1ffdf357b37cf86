/**
 * `pulumi-cloudbees/policy` (policy/library.ts): every policy of the pack as a function a user's own PolicyPack
 * calls with the level and settings it chooses; the settings are what the policy reads, a config file's still win.
 */
import * as path from "node:path";
import type { ResourceValidationPolicy, StackValidationPolicy } from "@pulumi/policy";
import * as library from "../../policy/library";
import { policies } from "../../policy/policies";
import { resource, runResource, runStack } from "./run-policy";

const ROOT = path.join(__dirname, "..", "..");
const camel = (name: string) => name.replace(/^cloudbees-/, "").replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

it("each policy of the pack is a function named after it; called with nothing, it is the policy as shipped", () => {
  for (const shipped of policies) {
    const make = (library as unknown as Record<string, (args?: unknown) => typeof shipped>)[camel(shipped.name)];
    expect({ name: shipped.name, factory: typeof make }).toEqual({ name: shipped.name, factory: "function" });
    const made = make!();
    expect(made).toMatchObject({ name: shipped.name, description: shipped.description, enforcementLevel: shipped.enforcementLevel });
    expect(made.configSchema).toBe(shipped.configSchema);
  }
});

it("a level alone, or with settings, replaces the default level; the shipped policy is left as it was", () => {
  expect(library.assignmentFallback("advisory").enforcementLevel).toBe("advisory");
  expect(library.teamAdmins({ enforcementLevel: "disabled", adminEmails: [] }).enforcementLevel).toBe("disabled");
  expect(library.teamAdmins({ adminEmails: ["a@example.com"] }).enforcementLevel).toBe("mandatory");
  expect(policies.find((p) => p.name === "cloudbees-team-admins")!.enforcementLevel).toBe("mandatory");
});

it("the settings given are what a resource policy reads; a config file's setting overrides them one by one", async () => {
  const everyone = resource("BundleAvailability", "base", { bundleId: "base", regex: ".*" });
  const policy = library.availabilityNarrow({ allowedBundles: ["base"] });
  expect(await runResource(policy, everyone)).toEqual([]);
  expect(await runResource(library.availabilityNarrow(), everyone)).toHaveLength(1);
  // The file's allowedBundles (from --policy-pack-config) replaces the code's.
  expect(await runResource(policy, everyone, { allowedBundles: ["team-a"] })).toHaveLength(1);

  const member = resource("TeamMember", "dev", { email: "dev@example.com", applications: { shop: { environments: { Live: "write" } } } });
  const admins = library.teamAdmins({ protectedEnvironments: ["Live"] });
  expect(await runResource(admins, member)).toHaveLength(1);
  expect(await runResource(admins, member, { adminEmails: ["dev@example.com"] })).toEqual([]);
});

it("and what a stack policy reads", async () => {
  const ghost = resource("FlagConfiguration", "ghost", { applicationId: "app", environment: "Staging", flag: "f", conditions: [{ group: { name: "ghosts" }, value: true }] });
  expect((await runStack(library.flagTargetGroups(), [ghost])).violations).toHaveLength(1);
  expect((await runStack(library.flagTargetGroups({ externalGroups: ["ghosts"] }), [ghost])).violations).toEqual([]);
});

it("the controllers' policy takes its allow list", async () => {
  const watching = resource("ControllerConfiguration", "c", { ignore: ["jenkins.yaml: jenkins.agentProtocols"] }, "dynamic");
  expect(await runResource(library.controllerIgnoreSecurity(), watching)).toHaveLength(1);
  expect(await runResource(library.controllerIgnoreSecurity({ allowedPaths: ["jenkins.yaml: jenkins.agentProtocols"] }), watching)).toEqual([]);
});

it("the token policy notes the engine's secret marks, as the shipped pack does when it starts", () => {
  library.providerTokenSecret();
  expect((require("@pulumi/policy/deserialize") as { secretsNoted?: boolean }).secretsNoted).toBe(true);
});

it("the package exports it as pulumi-cloudbees/policy (the build), types beside it", () => {
  const pkg = require(path.join(ROOT, "package.json")) as { exports: Record<string, { types: string; default: string }>; typesVersions: Record<string, Record<string, string[]>> };
  expect(pkg.exports["./policy"]).toEqual({ types: "./dist/policy/library.d.ts", default: "./dist/policy/library.js" });
  expect(pkg.typesVersions["*"]!.policy).toEqual(["dist/policy/library.d.ts"]);
  // Node10 resolution (Pulumi's template tsconfig) meets the pack's folder, policy/, first: its types point there too.
  expect((require(path.join(ROOT, "policy", "package.json")) as { types: string }).types).toBe("../dist/policy/library.d.ts");
  expect(require.resolve("pulumi-cloudbees/policy")).toBe(path.join(ROOT, "dist", "policy", "library.js"));
  const built = require("pulumi-cloudbees/policy") as Record<string, (args?: unknown) => ResourceValidationPolicy | StackValidationPolicy>;
  expect(built.controllerIgnoreSecurity!().name).toBe("cloudbees-controller-ignore-security");
});
