import { startEmulator, type Emulator } from "../../emulator";
import { InstanceClient, InvalidInputError, NotFoundError, OperationsCenterClient, ServerError, SCHEMA_FILES } from "../../provider";
import { FAST } from "./fast-options";
import { bundleZip, unzipNames } from "./zips";

let emu: Emulator;
let controller: InstanceClient;
let prefix: string;
const CONTROLLER = "team-a/controller-a";

beforeAll(async () => {
  emu = await startEmulator();
  const credentials = emu.credentials.admin;
  // The controller runs the team-a bundle (inheriting base) once it is assigned and reloaded.
  const oc = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...credentials, ...FAST });
  await oc.setControllerToBundle("team-a", CONTROLLER);
  await oc.close();
  controller = new InstanceClient({ baseUrl: emu.controllerUrls[CONTROLLER], ...credentials, ...FAST });
  prefix = new URL(emu.controllerUrls[CONTROLLER]).pathname;
});
afterAll(async () => {
  await controller.close();
  await emu.close();
});
beforeEach(() => {
  emu.journal.clear();
  emu.faults.clear();
});

const last = () => emu.journal.entries().at(-1)!;

describe("InstanceClient on a controller", () => {
  it("sees the assigned bundle as an update, reloads it, and logs the new version", async () => {
    const check = await controller.checkBundleUpdate();
    expect([last().method, last().path, last().query]).toEqual(["GET", `${prefix}casc-bundle-mgnt/check-bundle-update`, {}]);
    expect(check["update-available"]).toBe(true);
    const newVersion = check.versions["new-version"]!.version;

    await expect(controller.reloadBundle()).resolves.toMatchObject({ reloaded: true });
    expect([last().method, last().path, last().body.length]).toEqual(["POST", `${prefix}casc-bundle-mgnt/reload-bundle`, 0]);

    const after = await controller.checkBundleUpdate({ quiet: true });
    expect(last().query).toEqual({ quiet: "true" });
    expect(after["update-available"]).toBe(false);
    expect(after.versions["current-bundle"].version).toBe(newVersion);

    const log = await controller.getUpdateLog();
    expect(last().path).toBe(`${prefix}casc-bundle-mgnt/casc-bundle-update-log`);
    expect(log["update-log-status"]).toBe("ENABLED");
    expect(log.versions.map((v) => v.version)).toContain(newVersion);
  });

  it("reports a refused reload, and never repeats a reload that failed", async () => {
    emu.setReloadRefusal(CONTROLLER, "Bundle is not hot reloadable");
    await expect(controller.reloadBundle()).resolves.toEqual({ reloaded: false, reason: "Bundle is not hot reloadable" });
    emu.setReloadRefusal(CONTROLLER, null);

    emu.journal.clear();
    emu.faults.inject({ path: `${prefix}casc-bundle-mgnt/reload-bundle`, status: 503 });
    await expect(controller.reloadBundle()).rejects.toThrow(ServerError);
    expect(emu.journal.entries()).toHaveLength(1);
  });

  it("exports the configuration as text and as a zip", async () => {
    const text = await controller.exportConfiguration();
    expect([last().method, last().path]).toEqual(["GET", `${prefix}core-casc-export`]);
    expect(last().headers.accept).toContain("text/yaml");
    expect(text).toContain("building team A");

    const zip = await controller.exportConfigurationZip();
    expect(last().path).toBe(`${prefix}core-casc-export/zipExport`);
    expect(last().headers.accept).toContain("application/zip");
    expect(await unzipNames(zip)).toContain("bundle.yaml");
  });

  it("exports the effective bundle and one of its files", async () => {
    const zip = await controller.exportEffectiveBundle();
    expect([last().method, last().path]).toEqual(["POST", `${prefix}core-casc-effective-bundle-export`]);
    const names = await unzipNames(zip);
    const jenkins = names.find((n) => n.endsWith("team-a/jenkins.yaml"))!;
    expect(jenkins).toBeDefined();

    const file = await controller.downloadEffectiveBundleFile(jenkins);
    expect([last().method, last().path]).toEqual(["POST", `${prefix}core-casc-effective-bundle-export/downloadFile/${jenkins}`]);
    expect(file.length).toBeGreaterThan(0);
    await expect(controller.downloadEffectiveBundleFile("no-such.yaml")).rejects.toThrow(NotFoundError);
    await expect(controller.downloadEffectiveBundleFile("../secrets")).rejects.toThrow(InvalidInputError);
  });

  it("downloads each of the six schemas, and refuses other names before sending", async () => {
    for (const name of SCHEMA_FILES) {
      const schema = await controller.downloadSchema(name);
      expect([last().method, last().path]).toEqual(["GET", `${prefix}core-casc-schema-download/download/${name}`]);
      expect(typeof schema).toBe("object");
    }
    emu.journal.clear();
    await expect(controller.downloadSchema("jenkins.json" as never)).rejects.toThrow(/invalid name: "jenkins.json" is not one of/);
    expect(emu.journal.entries()).toHaveLength(0);
  });

  it("creates items from YAML sent as text/yaml, at the root or in an existing folder", async () => {
    const yaml = "removeStrategy:\n  items: none\n  rbac: sync\nitems:\n  - kind: folder\n    name: releases\n";
    await expect(controller.createItems(yaml)).resolves.toEqual({ basePath: "" });
    expect([last().method, last().path, last().query]).toEqual(["POST", `${prefix}casc-items/create-items`, {}]);
    expect(last().headers["content-type"]).toBe("text/yaml");
    expect(last().body.toString()).toBe(yaml);

    const job = "items:\n  - kind: pipeline\n    name: nightly\n";
    await expect(controller.createItems(job, { path: "releases" })).resolves.toEqual({ basePath: "releases" });
    expect(last().query).toEqual({ path: "releases" });
    expect(emu.state.items(CONTROLLER)).toContain("releases/nightly");

    await expect(controller.createItems(job, { path: "no-such-folder" })).rejects.toThrow(NotFoundError);
    await expect(controller.createItems("")).rejects.toThrow(InvalidInputError);
  });

  it("exports an item, whole or one section", async () => {
    const whole = await controller.exportItem("job/team-a/job/build");
    expect([last().method, last().path]).toEqual(["POST", `${prefix}job/team-a/job/build/export/download`]);
    expect(whole).toContain("build");
    const items = await controller.exportItem("/job/team-a/job/build/", { section: "items.yaml" });
    expect(last().path).toBe(`${prefix}job/team-a/job/build/export/download/items.yaml`);
    expect(items).toContain("pipeline");
    await expect(controller.exportItem("job/nope")).rejects.toThrow(NotFoundError);
    // jenkins.yaml is a section too (exports name the spec's core.yaml so); variables.yaml is none.
    expect(await controller.exportItem("job/team-a", { section: "jenkins.yaml" })).toBe(await controller.exportItem("job/team-a", { section: "core.yaml" }));
    await expect(controller.exportItem("job/team-a", { section: "variables.yaml" as never })).rejects.toThrow(InvalidInputError);
  });

  it("validates a bundle zip sent as the raw body", async () => {
    const good = await bundleZip({ "bundle.yaml": 'apiVersion: "1"\nid: x\nversion: "1"\njcasc:\n  - jenkins.yaml\n', "jenkins.yaml": "jenkins: {}\n" });
    await expect(controller.validateBundle(good, { quiet: false })).resolves.toMatchObject({ valid: true });
    expect([last().method, last().path, last().query]).toEqual(["POST", `${prefix}casc-bundle-mgnt/casc-bundle-validate`, { quiet: "false" }]);
    expect(last().headers["content-type"]).toBe("application/zip");

    const bad = await bundleZip({ "bundle.yaml": 'apiVersion: "one"\nid: x\n' });
    const verdict = await controller.validateBundle(bad);
    expect(verdict.valid).toBe(false);
    expect(verdict["validation-messages"]).toEqual(
      expect.arrayContaining([
        "ERROR - [APIVAL] - 'apiVersion' property in the bundle.yaml file must be an integer.",
        "ERROR - [VERSIONVAL] - Missing version property in the bundle.yaml file.",
      ]),
    );
  });

  it("a body that is not a zip: the server's 500 verdict, not retried", async () => {
    emu.journal.clear();
    const error = await controller.validateBundle(Buffer.from("not a zip")).catch((e) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error.bodyExcerpt).toBe("Invalid zip file: Cannot be unzipped");
    expect(emu.journal.entries()).toHaveLength(1);
  });
});

describe("InstanceClient on the operations center", () => {
  it("serves the instance endpoints under the operations center's prefix", async () => {
    const oc = new InstanceClient({ baseUrl: emu.operationsCenterUrl.replace(/\/$/, ""), ...emu.credentials.admin, ...FAST });
    const check = await oc.checkBundleUpdate();
    expect(last().path).toBe("/cjoc/casc-bundle-mgnt/check-bundle-update");
    expect(check["update-available"]).toBe(false);
    await oc.close();
  });
});
