import * as fs from "node:fs";
import * as path from "node:path";
import YAML from "yaml";
import { startEmulator, type Emulator } from "../../emulator";
import { InstanceClient, OperationsCenterClient } from "../../provider";
import { lintBundle, unzipBundle, validationCodeOf } from "../../provider/bundle";
import { FAST } from "../clients/fast-options";
import { cleanTemp, tempDir } from "./helpers";

// The conformance suite: every fixture below test/fixtures/conformance is a bundle location of our own that
// reproduces one rule of the real CasC plugin or of JCasC; its expected.json names the public source the rule
// follows (repository and file) and the verdict and messages expected. Each fixture runs through lintBundle and
// through the emulator (validate-uploaded-bundle of the same location), which must agree message for message.

interface Check {
  bundle: string;
  valid: boolean;
  messages: string[];
}
interface Fixture {
  rule: string;
  source: string;
  checks: Check[];
  /** Symbolic links to create in the copy (git and npm do not carry every kind of link, loops least of all). */
  links?: { path: string; target: string }[];
  /** Environment variables set while the fixture runs (lint and the in-process emulator both read them). */
  env?: Record<string, string>;
}

const ROOT = path.resolve(__dirname, "..", "fixtures", "conformance");
const fixtures: Fixture[] = fs
  .readdirSync(ROOT)
  .sort()
  .map((rule) => JSON.parse(fs.readFileSync(path.join(ROOT, rule, "expected.json"), "utf8")) as Fixture);

/** A copy of the fixture's bundle location, links made. */
function location(fixture: Fixture): string {
  const dir = tempDir(`conformance-${fixture.rule}-`);
  fs.cpSync(path.join(ROOT, fixture.rule), dir, { recursive: true });
  for (const link of fixture.links ?? []) fs.symlinkSync(link.target, path.join(dir, ...link.path.split("/")));
  return path.join(dir, "bundles");
}

afterAll(cleanTemp);

it("covers every rule of issues 7 and 17, each fixture naming its public source", () => {
  expect(fixtures.map((f) => f.rule)).toEqual(
    expect.arrayContaining([
      "duplicate-top-level-key",
      "duplicate-scalar-key",
      "merge-keys",
      "yaml-1.1-booleans",
      "alias-limit",
      "multi-document",
      "several-jcasc-files",
      "inherited-conflict",
      "eks-blueprint",
      "empty-section-files",
      "bundle-content",
      "not-yaml-files",
      "symbolic-links",
      "section-files-not-found",
      "rbac-strategy",
      "rbac-strategy-inherited",
      "alias-limit-environment",
      "multiple-catalogs",
    ]),
  );
  for (const f of fixtures) expect(f.source.length).toBeGreaterThan(40);
});

describe.each(fixtures.map((f) => [f.rule, f.source, f] as const))("%s, following %s", (_rule, _source, fixture) => {
  let dir: string;
  let emu: Emulator;
  let oc: OperationsCenterClient;
  const savedEnv: Record<string, string | undefined> = {};

  beforeAll(async () => {
    for (const [name, value] of Object.entries(fixture.env ?? {})) {
      savedEnv[name] = process.env[name];
      process.env[name] = value;
    }
    dir = location(fixture);
    emu = await startEmulator({ bundlesDir: dir });
    oc = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...emu.credentials.admin, ...FAST });
  });
  afterAll(async () => {
    await oc.close();
    await emu.close();
    for (const [name, value] of Object.entries(savedEnv)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it.each(fixture.checks.map((c) => [c.bundle, c] as const))("bundle %s: lint and the emulator give the expected verdict and messages", async (bundle, check) => {
    const lint = lintBundle(path.join(dir, bundle), { siblingsRoot: dir });
    expect({ valid: lint.valid, messages: lint.format({ quiet: true }) }).toEqual({ valid: check.valid, messages: check.messages });
    const server = await oc.validateUploadedBundle(bundle, { quiet: false });
    expect(server.valid).toBe(check.valid);
    // Each message starts with its tag, as the plugin's Validation messages and a public validate-uploaded-bundle
    // answer show ("[STRUCTURE] - [FileSystemBundleValidator] ..."); the level has its own field.
    expect(server.structureValidations).toEqual(
      lint.messages.map((m) => ({ level: m.level, validationCode: validationCodeOf(m.code), message: `[${m.code}] - ${m.message}` })),
    );
  });
});

describe("the EKS blueprint layout (a parent and a child that both declare jcasc lists) on an emulated controller", () => {
  const fixture = fixtures.find((f) => f.rule === "eks-blueprint")!;
  const controllerPath = "team-a/controller-a";
  let emu: Emulator;
  let oc: OperationsCenterClient;
  let controller: InstanceClient;

  beforeAll(async () => {
    emu = await startEmulator({ bundlesDir: location(fixture) });
    oc = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...emu.credentials.admin, ...FAST });
    controller = new InstanceClient({ baseUrl: emu.controllerUrls[controllerPath]!, ...emu.credentials.admin, ...FAST });
  });
  afterAll(async () => {
    await oc.close();
    await controller.close();
    await emu.close();
  });

  it("reloads, and the export holds both levels' list entries", async () => {
    await oc.setAvailabilityPattern("ha", ".*");
    await oc.setControllerToBundle("ha", controllerPath);
    expect(await controller.checkBundleUpdate()).toMatchObject({ "update-available": true, versions: { "new-version": { valid: true } } });
    expect(await controller.reloadBundle()).toEqual({ reloaded: true });

    const exported = await unzipBundle(await controller.exportConfigurationZip());
    const [coreFile] = YAML.parse(exported["bundle.yaml"]!).jcasc as string[];
    const jcasc = YAML.parse(exported[coreFile!]!);
    expect(jcasc.jenkins.globalNodeProperties.flatMap((p: any) => p.envVars.env.map((e: any) => e.key))).toEqual(["ENVIRONMENT", "HA"]);
    expect(jcasc.credentials.system.domainCredentials.flatMap((d: any) => d.credentials.map((c: any) => c.string.id))).toEqual(["base-token", "ha-token"]);
    // Both levels' mappings merged: the parent's message and location, the child's cloud.
    expect(jcasc.jenkins).toMatchObject({ systemMessage: "Controller managed by CasC", clouds: [{ kubernetes: { name: "kubernetes" } }] });
    expect(jcasc.unclassified.location.url).toBe("https://ci.example.com/");
  });
});
