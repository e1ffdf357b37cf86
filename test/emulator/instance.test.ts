import * as fs from "node:fs";
import * as path from "node:path";
import YAML from "yaml";
import { Emulator, startEmulator } from "../../emulator";
import { call, copyBundles, makeZip, post, readZip, sampleBundleFiles, ZIP_HEADERS } from "./helpers";

let emu: Emulator;
let dir: string;
let oc: string;
let teamA: string;
let teamB: string;
let sandbox: string;

beforeAll(async () => {
  dir = copyBundles();
  // A bundle that removes items it does not declare, to exercise items.deletions.
  fs.mkdirSync(path.join(dir, "syncing"));
  fs.writeFileSync(
    path.join(dir, "syncing", "bundle.yaml"),
    'apiVersion: "1"\nid: "syncing"\nversion: "1"\navailabilityPattern: "sandbox"\nitemRemoveStrategy:\n  items: "sync"\n  rbac: "sync"\nitems:\n  - "items.yaml"\n',
  );
  fs.writeFileSync(path.join(dir, "syncing", "items.yaml"), "items:\n  - kind: folder\n    name: kept\n");
  emu = await startEmulator({ bundlesDir: dir });
  oc = emu.operationsCenterUrl;
  teamA = emu.controllerUrls["team-a/controller-a"]!;
  teamB = emu.controllerUrls["team-b/controller-b"]!;
  sandbox = emu.controllerUrls["sandbox"]!;
});
afterAll(async () => {
  await emu.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const assign = (bundleId: string, controllerPath: string) =>
  post(emu, `${oc}casc-bundle/set-controller-to-bundle?${new URLSearchParams({ bundleId, controllerPath })}`);
const validate = (base: string, zip: Buffer | string, quiet = false) =>
  post(emu, `${base}casc-bundle-mgnt/casc-bundle-validate?quiet=${quiet}`, { body: zip, headers: { "content-type": "application/zip" } });
const bundleZip = (descriptor: string, extra: Record<string, string> = {}) => makeZip({ "bundle.yaml": descriptor, ...extra });

describe("casc-bundle-validate", () => {
  it("answers a body that is not a zip with 500 'Invalid zip file'", async () => {
    for (const base of [oc, teamA]) {
      const r = await validate(base, "definitely not a zip");
      expect(r.status).toBe(500);
      expect(r.json).toEqual({ error: "Invalid zip file: Cannot be unzipped" });
    }
  });

  it("answers a zip without bundle.yaml at its top with 500 'Missing descriptor'", async () => {
    const r = await validate(teamA, await makeZip({ "nested/bundle.yaml": "id: x\n", "jenkins.yaml": "jenkins: {}\n" }));
    expect(r.status).toBe(500);
    expect(r.json).toEqual({ error: "Invalid bundle - Missing descriptor" });
  });

  it("accepts a valid bundle with quoted apiVersion; quiet=true leaves out empty validation-messages", async () => {
    const zip = await bundleZip('apiVersion: "1"\nid: "ok"\nversion: "7"\njcasc:\n  - "jenkins.yaml"\n', { "jenkins.yaml": "jenkins: {}\n" });
    const verbose = await validate(teamA, zip);
    expect(verbose.status).toBe(200);
    expect(verbose.json.valid).toBe(true);
    // Only the structural validators' success lines, the file system's first.
    expect(verbose.json["validation-messages"][0]).toBe(
      "INFO - [STRUCTURE] - [FileSystemBundleValidator] All files indicated in the bundle exist and have the correct type.",
    );
    expect(verbose.json["validation-messages"].every((m: string) => m.startsWith("INFO - "))).toBe(true);
    const quiet = await validate(teamA, zip, true);
    expect(quiet.json).toEqual({ valid: true });
  });

  it("reports a non-integer apiVersion and a missing version as errors", async () => {
    const r = await validate(sandbox, await bundleZip('apiVersion: "one"\nid: "x"\n'), true);
    expect(r.json).toEqual({
      valid: false,
      "validation-messages": [
        "ERROR - [APIVAL] - 'apiVersion' property in the bundle.yaml file must be an integer.",
        "ERROR - [VERSIONVAL] - Missing version property in the bundle.yaml file.",
      ],
    });
  });

  it("reports apiVersion other than 1 or 2 and a missing referenced file", async () => {
    const r = await validate(sandbox, await bundleZip('apiVersion: 3\nid: "x"\nversion: "1"\nplugins:\n  - "plugins.yaml"\n'), true);
    expect(r.json.valid).toBe(false);
    expect(r.json["validation-messages"]).toEqual([
      "ERROR - [APIVAL] - 'apiVersion' property in the bundle.yaml file must be 1 or 2.",
      "ERROR - [CONTVAL] - The file 'plugins.yaml' referenced in section 'plugins' does not exist in the bundle.",
      "ERROR - [PLUGINVAL] - The bundle.yaml file references plugins.yaml in the plugins section that cannot be found. Impossible to validate plugins.",
    ]);
    expect((await validate(sandbox, await bundleZip('apiVersion: 2\nid: "x"\nversion: "1"\n'), true)).json).toEqual({ valid: true });
  });

  it("warns (only) about parent and availabilityPattern in an uploaded bundle", async () => {
    const r = await validate(sandbox, await bundleZip('apiVersion: "1"\nid: "x"\nversion: "1"\nparent: "base"\navailabilityPattern: ".*"\n'), true);
    expect(r.json.valid).toBe(true);
    expect(r.json["validation-messages"]).toHaveLength(2);
    expect(r.json["validation-messages"].every((m: string) => m.startsWith("WARNING - [DESCVAL] - "))).toBe(true);
  });
});

describe("update check, reload and update log", () => {
  it("starts with nothing applied and nothing to reload", async () => {
    const check = await call(emu, `${teamA}casc-bundle-mgnt/check-bundle-update`);
    expect(check.json).toEqual({ "update-available": false, versions: { "current-bundle": { version: "N/A", validations: [] } }, items: { deletions: [] } });
    const log = await call(emu, `${teamA}casc-bundle-mgnt/casc-bundle-update-log`);
    expect(log.json).toEqual({ "update-log-status": "ENABLED", "retention-policy": 10, versions: [] });
    const reload = await post(emu, `${oc}casc-bundle-mgnt/reload-bundle`);
    expect(reload.json).toEqual({ reloaded: false, reason: "No CasC bundle is assigned to this instance" });
    expect((await post(emu, `${teamA}core-casc-effective-bundle-export`)).status).toBe(404);
  });

  it("reports the assigned bundle as an update, reloads it, and logs it", async () => {
    expect((await assign("team-a", "team-a/controller-a")).status).toBe(200);
    const check = await call(emu, `${teamA}casc-bundle-mgnt/check-bundle-update?quiet=false`);
    expect(check.json["update-available"]).toBe(true);
    expect(check.json["update-type"]).toBe("RELOAD");
    expect(check.json.versions["current-bundle"]).toEqual({ version: "N/A", validations: [] });
    const newVersion = check.json.versions["new-version"];
    expect(newVersion).toMatchObject({ version: expect.stringMatching(/^[0-9a-f]{32}$/), valid: true });
    expect(newVersion.validations.length).toBeGreaterThan(0);
    expect(newVersion.validations.every((m: string) => m.startsWith("INFO - "))).toBe(true);
    expect(check.json.items).toEqual({ deletions: [] });
    const quiet = await call(emu, `${teamA}casc-bundle-mgnt/check-bundle-update?quiet=true`);
    expect(quiet.json.versions["new-version"].validations).toEqual([]);

    const reload = await post(emu, `${teamA}casc-bundle-mgnt/reload-bundle`);
    expect(reload.status).toBe(200);
    expect(reload.json).toEqual({ reloaded: true });
    expect(emu.state.appliedBundle("team-a/controller-a")).toEqual({ bundle: "team-a", version: newVersion.version });
    expect(emu.state.items("team-a/controller-a")).toEqual(["shared", "shared/hello", "team-a", "team-a/build"]);

    const log = await call(emu, `${teamA}casc-bundle-mgnt/casc-bundle-update-log`);
    expect(log.json.versions).toEqual([
      { version: newVersion.version, date: expect.stringMatching(/^\d{2} [A-Z][a-z]{2} \d{4}$/), errors: 0, warnings: 0, folder: expect.stringMatching(/^\d{8}_00001$/) },
    ]);

    const after = await call(emu, `${teamA}casc-bundle-mgnt/check-bundle-update?quiet=true`);
    expect(after.json["update-available"]).toBe(false);
    expect(after.json["update-type"]).toBeUndefined();
    expect(after.json.versions["current-bundle"]).toEqual({ version: newVersion.version, validations: [] });
    expect(after.json.versions["new-version"]).toBeUndefined();

    // Nothing new: reloaded, but no second log version.
    expect((await post(emu, `${teamA}casc-bundle-mgnt/reload-bundle`)).json).toEqual({ reloaded: true });
    expect((await call(emu, `${teamA}casc-bundle-mgnt/casc-bundle-update-log`)).json.versions).toHaveLength(1);
  });

  it("lists items a sync bundle would delete and deletes them on reload", async () => {
    await post(emu, `${sandbox}casc-items/create-items`, { body: "items:\n  - kind: freestyle\n    name: legacy\n", headers: { "content-type": "text/yaml" } });
    expect((await assign("syncing", "sandbox")).status).toBe(200);
    const check = await call(emu, `${sandbox}casc-bundle-mgnt/check-bundle-update`);
    expect(check.json.items).toEqual({ deletions: ["legacy"] });
    expect((await post(emu, `${sandbox}casc-bundle-mgnt/reload-bundle`)).json).toEqual({ reloaded: true });
    expect(emu.state.items("sandbox")).toEqual(["kept"]);
  });

  it("refuses reloads with the configured reason until cleared", async () => {
    await post(emu, `${oc}casc-bundle/set-availability-pattern?bundleId=team-b&regex=team-b/.*`);
    expect((await assign("team-b", "team-b/controller-b")).status).toBe(200);
    emu.setReloadRefusal("team-b/controller-b", "Bundle is not hot reloadable");
    expect((await post(emu, `${teamB}casc-bundle-mgnt/reload-bundle`)).json).toEqual({ reloaded: false, reason: "Bundle is not hot reloadable" });
    emu.setReloadRefusal("team-b/controller-b", "A reload is already in progress, please wait for it to complete");
    expect((await post(emu, `${teamB}casc-bundle-mgnt/reload-bundle`)).json.reason).toBe(
      "A reload is already in progress, please wait for it to complete",
    );
    expect(emu.state.appliedBundle("team-b/controller-b")).toBeNull();
    expect((await call(emu, `${teamB}casc-bundle-mgnt/check-bundle-update`)).json["update-available"]).toBe(true);
    emu.setReloadRefusal("team-b/controller-b", null);
    expect((await post(emu, `${teamB}casc-bundle-mgnt/reload-bundle`)).json).toEqual({ reloaded: true });
    emu.setReloadRefusal("", "Bundle is not hot reloadable");
    expect((await post(emu, `${oc}casc-bundle-mgnt/reload-bundle`)).json.reason).toBe("Bundle is not hot reloadable");
    emu.setReloadRefusal("", null);
    expect(() => emu.setReloadRefusal("ghost", "x")).toThrow(/Unknown instance/);
  });

  it("offers a changed parent as an update after check-out", async () => {
    const before = emu.state.appliedBundle("team-a/controller-a")!.version;
    fs.appendFileSync(path.join(dir, "base", "plugins.yaml"), '  - id: "git"\n');
    expect((await call(emu, `${teamA}casc-bundle-mgnt/check-bundle-update`)).json["update-available"]).toBe(false);
    await post(emu, `${oc}casc-bundle/check-out`);
    const check = await call(emu, `${teamA}casc-bundle-mgnt/check-bundle-update`);
    expect(check.json["update-available"]).toBe(true);
    expect(check.json.versions["current-bundle"].version).toBe(before);
    expect(check.json.versions["new-version"].version).not.toBe(before);
    await post(emu, `${teamA}casc-bundle-mgnt/reload-bundle`);
    expect((await call(emu, `${teamA}casc-bundle-mgnt/casc-bundle-update-log`)).json.versions.map((v: any) => v.folder)).toEqual([
      expect.stringMatching(/_00002$/),
      expect.stringMatching(/_00001$/),
    ]);
  });
});

describe("exports", () => {
  it("core-casc-export concatenates the YAML files of the applied configuration", async () => {
    const r = await call(emu, `${teamA}core-casc-export`);
    expect(r.status).toBe(200);
    // text/plain, as the CasC client plugin's BundleResponse sets it (pankajy-dev/cloudbees-casc-client-workshop).
    expect(r.headers.get("content-type")).toMatch(/^text\/plain/);
    const docs = YAML.parseAllDocuments(r.text).map((d) => d.toJS());
    expect(r.text).toMatch(/# bundle\.yaml\n/);
    // The descriptor of a real export (tsmp-falcon-platform/ci-bundle-utils@abb223a,
    // bundleutilspkg/tests/resources/credentials/fetched-bundle/bundle.yaml): generated, version '1', the instance's
    // name as id (`controller1` there), not its full path.
    expect(docs[0]).toMatchObject({ id: "controller-a", description: "Autogenerated bundle descriptor", version: "1" });
    expect(docs[1].jenkins).toMatchObject({ systemMessage: "Managed by CasC: team A", numExecutors: 0, labelString: "team-a" });
    expect(docs[2].plugins).toEqual(expect.arrayContaining([{ id: "cloudbees-casc-client" }, { id: "git" }]));
    expect(docs[3].items.map((i: any) => i.name)).toEqual(["shared", "team-a"]);
  });

  it("zipExport returns the same files as a zip", async () => {
    const r = await call(emu, `${teamA}core-casc-export/zipExport`);
    expect(r.headers.get("content-type")).toBe("application/zip");
    const files = await readZip(r.bytes);
    // The Jenkins file is jenkins.yaml, as in a real export (tsmp-falcon-platform/ci-bundle-utils,
    // examples/offline-test-run/bundlecontent.yaml: `jcasc: ["jenkins.yaml"]`).
    expect(Object.keys(files).sort()).toEqual(["bundle.yaml", "items.yaml", "jenkins.yaml", "plugins.yaml"]);
    expect(YAML.parse(files["bundle.yaml"]!)).toMatchObject({ jcasc: ["jenkins.yaml"], plugins: ["plugins.yaml"], items: ["items.yaml"] });
    // BundleExport.doZipExport (pankajy-dev/cloudbees-casc-client-workshop): core-casc-export-<instance name>.zip.
    expect(r.headers.get("content-disposition")).toBe('inline; filename="core-casc-export-controller-a.zip"');
  });

  it("exports the applied effective bundle and its files", async () => {
    const r = await post(emu, `${teamA}core-casc-effective-bundle-export`);
    expect(r.status).toBe(200);
    const files = await readZip(r.bytes);
    expect(YAML.parse(files["bundle.yaml"]!).version).toBe(emu.state.appliedBundle("team-a/controller-a")!.version);
    expect(Object.keys(files)).toContain("team-a/jenkins.yaml");
    const one = await post(emu, `${teamA}core-casc-effective-bundle-export/downloadFile/base/plugins.yaml`);
    expect(one.status).toBe(200);
    expect(one.text).toContain('id: "git"');
    expect((await post(emu, `${teamA}core-casc-effective-bundle-export/downloadFile/nope.yaml`)).status).toBe(404);
  });

  it("versions are content checksums: get-effective-bundle of the same content gives the applied version", async () => {
    // A branch-less "team-a" folder inherits the OC's base, exactly like the location's team-a.
    const same = await makeZip(sampleBundleFiles("", ["team-a"]));
    const r = await post(emu, `${oc}casc-bundle/get-effective-bundle?bundle=team-a`, { body: same, headers: ZIP_HEADERS });
    const applied = emu.state.appliedBundle("team-a/controller-a")!.version;
    expect(YAML.parse((await readZip(r.bytes))["bundle.yaml"]!).version).toBe(applied);
    const renamed = await makeZip(sampleBundleFiles("main/", ["team-a"]));
    const other = await post(emu, `${oc}casc-bundle/get-effective-bundle?bundle=team-a`, { body: renamed, headers: ZIP_HEADERS });
    expect(YAML.parse((await readZip(other.bytes))["bundle.yaml"]!).version).not.toBe(applied);
  });
});

describe("schemas", () => {
  const names = ["bundle-descriptor.json", "plugin-catalog.json", "plugins.json", "items.json", "rbac.json", "variables.json"];
  it("serves the six JSON schemas on the OC and the controllers", async () => {
    for (const base of [oc, sandbox]) {
      for (const name of names) {
        const r = await call(emu, `${base}core-casc-schema-download/download/${name}`);
        expect(r.status).toBe(200);
        expect(r.json.$schema).toBe("http://json-schema.org/draft-07/schema#");
        expect(r.json.type).toBe("object");
      }
    }
    const descriptor = await call(emu, `${oc}core-casc-schema-download/download/bundle-descriptor.json`);
    expect(descriptor.json.required).toEqual(["apiVersion", "id", "version"]);
  });

  it("answers any other name with 404", async () => {
    expect((await call(emu, `${oc}core-casc-schema-download/download/jenkins.json`)).status).toBe(404);
    expect((await call(emu, `${oc}core-casc-schema-download/download/`)).status).toBe(404);
  });
});

/** The operations center's items other than its controllers and their folders (controllers are items too). */
const ocItems = () => emu.state.items("").filter((i) => !/^(team-a|team-b|sandbox)(\/|$)/.test(i));

describe("create-items and item export", () => {
  const create = (base: string, yaml: string, folder?: string) =>
    post(emu, `${base}casc-items/create-items${folder === undefined ? "" : `?path=${encodeURIComponent(folder)}`}`, {
      body: yaml,
      headers: { "content-type": "text/yaml" },
    });

  it("creates items at the root, then inside an existing folder", async () => {
    const root = await create(oc, "removeStrategy:\n  items: none\n  rbac: sync\nitems:\n  - kind: folder\n    name: apps\n    displayName: Apps\n");
    expect(root.status).toBe(200);
    expect(root.json).toEqual({ basePath: "" });
    const inside = await create(oc, "items:\n  - kind: pipeline\n    name: pipe\n    definition:\n      cpsFlowDefinition:\n        script: echo 1\n", "apps");
    expect(inside.json).toEqual({ basePath: "apps" });
    const deeper = await create(oc, "items:\n  - kind: folder\n    name: sub\n    items:\n      - kind: freestyle\n        name: leaf\n", "/apps/");
    expect(deeper.json).toEqual({ basePath: "apps" });
    expect(ocItems()).toEqual(["apps", "apps/pipe", "apps/sub", "apps/sub/leaf"]);
    // Instances keep separate item trees.
    expect(emu.state.items("team-b/controller-b")).not.toContain("apps");
  });

  it("rejects a missing folder (404), a non-folder (400) and bad YAML (400)", async () => {
    expect((await create(oc, "items: []\n", "ghost")).status).toBe(404);
    expect((await create(oc, "items: []\n", "apps/pipe")).status).toBe(400);
    expect((await create(oc, "items: [\n")).status).toBe(400);
    expect((await create(oc, "jenkins: {}\n")).status).toBe(400);
    expect((await create(oc, "items:\n  - name: no-kind\n")).status).toBe(400);
    expect((await create(oc, "")).status).toBe(400);
    expect(ocItems()).toEqual(["apps", "apps/pipe", "apps/sub", "apps/sub/leaf"]);
  });

  it("exports an item as CasC YAML, whole or by section", async () => {
    // Without a section: that one item, a mapping (cb-ci/ci-casc-api-samples casc-getCjocControllerItemsYaml.sh).
    const whole = await post(emu, `${oc}job/apps/job/pipe/export/download`);
    expect(whole.status).toBe(200);
    expect(YAML.parse(whole.text)).toEqual({ kind: "pipeline", name: "pipe", definition: { cpsFlowDefinition: { script: "echo 1" } } });
    const items = await post(emu, `${oc}job/apps/job/pipe/export/download/items.yaml`);
    expect(YAML.parse(items.text).items).toEqual([{ kind: "pipeline", name: "pipe", definition: { cpsFlowDefinition: { script: "echo 1" } } }]);
    const folder = YAML.parse((await post(emu, `${oc}job/apps/export/download/items.yaml`)).text);
    expect(folder.items[0].items.map((i: any) => i.name)).toEqual(["pipe", "sub"]);
    const plugins = YAML.parse((await post(emu, `${oc}job/apps/export/download/plugins.yaml`)).text);
    expect(plugins.plugins.map((p: any) => p.id)).toEqual(["cloudbees-folder", "workflow-job", "workflow-cps"]);
    for (const section of ["bundle.yaml", "core.yaml", "jenkins.yaml", "plugin-catalog.yaml", "rbac.yaml"]) {
      expect((await post(emu, `${oc}job/apps/export/download/${section}`)).status).toBe(200);
    }
    // The spec's core.yaml section is the export's jenkins.yaml.
    const core = (await post(emu, `${oc}job/apps/export/download/core.yaml`)).text;
    expect(core).toBe((await post(emu, `${oc}job/apps/export/download/jenkins.yaml`)).text);
  });

  it("exports items of a controller, and answers unknown items, sections and GET with 404", async () => {
    const r = await post(emu, `${teamA}job/team-a/job/build/export/download/items.yaml`);
    expect(YAML.parse(r.text).items[0]).toMatchObject({ kind: "pipeline", name: "build" });
    expect((await post(emu, `${oc}job/apps/job/ghost/export/download`)).status).toBe(404);
    expect((await post(emu, `${oc}job/apps/export/download/variables.yaml`)).status).toBe(404);
    expect((await call(emu, `${oc}job/apps/export/download`)).status).toBe(404);
  });
});
