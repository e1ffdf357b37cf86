import * as fs from "node:fs";
import * as path from "node:path";
import YAML from "yaml";
import { Emulator, startEmulator } from "../../emulator";
import { call, copyBundles, makeZip, post, readZip, sampleBundleFiles, ZIP_HEADERS } from "./helpers";

let emu: Emulator;
let oc: string;
let dir: string;

function writeBundle(name: string, files: Record<string, string>): void {
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, name, file), content);
  }
}

beforeAll(async () => {
  dir = copyBundles();
  writeBundle("broken", {
    "bundle.yaml": 'apiVersion: "x"\nid: "broken"\njcasc:\n  - "jenkins.yaml"\n  - "missing.yaml"\n',
    "jenkins.yaml": "jenkins:\n  numExecutors: 1\n",
    "stray.yaml": "unused: true\n",
  });
  writeBundle("conflicting", {
    "bundle.yaml": 'apiVersion: "1"\nid: "conflicting"\nversion: "3"\nparent: "base"\njcasc:\n  - "jenkins.yaml"\n',
    "jenkins.yaml": 'jenkins:\n  systemMessage: "not the base one"\n',
  });
  writeBundle("orphan", {
    "bundle.yaml": 'apiVersion: "1"\nid: "orphan"\nversion: "1"\nparent: "ghost"\n',
  });
  emu = await startEmulator({ bundlesDir: dir });
  oc = emu.operationsCenterUrl;
});
afterAll(async () => {
  await emu.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const codes = (validations: any[]) => validations.map((v) => `${v.level} ${v.validationCode}`);

describe("get-effective-bundle", () => {
  it("applies inheritance from the OC's parent and writes a checksum version", async () => {
    const zip = await makeZip(sampleBundleFiles("main/", ["team-a"]));
    const r = await post(emu, `${oc}casc-bundle/get-effective-bundle?bundle=main/team-a`, { body: zip, headers: ZIP_HEADERS });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/zip");
    const files = await readZip(r.bytes);
    expect(Object.keys(files).sort()).toEqual([
      "base/items.yaml",
      "base/jenkins.yaml",
      "base/plugins.yaml",
      "bundle.yaml",
      "main___team-a/items.yaml",
      "main___team-a/jenkins.yaml",
    ]);
    const desc = YAML.parse(files["bundle.yaml"]!);
    expect(desc).toMatchObject({
      apiVersion: "1",
      id: "team-a",
      jcasc: ["base/jenkins.yaml", "main___team-a/jenkins.yaml"],
      plugins: ["base/plugins.yaml"],
      items: ["base/items.yaml", "main___team-a/items.yaml"],
      jcascMergeStrategy: "override",
    });
    expect(desc.version).toMatch(/^[0-9a-f]{32}$/);
    expect(desc.parent).toBeUndefined();
    expect(desc.availabilityPattern).toBeUndefined();
    expect(files["main___team-a/jenkins.yaml"]).toContain("team A");

    // Same input, same checksum.
    const again = await readZip((await post(emu, `${oc}casc-bundle/get-effective-bundle?bundle=team-a`, { body: zip, headers: ZIP_HEADERS })).bytes);
    expect(YAML.parse(again["bundle.yaml"]!).version).toBe(desc.version);
  });

  it("resolves the parent inside the zip first (branch folder with '___', nested folders) and picks the leaf", async () => {
    const files = sampleBundleFiles("feature___x/teams/", ["team-b"]);
    Object.assign(files, sampleBundleFiles("feature___x/", ["base"]));
    files["feature___x/base/jenkins.yaml"] = 'jenkins:\n  systemMessage: "base from the branch"\n';
    const r = await post(emu, `${oc}casc-bundle/get-effective-bundle`, { body: await makeZip(files), headers: ZIP_HEADERS });
    expect(r.status).toBe(200);
    const out = await readZip(r.bytes);
    expect(out["feature___x___base/jenkins.yaml"]).toContain("base from the branch");
    expect(out["feature___x___teams___team-b/jenkins.yaml"]).toContain("team-b");
    expect(YAML.parse(out["bundle.yaml"]!).jcasc).toEqual(["feature___x___base/jenkins.yaml", "feature___x___teams___team-b/jenkins.yaml"]);

    const fromOcParent = await post(emu, `${oc}casc-bundle/get-effective-bundle?bundle=team-b`, {
      body: await makeZip(sampleBundleFiles("main/", ["team-b"])),
      headers: ZIP_HEADERS,
    });
    const v1 = YAML.parse(out["bundle.yaml"]!).version;
    const v2 = YAML.parse((await readZip(fromOcParent.bytes))["bundle.yaml"]!).version;
    expect(v2).toMatch(/^[0-9a-f]{32}$/);
    expect(v2).not.toBe(v1);
  });

  it("accepts the zip as a multipart/form-data field named bundle", async () => {
    const form = new FormData();
    form.append("bundle", new Blob([await makeZip(sampleBundleFiles("main/", ["team-a"]))]), "bundle.zip");
    const res = await fetch(`${oc}casc-bundle/get-effective-bundle`, {
      method: "POST",
      body: form,
      headers: { authorization: `Basic ${Buffer.from("admin:admin-api-token-7f3c9d").toString("base64")}` },
    });
    expect(res.status).toBe(200);
    const out = await readZip(Buffer.from(await res.arrayBuffer()));
    expect(out["main___team-a/jenkins.yaml"]).toBeDefined();
  });

  it("answers a reference to a missing file with a 400 JSON error and no zip", async () => {
    const files = sampleBundleFiles("main/", ["team-a"]);
    delete files["main/team-a/items.yaml"];
    const r = await post(emu, `${oc}casc-bundle/get-effective-bundle?bundle=team-a`, { body: await makeZip(files), headers: ZIP_HEADERS });
    expect(r.status).toBe(400);
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    expect(r.json.error).toContain("missing file 'items.yaml'");
  });

  it("answers a missing parent, a bad zip and an ambiguous or unknown selection with errors", async () => {
    const orphan = { "main/orphan/bundle.yaml": 'apiVersion: "1"\nid: "o"\nversion: "1"\nparent: "ghost"\n' };
    const noParent = await post(emu, `${oc}casc-bundle/get-effective-bundle`, { body: await makeZip(orphan), headers: ZIP_HEADERS });
    expect(noParent.status).toBe(400);
    expect(noParent.json.error).toContain("Parent bundle 'ghost'");

    const notZip = await post(emu, `${oc}casc-bundle/get-effective-bundle`, { body: "plain text", headers: ZIP_HEADERS });
    expect(notZip.status).toBe(400);
    expect(notZip.json.error).toContain("Invalid zip file");

    const topLevel = await post(emu, `${oc}casc-bundle/get-effective-bundle`, {
      body: await makeZip({ "bundle.yaml": 'apiVersion: "1"\nid: "x"\nversion: "1"\n' }),
      headers: ZIP_HEADERS,
    });
    expect(topLevel.status).toBe(400);

    const two = await makeZip(sampleBundleFiles("main/", ["team-a", "team-b"]));
    expect((await post(emu, `${oc}casc-bundle/get-effective-bundle`, { body: two, headers: ZIP_HEADERS })).status).toBe(400);
    expect((await post(emu, `${oc}casc-bundle/get-effective-bundle?bundle=ghost`, { body: two, headers: ZIP_HEADERS })).status).toBe(404);
    expect((await post(emu, `${oc}casc-bundle/get-effective-bundle?bundle=team-b`, { body: two, headers: ZIP_HEADERS })).status).toBe(200);
  });
});

describe("validate-uploaded-bundle", () => {
  it("validates a bundle of the location: structure and per-controller validations", async () => {
    const r = await post(emu, `${oc}casc-bundle/validate-uploaded-bundle?bundleId=team-a&quiet=false`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ valid: true, errorCount: 0 });
    // The structural validators' success lines, as a public validate-uploaded-bundle answer lists them; team-a sets a
    // jcascMergeStrategy, whose validator's words for that case are not public.
    expect(codes(r.json.structureValidations)).toEqual([
      "INFO BUNDLE_STRUCTURE",
      "INFO BUNDLE_CONTENT",
      "INFO SCHEMA",
      "INFO DESCRIPTOR",
      "INFO BUNDLE_VERSION",
      "INFO BUNDLE_API",
      "INFO BUNDLE_ITEM_STRATEGY",
      "INFO PLUGIN_CATALOG",
      "INFO PLUGIN_CATALOG",
    ]);
    expect(r.json.structureValidations[0].message).toBe(
      "[STRUCTURE] - [FileSystemBundleValidator] All files indicated in the bundle exist and have the correct type.",
    );
    expect(r.json.controllerValidations).toEqual([
      {
        controller: "team-a/controller-a",
        controllerStatus: "ONLINE",
        validations: [expect.objectContaining({ level: "INFO", validationCode: "BUNDLE_CONTENT" })],
      },
    ]);
    const quiet = await post(emu, `${oc}casc-bundle/validate-uploaded-bundle?bundleId=team-a&quiet=true`);
    expect(quiet.json.structureValidations).toEqual([]);
    expect(quiet.json.controllerValidations[0].validations).toEqual([]);
  });

  it("reports descriptor, version, missing-file and unreferenced-file problems", async () => {
    const r = await post(emu, `${oc}casc-bundle/validate-uploaded-bundle?bundleId=broken&quiet=true`);
    expect(r.json.valid).toBe(false);
    const found = codes(r.json.structureValidations);
    expect(found).toEqual(
      expect.arrayContaining(["ERROR BUNDLE_API", "ERROR BUNDLE_VERSION", "ERROR BUNDLE_CONTENT", "WARNING BUNDLE_CONTENT"]),
    );
    expect(found.every((c) => !c.startsWith("INFO"))).toBe(true);
    const messages = r.json.structureValidations.map((v: any) => v.message);
    expect(messages).toContain("[APIVAL] - 'apiVersion' property in the bundle.yaml file must be an integer.");
    expect(messages).toContain("[VERSIONVAL] - Missing version property in the bundle.yaml file.");
    expect(messages.some((m: string) => m.includes("'missing.yaml'"))).toBe(true);
    expect(messages).toContain("[CONTVAL] - Unreferenced files/folders stray.yaml found in bundle folder.");
    expect(r.json.errorCount).toBe(4);
    expect(r.json.structureValidations.filter((v: any) => v.level === "ERROR")).toHaveLength(4);
  });

  it("reports jcasc conflicts with the parent under errorOnConflict", async () => {
    const r = await post(emu, `${oc}casc-bundle/validate-uploaded-bundle?bundleId=conflicting&quiet=true`);
    expect(r.json.valid).toBe(false);
    expect(r.json.structureValidations).toEqual([
      expect.objectContaining({ level: "ERROR", validationCode: "BUNDLE_JCASC_STRATEGY", message: expect.stringContaining("jenkins.systemMessage") }),
    ]);
  });

  it("reports a parent that cannot be found", async () => {
    const r = await post(emu, `${oc}casc-bundle/validate-uploaded-bundle?bundleId=orphan&quiet=true`);
    expect(r.json).toMatchObject({ valid: false, errorCount: 1 });
    expect(r.json.structureValidations[0].message).toBe("[STRUCTURE] - Parent bundle 'ghost' of bundle 'orphan' not found");
  });

  it("404 for an unknown bundle, 400 without bundleId", async () => {
    expect((await post(emu, `${oc}casc-bundle/validate-uploaded-bundle?bundleId=ghost`)).status).toBe(404);
    expect((await post(emu, `${oc}casc-bundle/validate-uploaded-bundle`)).status).toBe(400);
  });
});

describe("pre-validate-bundle", () => {
  it("validates every bundle of the zip, quiet dropping INFO", async () => {
    const files = sampleBundleFiles("main/", ["team-a", "team-b"]);
    files["main/bad/bundle.yaml"] = 'apiVersion: 3\nid: "bad"\nversion: "1"\n';
    const zip = await makeZip(files);
    const r = await post(emu, `${oc}casc-bundle/pre-validate-bundle?quiet=false`, { body: zip, headers: { ...ZIP_HEADERS, accept: "application/json" } });
    expect(r.status).toBe(200);
    const byName = Object.fromEntries(r.json.validations.map((v: any) => [v.bundle, v.result]));
    expect(Object.keys(byName)).toEqual(["main/bad", "main/team-a", "main/team-b"]);
    expect(byName["main/team-a"]).toMatchObject({ valid: true, errorCount: 0 });
    expect(codes(byName["main/team-a"].structureValidations).every((c) => c.startsWith("INFO "))).toBe(true);
    expect(byName["main/team-a"].controllerValidations.map((c: any) => c.controller)).toEqual(["team-a/controller-a"]);
    expect(byName["main/bad"]).toMatchObject({ valid: false, errorCount: 1 });
    expect(byName["main/bad"].structureValidations).toContainEqual({
      level: "ERROR",
      validationCode: "BUNDLE_API",
      message: "[APIVAL] - 'apiVersion' property in the bundle.yaml file must be 1 or 2.",
    });

    const quiet = await post(emu, `${oc}casc-bundle/pre-validate-bundle?quiet=true`, { body: zip, headers: ZIP_HEADERS });
    for (const v of quiet.json.validations) expect(v.result.structureValidations.every((s: any) => s.level !== "INFO")).toBe(true);
  });

  it("answers an inconsistent bundle with a 400 JSON error", async () => {
    const files = sampleBundleFiles("main/", ["team-a", "team-b"]);
    delete files["main/team-b/jenkins.yaml"];
    const r = await post(emu, `${oc}casc-bundle/pre-validate-bundle`, { body: await makeZip(files), headers: ZIP_HEADERS });
    expect(r.status).toBe(400);
    expect(r.json.error).toContain("'jenkins.yaml'");
  });
});

describe("check-out", () => {
  it("re-reads the bundle location (nested folders named by relative path) and reports timestamps", async () => {
    const before = await call(emu, `${oc}casc-bundle/list`);
    expect(before.json.bundles.map((b: any) => b.name)).toEqual(["base", "broken", "conflicting", "orphan", "team-a", "team-b"]);
    const effectiveBefore = await call(emu, `${oc}casc-bundle/raw-bundle-validation-log?bundle=base`);

    writeBundle("teams/team-c", {
      "bundle.yaml": 'apiVersion: "1"\nid: "team-c"\nversion: "1"\nparent: "base"\navailabilityPattern: "sandbox"\n',
    });
    fs.writeFileSync(path.join(dir, "base", "jenkins.yaml"), 'jenkins:\n  systemMessage: "changed"\n');
    fs.rmSync(path.join(dir, "broken"), { recursive: true });
    // Nothing changes until the check-out.
    expect((await call(emu, `${oc}casc-bundle/list`)).json.bundles).toHaveLength(6);

    const r = await post(emu, `${oc}casc-bundle/check-out?timeout=30`);
    expect(r.status).toBe(200);
    expect(r.json.remotes).toHaveLength(1);
    expect(r.json.remotes[0].name).toBe("local-folder");
    const bundles = r.json.remotes[0].bundles;
    expect(bundles.map((b: any) => b.bundleName)).toEqual(["base", "conflicting", "orphan", "team-a", "team-b", "teams/team-c"]);
    expect(bundles[0].localText).toMatch(/^[A-Z][a-z]{2} [A-Z][a-z]{2} \d{2} \d{2}:\d{2}:\d{2} UTC \d{4}$/);

    const after = await call(emu, `${oc}casc-bundle/list`);
    expect(after.json.bundles.find((b: any) => b.name === "teams/team-c")).toMatchObject({ regex: "sandbox", availableFor: ["sandbox"] });
    expect(emu.state.bundles()).toEqual(["base", "conflicting", "orphan", "team-a", "team-b", "teams/team-c"]);

    // The changed bundle gets a new raw validation record.
    const log = await call(emu, `${oc}casc-bundle/raw-bundle-validation-log?bundle=base`);
    expect(log.json["validation-log"][0].records).toHaveLength(effectiveBefore.json["validation-log"][0].records.length + 1);
  });

  it("defaults the timeout and rejects non-positive or non-integer timeouts", async () => {
    expect((await post(emu, `${oc}casc-bundle/check-out`)).status).toBe(200);
    for (const t of ["0", "-5", "abc", "1.5"]) expect((await post(emu, `${oc}casc-bundle/check-out?timeout=${t}`)).status).toBe(400);
  });
});
