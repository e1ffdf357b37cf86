/**
 * The pack as the CLI loads it (policy/PulumiPolicy.yaml, policy/package.json pointing at the build) and what it
 * recognises: every kind a policy names is a resource of both faces (generated/schema.json's tokens, the dynamic
 * providers' type module); the policies' names, descriptions and levels; the secrets the engine sends, noted.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { TYPE_MODULE } from "../../sdk/resources/provider-shell";
import { policies } from "../../policy/policies";
import { kindOf, PROVIDER_TYPE, type Kind } from "../../policy/resources";
import { isSecret, noteSecrets } from "../../policy/secrets";

const ROOT = path.join(__dirname, "..", "..");
const PACK = path.join(ROOT, "policy");

it("PulumiPolicy.yaml runs on Node.js; package.json has the version PolicyPack reads and points at the built pack", () => {
  expect(parse(fs.readFileSync(path.join(PACK, "PulumiPolicy.yaml"), "utf8"))).toMatchObject({ runtime: "nodejs" });
  const manifest = JSON.parse(fs.readFileSync(path.join(PACK, "package.json"), "utf8")) as { version: string; main: string };
  // The pack reports the package's version (one version: test/release/one-version.test.ts).
  expect(manifest.version).toBe((JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version);
  expect(path.resolve(PACK, manifest.main)).toBe(path.join(ROOT, "dist", "policy", "index.js"));
  expect(fs.existsSync(path.join(ROOT, "dist", "policy", "index.js"))).toBe(true);
});

it("the package ships the pack's folder with it", () => {
  const files = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { files: string[] }).files;
  expect(files).toEqual(expect.arrayContaining(["dist/policy", "policy/PulumiPolicy.yaml", "policy/package.json"]));
});

it("every policy has a unique name, a description saying why, and a default level", () => {
  const names = policies.map((p) => p.name);
  expect(new Set(names).size).toBe(names.length);
  for (const p of policies) {
    expect(p.name).toMatch(/^cloudbees-[a-z-]+$/);
    expect(p.description.length).toBeGreaterThan(60);
    expect(["advisory", "mandatory"]).toContain(p.enforcementLevel);
  }
});

it("each kind the pack checks is a resource of the plugin's schema and of the dynamic providers", () => {
  const schema = JSON.parse(fs.readFileSync(path.join(ROOT, "generated", "schema.json"), "utf8")) as { name: string; resources: Record<string, unknown> };
  const kinds: Kind[] = ["BundleAvailability", "BundleReload", "BundleValidation", "ControllerBundleAssignment", "ControllerConfiguration", "FlagConfiguration", "GlobalAvailabilityPattern", "TargetGroup", "TeamMember"];
  for (const kind of kinds) {
    expect(Object.keys(schema.resources)).toContain(`${schema.name}:index:${kind}`);
    expect(kindOf(`${schema.name}:index:${kind}`)).toBe(kind);
    expect(kindOf(`pulumi-nodejs:dynamic/${TYPE_MODULE}:${kind}`)).toBe(kind);
    const source = fs.readFileSync(path.join(ROOT, "sdk", "resources", `${kind.replace(/[A-Z]/g, (c, i: number) => (i ? "-" : "") + c.toLowerCase())}.ts`), "utf8");
    expect(source).toMatch(new RegExp(`extends DynamicResource[^]*super\\(\\s*"\\w+",\\s*"${kind}",`));
  }
  expect(PROVIDER_TYPE).toBe(`pulumi:providers:${schema.name}`);
  expect(kindOf("aws:s3/bucket:Bucket")).toBeUndefined();
});

it("the inputs the engine sends secret are noted by path, through @pulumi/policy's own deserializer", () => {
  noteSecrets();
  const { deserializeProperties } = require("@pulumi/policy/deserialize") as { deserializeProperties(s: Struct, p: boolean): Record<string, unknown> };
  const secret = (value: unknown) => ({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value });
  const props = deserializeProperties(Struct.fromJavaScript({ apiToken: secret("a"), connections: { prod: { apiToken: "b", featureManagementToken: secret("c") } } } as never), false);
  expect(props.apiToken).toBe("a");
  expect(isSecret(props, "apiToken")).toBe(true);
  expect(isSecret(props, "connections.prod.apiToken")).toBe(false);
  expect(isSecret(props, "connections.prod.featureManagementToken")).toBe(true);
  expect(isSecret({}, "apiToken")).toBeUndefined();
});
