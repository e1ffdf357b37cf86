/**
 * Issue 46 under the real Pulumi CLI, through the plugin: the same violating resources as policy.test.ts in a YAML
 * program (types `cloudbees:<Name>`), plus an explicit provider given a connection's token in plain text (the
 * provider's own tokens the schema marks secret, so every SDK sends them secret; `connections` is free-form); `pulumi preview
 * --policy-pack policy` reports every policy naming the resource and the fix, `pulumi up` writes nothing; the
 * compliant twins (the token from a secret config) pass.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator, type Emulator } from "../../emulator";
import { workspace } from "./tier-cli";
import { CliProject } from "./languages/cli-project";
import { installPlugin } from "./languages/toolchains";
import { expectReports, PACK, policyReport, writes } from "./policy-expect";

const BUNDLES = path.join(__dirname, "..", "..", "examples", "bundles");

let emu: Emulator;
let ws: ReturnType<typeof workspace>;

beforeAll(async () => {
  emu = await startEmulator({ bundlesDir: BUNDLES, controllers: ["team-a/controller-a"] });
  ws = workspace("policy-plugin");
  await installPlugin(new CliProject(ws.dir, ws.env));
});
afterAll(async () => {
  await emu?.close();
  ws?.cleanup();
});

async function project(name: string, resources: string): Promise<CliProject> {
  const dir = path.join(ws.dir, name);
  fs.mkdirSync(dir);
  const program = `name: ${name}\nruntime: yaml\nconfig:\n  fmToken:\n    type: string\n    secret: true\nresources:\n  shop:\n    type: cloudbees:Application\n    properties:\n      name: guard-shop\n${resources}`;
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), program);
  const cli = new CliProject(dir, ws.env);
  await cli.initFor(emu);
  await cli.ok("config", "set", "--secret", "fmToken", emu.credentials.featureManagementToken);
  return cli;
}

const flag = (name: string, environment: string, flagName: string, extra: string) =>
  `  ${name}:\n    type: cloudbees:FlagConfiguration\n    properties:\n      applicationId: \${shop.id}\n      environment: ${environment}\n      flag: ${flagName}\n      enabled: true\n${extra}`;

const VIOLATING = `  plain-provider:
    type: pulumi:providers:cloudbees
    properties:
      connections:
        prod:
          featureManagementUrl: ${"FM_URL"}
          featureManagementToken: typed-into-the-program
  unvalidated-assignment:
    type: cloudbees:ControllerBundleAssignment
    properties: { controllerPath: team-a/controller-a, bundleId: team-a }
  unvalidated-reload:
    type: cloudbees:BundleReload
  everyone-availability:
    type: cloudbees:BundleAvailability
    properties: { bundleId: team-a, regex: ".*" }
  global-switch:
    type: cloudbees:GlobalAvailabilityPattern
    properties: { visibility: true }
  developer-admin:
    type: cloudbees:TeamMember
    properties: { email: dev@example.com, teamAdmin: true }
${flag("straight-to-production", "Production", "checkout", "      value: true\n")}${flag("ghost-group", "Staging", "banner", "      description: The new banner\n      conditions:\n        - group: { name: ghosts }\n          value: true\n")}${flag("old-Staging", "Staging", "old-search", "      value: true\n      description: The search rewrite\n")}${flag("old-Production", "Production", "old-search", "      value: true\n      description: The search rewrite\n")}`;

const COMPLIANT = `  secret-provider:
    type: pulumi:providers:cloudbees
    properties:
      featureManagementUrl: ${"FM_URL"}
      featureManagementToken: \${fmToken}
      connections:
        prod:
          featureManagementUrl: ${"FM_URL"}
          featureManagementToken: \${fmToken}
  team-a-validation:
    type: cloudbees:BundleValidation
    properties: { bundlePath: ${path.join(BUNDLES, "team-a")} }
  team-a-availability:
    type: cloudbees:BundleAvailability
    properties: { bundleId: team-a, controllers: [team-a/controller-a] }
  base-availability:
    type: cloudbees:BundleAvailability
    properties: { bundleId: base, regex: "team-a/.*" }
  validated-assignment:
    type: cloudbees:ControllerBundleAssignment
    properties: { controllerPath: team-a/controller-a, bundleId: team-a, fallbackBundleId: base }
    options: { dependsOn: ["\${team-a-validation}", "\${team-a-availability}", "\${base-availability}"] }
  validated-reload:
    type: cloudbees:BundleReload
    options: { dependsOn: ["\${team-a-validation}"] }
  beta:
    type: cloudbees:TargetGroup
    properties: { applicationId: "\${shop.id}", name: beta-testers }
  developer:
    type: cloudbees:TeamMember
    properties: { email: dev@example.com, applications: { guard-shop: { environments: { Production: read, Staging: write } } } }
${flag("checkout-staging", "Staging", "checkout", "      description: The new checkout\n      conditions:\n        - group: { name: \"${beta.name}\" }\n          value: true\n")}${flag("checkout-production", "Production", "checkout", "      value: true\n      description: The new checkout\n")}`;

const text = (r: { stdout: string; stderr: string }) => `${r.stdout}\n${r.stderr}`;

it("each policy reports its violating resource and the fix, the plain token too; preview and up write nothing", async () => {
  const cli = await project("violating", VIOLATING.replace("FM_URL", emu.featureManagementUrl));
  emu.journal.clear();
  const preview = await cli.run("preview", "--policy-pack", PACK);
  expect(preview.code).not.toBe(0);
  expectReports(text(preview), "plugin");
  expect(text(preview)).not.toContain("typed-into-the-program");
  const up = await cli.run("up", "--yes", "--policy-pack", PACK);
  expect(up.code).not.toBe(0);
  expect(writes(emu)).toEqual([]);
});

it("the compliant twins pass, the token from a secret config", async () => {
  const cli = await project("compliant", COMPLIANT.replace("FM_URL", emu.featureManagementUrl));
  const preview = await cli.run("preview", "--policy-pack", PACK);
  expect(policyReport(text(preview))).toBe("");
  expect(preview.code).toBe(0);
});
