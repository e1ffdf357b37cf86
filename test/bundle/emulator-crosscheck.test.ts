import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator, type Emulator } from "../../emulator";
import { InstanceClient, OperationsCenterClient, RequestRejectedError } from "../../provider";
import { lintBundle, unzipBundle, validationCodeOf, zipBundle, zipBundleTree } from "../../provider/bundle";
import { FAST } from "../clients/fast-options";
import { cleanTemp, SAMPLE_BUNDLES, tempDir, writeFiles } from "./helpers";

// The toolkit's zips are what the endpoints expect, and lint says what the server says.

const BROKEN = {
  "bundle.yaml": 'apiVersion: "1"\nid: "broken"\nversion: "1"\nparent: "base"\njcasc:\n  - "jenkins.yaml"\n  - "missing.yaml"\n',
  "jenkins.yaml": "jenkins:\n  numExecutors: 2\n",
};

let emu: Emulator;
let location: string;
let oc: OperationsCenterClient;
let controller: InstanceClient;

beforeAll(async () => {
  // A bundle location: the samples plus a child bundle that references a missing file.
  location = tempDir("bundle-location-");
  fs.cpSync(SAMPLE_BUNDLES, location, { recursive: true });
  writeFiles(path.join(location, "broken"), BROKEN);
  // Parent chains that cannot be followed.
  writeFiles(location, {
    "orphan/bundle.yaml": 'apiVersion: "1"\nid: "orphan"\nversion: "1"\nparent: "ghost"\n',
    "cycle-a/bundle.yaml": 'apiVersion: "1"\nid: "a"\nversion: "1"\nparent: "cycle-b"\n',
    "cycle-b/bundle.yaml": 'apiVersion: "1"\nid: "b"\nversion: "1"\nparent: "cycle-a"\n',
  });
  emu = await startEmulator({ bundlesDir: location });
  const credentials = emu.credentials.admin;
  oc = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...credentials, ...FAST });
  controller = new InstanceClient({ baseUrl: emu.controllerUrls["team-a/controller-a"]!, ...credentials, ...FAST });
});
afterAll(async () => {
  await oc.close();
  await controller.close();
  await emu.close();
  cleanTemp();
});

describe("zips accepted by the emulator", () => {
  it("casc-bundle-validate takes zipBundle's zip and says what lint says", async () => {
    const base = path.join(SAMPLE_BUNDLES, "base");
    const result = await controller.validateBundle(await zipBundle(base), { quiet: false });
    expect(result).toEqual({ valid: true, "validation-messages": lintBundle(base).format() });
  });

  it("pre-validate-bundle takes zipBundleTree's zip (branch with '/', changed bundle plus its parent)", async () => {
    const zip = await zipBundleTree(SAMPLE_BUNDLES, { branch: "feature/x", bundles: ["team-a"] });
    const result = await oc.preValidateBundles(zip, { quiet: true });
    expect(result.validations.map((v) => [v.bundle, v.result.valid])).toEqual([
      ["feature/x/base", true],
      ["feature/x/team-a", true],
    ]);
  });

  it("get-effective-bundle takes zipBundleTree's zip; unzipBundle reads the answer", async () => {
    const zip = await zipBundleTree(SAMPLE_BUNDLES, { branch: "feature/x", bundles: ["team-a"] });
    const effective = await unzipBundle(await oc.getEffectiveBundle(zip, { bundle: "feature/x/team-a" }));
    expect(Object.keys(effective)).toEqual([
      "bundle.yaml",
      "feature___x___base/items.yaml",
      "feature___x___base/jenkins.yaml",
      "feature___x___base/plugins.yaml",
      "feature___x___team-a/items.yaml",
      "feature___x___team-a/jenkins.yaml",
    ]);
    expect(effective["feature___x___team-a/jenkins.yaml"]).toBe(fs.readFileSync(path.join(SAMPLE_BUNDLES, "team-a", "jenkins.yaml"), "utf8"));
  });
});

describe("parent chains: the same verdict locally and from the emulator", () => {
  it.each([
    ["orphan", "ERROR - [STRUCTURE] - Parent bundle 'ghost' of bundle 'orphan' not found"],
    ["cycle-a", "ERROR - [STRUCTURE] - Bundle 'cycle-a' has a parent cycle through 'cycle-a'"],
  ])("%s", async (bundle, expected) => {
    const lint = lintBundle(path.join(location, bundle));
    expect(lint.format({ quiet: true })).toEqual([expected]);
    const result = await oc.validateUploadedBundle(bundle, { quiet: false });
    expect(result.valid).toBe(false);
    expect(result.structureValidations).toEqual(
      lint.messages.map((m) => ({ level: m.level, validationCode: validationCodeOf(m.code), message: `[${m.code}] - ${m.message}` })),
    );
  });
});

describe("a reference to a missing file: the same verdict locally and from the emulator", () => {
  // The content validator's line, then the JCasC validator's (AbstractValidator.checkFiles).
  const expected = [
    "ERROR - [CONTVAL] - The file 'missing.yaml' referenced in section 'jcasc' does not exist in the bundle.",
    "ERROR - [JCASC] - The bundle.yaml file references missing.yaml in the Jenkins Configuration as Code section that cannot be found. Impossible to validate Jenkins Configuration as Code.",
  ];

  it("lint reports it", () => {
    const lint = lintBundle(path.join(location, "broken"));
    expect(lint.valid).toBe(false);
    expect(lint.format({ quiet: true })).toEqual(expected);
  });

  it("validate-uploaded-bundle reports the same messages for the bundle of the location", async () => {
    const lint = lintBundle(path.join(location, "broken"));
    const result = await oc.validateUploadedBundle("broken", { quiet: false });
    expect(result.valid).toBe(false);
    expect(result.structureValidations).toEqual(
      lint.messages.map((m) => ({ level: m.level, validationCode: validationCodeOf(m.code), message: `[${m.code}] - ${m.message}` })),
    );
  });

  it("casc-bundle-validate reports it for zipBundle's zip", async () => {
    const result = await controller.validateBundle(await zipBundle(path.join(location, "broken")), { quiet: true });
    expect(result.valid).toBe(false);
    // Uploaded bundles also get a WARNING for `parent`, which the API ignores.
    expect(result["validation-messages"]!.filter((m) => m.startsWith("ERROR"))).toEqual(expected);
  });

  it("pre-validate-bundle and get-effective-bundle refuse zipBundleTree's zip with the server's message", async () => {
    const zip = await zipBundleTree(location, { bundles: ["broken"] });
    expect(Object.keys(await unzipBundle(zip)).filter((f) => f.endsWith("bundle.yaml"))).toEqual(["main/base/bundle.yaml", "main/broken/bundle.yaml"]);
    const preValidation = await oc.preValidateBundles(zip).catch((e: unknown) => e);
    expect(preValidation).toBeInstanceOf(RequestRejectedError);
    expect((preValidation as Error).message).toContain("'missing.yaml'");
    const effective = await oc.getEffectiveBundle(zip, { bundle: "main/broken" }).catch((e: unknown) => e);
    expect(effective).toBeInstanceOf(RequestRejectedError);
    expect((effective as Error).message).toContain("Bundle 'main/broken' references the missing file 'missing.yaml' in section 'jcasc'");
  });

  it("raw fetch of the same zip gets the same 400", async () => {
    const { username, apiToken } = emu.credentials.admin;
    const res = await fetch(`${emu.operationsCenterUrl}casc-bundle/pre-validate-bundle`, {
      method: "POST",
      headers: { authorization: `Basic ${Buffer.from(`${username}:${apiToken}`).toString("base64")}`, "content-type": "application/zip;charset=utf-8" },
      body: await zipBundleTree(location, { bundles: ["broken"] }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "Bundle 'main/broken' references the missing file 'missing.yaml' in section 'jcasc'" });
  });
});
