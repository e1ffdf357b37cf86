import * as fs from "node:fs";
import * as path from "node:path";
import { inspect } from "node:util";
import * as pulumi from "@pulumi/pulumi";
import { startEmulator, type Emulator } from "../../emulator";
import { providerState } from "../../provider/config";
import {
  checkBundleUpdate,
  closeClients,
  downloadEffectiveBundleFile,
  downloadSchema,
  exportConfiguration,
  exportConfigurationZip,
  exportEffectiveBundle,
  exportItem,
  getApplication,
  getApplications,
  getBundle,
  getBundles,
  getControllerBundleLink,
  getControllerItems,
  getControllers,
  getEffectiveBundle,
  getEffectiveBundleValidationLog,
  getRawBundleValidationLog,
  getUpdateLog,
  InstanceClient,
  InvalidInputError,
  NotFoundError,
  OperationsCenterClient,
  PermissionError,
  preValidateBundles,
  RequestRejectedError,
  RevealedControllerBundleLink,
  SettingError,
  unzipBundle,
  validateBundle,
  validateUploadedBundle,
  zipBundle,
  zipBundleTree,
} from "../../sdk";
import { controllersOf } from "../../provider/functions/controllers";
import { adminEnvironment, adminSettings, basicOf, isolateEnvironment, requests, SAMPLE_BUNDLES, valueOf, writeTree } from "./helpers";

// Outside a Pulumi program (a plain script): settings come from CLOUDBEES_* variables and the `settings` option.

let emu: Emulator;
const CONTROLLER = "team-a/controller-a";
let controllerUrl: string;
let controllerPrefix: string;
const setEnv = isolateEnvironment();
const tmpDirs: string[] = [];

beforeAll(async () => {
  emu = await startEmulator();
  controllerUrl = emu.controllerUrls[CONTROLLER]!;
  controllerPrefix = new URL(controllerUrl).pathname;
  // The controller runs team-a (inheriting base): assigned on the operations center, then reloaded.
  const oc = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...emu.credentials.admin });
  await oc.setControllerToBundle("team-a", CONTROLLER);
  await oc.close();
  const controller = new InstanceClient({ baseUrl: controllerUrl, ...emu.credentials.admin });
  await controller.reloadBundle();
  await controller.close();
});
afterAll(async () => {
  await closeClients();
  await emu.close();
  for (const dir of tmpDirs) fs.rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  emu.journal.clear();
  emu.faults.clear();
  setEnv(adminEnvironment(emu));
});

const journal = () => emu.journal.entries();
const last = () => journal().at(-1)!;
const tree = (files: Record<string, string>) => {
  const dir = writeTree(files);
  tmpDirs.push(dir);
  return dir;
};

describe("feature-flag applications", () => {
  it("getApplications and getApplication read the account's applications", async () => {
    // Created over plain HTTP, so that the client's one-request-per-second spacing is spent on the functions only.
    const created = await fetch(`${emu.featureManagementUrl}public-api/applications`, {
      method: "POST",
      headers: { authorization: `Bearer ${emu.credentials.featureManagementToken}`, "content-type": "application/json" },
      body: JSON.stringify({ applicationName: "web-shop" }),
    }).then((r) => r.json() as Promise<{ id: string; name: string }>);
    emu.journal.clear();

    await expect(getApplications()).resolves.toEqual(emu.state.applications("acme"));
    await expect(getApplication(created.id)).resolves.toEqual({ id: created.id, name: "web-shop" });
    expect(requests(journal())).toEqual([
      "GET /feature-management/public-api/applications",
      `GET /feature-management/public-api/applications/${created.id}`,
    ]);
    expect(journal()[0]!.headers.authorization).toBe(`Bearer ${emu.credentials.featureManagementToken}`);
  });
});

describe("operations-center reads", () => {
  it("getBundles lists every bundle, without the list's token fields", async () => {
    const bundles = await getBundles();
    expect(requests(journal())).toEqual(["GET /cjoc/casc-bundle/list"]);
    expect(bundles.map((b) => b.name).sort()).toEqual(emu.state.bundles().sort());
    const teamA = bundles.find((b) => b.name === "team-a")!;
    expect(teamA).toMatchObject({ regex: "team-a/.*", availabilityPatternFromYaml: true, usedBy: [CONTROLLER], availableFor: [CONTROLLER] });
    expect(teamA.url).toBe(`${emu.operationsCenterUrl}config-bundle/team-a`);
    expect(Object.keys(teamA)).not.toContain("token");
    expect(Object.keys(teamA)).not.toContain("linkFileContent");
  });

  it("getControllers lists the controllers the bundle list knows, each with its bundle and the bundles available to it", async () => {
    // team-a's bundle.yaml pattern (team-a/.*) makes it available to team-a/controller-a; base and team-b have no
    // pattern and the global switch is off, so no other controller appears (the API has no list of controllers).
    await expect(getControllers()).resolves.toEqual([{ controllerPath: CONTROLLER, bundleId: "team-a", availableBundles: ["team-a"] }]);
    expect(requests(journal())).toEqual(["GET /cjoc/casc-bundle/list"]);
  });

  it("getControllerItems lists every controller item of the operations center, one with no bundle included", async () => {
    // The Controllers view the vendor's samples read (cb-ci/ci-casc-api-samples: view/Controllers/api/json?depth=2).
    const items = await getControllerItems();
    expect(requests(journal())).toEqual(["GET /cjoc/view/Controllers/api/json"]);
    expect(items.map((i) => i.fullPath)).toEqual(Object.keys(emu.controllerUrls).sort());
    const b = items.find((i) => i.fullPath === "team-b/controller-b")!;
    expect(b.name).toBe("controller-b");
    expect(b.url).toBe(`${emu.operationsCenterUrl}job/team-b/job/controller-b/`);
  });

  it("controllersOf: sorted paths, sorted available bundles, a controller whose bundle's pattern left it still shown", () => {
    const b = (name: string, availableFor: string[], usedBy: string[]) =>
      ({ name, url: "", regex: "", availabilityPatternFromYaml: false, availableFor, usedBy, token: "", linkFileContent: "" });
    expect(controllersOf([b("z", ["c2", "c1"], ["c1"]), b("a", ["c1"], []), b("m", [], ["c3"])])).toEqual([
      { controllerPath: "c1", bundleId: "z", availableBundles: ["a", "z"] },
      { controllerPath: "c2", bundleId: null, availableBundles: ["z"] },
      { controllerPath: "c3", bundleId: "m", availableBundles: [] },
    ]);
  });

  it("getBundle finds one bundle by name, and names the bundles there are when it is unknown", async () => {
    await expect(getBundle("team-b")).resolves.toMatchObject({ name: "team-b", regex: "", availabilityPatternFromYaml: false });
    const error = await getBundle("team-z").catch((e) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toBe(
      'getBundle(name: "team-z"): listing bundles (GET /cjoc/casc-bundle/list): no bundle is named "team-z" (bundles: "base", "team-a", "team-b"). ' +
        "Check the name (the bundle's folder path in the bundle location), or check out the bundle location first.",
    );
    expect(requests(journal())).toEqual(["GET /cjoc/casc-bundle/list", "GET /cjoc/casc-bundle/list"]);
  });

  it("getRawBundleValidationLog and getEffectiveBundleValidationLog pass their filters in the query string", async () => {
    const raw = await getRawBundleValidationLog({ bundle: "team-a", controller: true });
    expect([last().method, last().path, last().query]).toEqual(["GET", "/cjoc/casc-bundle/raw-bundle-validation-log", { bundle: "team-a", controller: "true" }]);
    expect(raw.validationLog.map((l) => l.bundleId)).toEqual(["team-a"]);
    // camelCase, with the controllers' effective logs the `controller` filter asks for.
    expect(Object.keys(raw.validationLog[0]!).sort()).toEqual(["bundleId", "controllers", "records"]);

    const all = await getRawBundleValidationLog();
    expect(last().query).toEqual({});
    expect(all.validationLog.map((l) => l.bundleId).sort()).toEqual(emu.state.bundles().sort());

    const effective = await getEffectiveBundleValidationLog({ controller: "team-a/.*" });
    expect([last().method, last().path, last().query]).toEqual(["GET", "/cjoc/casc-bundle/effective-bundle-validation-log", { controller: "team-a/.*" }]);
    expect(effective.validationLog.map((l) => l.controller)).toEqual([CONTROLLER]);
  });

  it("getControllerBundleLink gives the token and link file content as secret Outputs that print nothing", async () => {
    const token = emu.state.controllerToken(CONTROLLER);
    const link = await getControllerBundleLink(CONTROLLER);
    expect([last().method, last().path, last().query]).toEqual(["GET", "/cjoc/config-bundle-download-link", { id: CONTROLLER }]);
    expect(link.controllerPath).toBe(CONTROLLER);
    expect(link.url).toBe(`${emu.operationsCenterUrl}config-bundle/team-a`);
    expect(await pulumi.isSecret(link.token)).toBe(true);
    expect(await pulumi.isSecret(link.linkFileContent)).toBe(true);
    expect(await valueOf(link.token)).toBe(token);
    expect(await valueOf(link.linkFileContent)).toBe(`${link.url}\n${token}`);
    expect(inspect(link, { depth: 5 })).not.toContain(token);
  });

  it("getControllerBundleLink with reveal: true gives plain strings, still redacted when printed", async () => {
    const token = emu.state.controllerToken(CONTROLLER);
    const link = await getControllerBundleLink(CONTROLLER, { reveal: true });
    expect(link).toBeInstanceOf(RevealedControllerBundleLink);
    expect([link.token, link.linkFileContent]).toEqual([token, `${link.url}\n${token}`]);
    expect(inspect(link)).not.toContain(token);
    expect(inspect(link)).toContain("[secret]");
    expect(JSON.stringify(link)).not.toContain(token);
  });

  it("a controller without a bundle has no link: the client's NotFoundError, named after the call", async () => {
    const error = await getControllerBundleLink("sandbox").catch((e) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.operation).toBe('getControllerBundleLink(controllerPath: "sandbox"): reading the bundle link of controller "sandbox"');
    expect(error.message).toMatch(/^getControllerBundleLink\(controllerPath: "sandbox"\): reading the bundle link .*\(GET \/cjoc\/config-bundle-download-link\): .*404/);
    expect(error.message).toContain("No CasC bundle is assigned to controller 'sandbox'");
  });

  it("validateUploadedBundle validates a bundle the operations center has", async () => {
    const result = await validateUploadedBundle("team-a", { quiet: true });
    expect([last().method, last().path, last().query]).toEqual(["POST", "/cjoc/casc-bundle/validate-uploaded-bundle", { bundleId: "team-a", quiet: "true" }]);
    expect(result.valid).toBe(true);
    expect(result.structureValidations.every((v) => v.level !== "INFO")).toBe(true);
  });
});

describe("bundles from folders and zips", () => {
  it("validateBundle zips a bundle folder (files at the top) and sends it to the operations center", async () => {
    const result = await validateBundle(path.join(SAMPLE_BUNDLES, "base"), { quiet: false });
    expect([last().method, last().path, last().query]).toEqual(["POST", "/cjoc/casc-bundle-mgnt/casc-bundle-validate", { quiet: "false" }]);
    expect(last().headers["content-type"]).toBe("application/zip");
    expect(last().body.equals(await zipBundle(path.join(SAMPLE_BUNDLES, "base")))).toBe(true);
    expect(result).toMatchObject({ valid: true });
  });

  it("validateBundle sends a zip (bytes or a .zip file) to the controller at instanceUrl, and reports an invalid bundle as a verdict", async () => {
    const broken = tree({ "bundle.yaml": 'apiVersion: "one"\nid: x\n' });
    const zip = await zipBundle(broken);
    const zipFile = path.join(broken, "..", `${path.basename(broken)}.zip`);
    fs.writeFileSync(zipFile, zip);
    tmpDirs.push(zipFile);

    const verdict = await validateBundle(zip, { instanceUrl: controllerUrl });
    expect([last().method, last().path]).toEqual(["POST", `${controllerPrefix}casc-bundle-mgnt/casc-bundle-validate`]);
    expect(verdict.valid).toBe(false);
    expect(verdict.validationMessages).toContain("ERROR - [VERSIONVAL] - Missing version property in the bundle.yaml file.");

    await expect(validateBundle(zipFile, { instanceUrl: controllerUrl })).resolves.toEqual(verdict);
    expect(last().body.equals(zip)).toBe(true);
  });

  it("preValidateBundles zips a bundle tree in the branch-folder layout, optionally only the changed bundles and their parents", async () => {
    const all = await preValidateBundles(SAMPLE_BUNDLES);
    expect([last().method, last().path, last().query]).toEqual(["POST", "/cjoc/casc-bundle/pre-validate-bundle", {}]);
    expect(last().body.equals(await zipBundleTree(SAMPLE_BUNDLES))).toBe(true);
    expect(all.validations.map((v) => v.bundle).sort()).toEqual(["main/base", "main/team-a", "main/team-b"]);
    expect(all.validations.every((v) => v.result.valid)).toBe(true);

    const some = await preValidateBundles(SAMPLE_BUNDLES, { bundles: ["team-a"], branch: "feature/agents", quiet: true });
    expect(last().query).toEqual({ quiet: "true" });
    expect(Object.keys(await unzipBundle(last().body)).map((f) => f.split("/").slice(0, 2).join("/"))).toEqual(
      expect.arrayContaining(["feature___agents/base", "feature___agents/team-a"]),
    );
    expect(Object.keys(await unzipBundle(last().body)).some((f) => f.includes("team-b"))).toBe(false);
    expect(some.validations.map((v) => v.bundle).sort()).toEqual(["feature/agents/base", "feature/agents/team-a"]);
  });

  it("getEffectiveBundle sends the bundle and its parents, and returns the effective files, their hash and (on request) the zip", async () => {
    const effective = await getEffectiveBundle(SAMPLE_BUNDLES, "team-a", { includeZip: true });
    expect([last().method, last().path, last().query]).toEqual(["POST", "/cjoc/casc-bundle/get-effective-bundle", { bundle: "team-a" }]);
    expect(last().body.equals(await zipBundleTree(SAMPLE_BUNDLES, { bundles: ["team-a"] }))).toBe(true);
    expect(effective.bundle).toBe("team-a");
    expect(Object.keys(effective.files)).toEqual(["bundle.yaml", "main___base/items.yaml", "main___base/jenkins.yaml", "main___base/plugins.yaml", "main___team-a/items.yaml", "main___team-a/jenkins.yaml"]);
    expect(effective.files).toEqual(await unzipBundle(effective.zip));
    expect(effective.hash).toMatch(/^[0-9a-f]{64}$/);

    // The same bundle given as a zip, named with its branch folder: the same effective bundle.
    const again = await getEffectiveBundle(await zipBundleTree(SAMPLE_BUNDLES), "main/team-a");
    expect(last().query).toEqual({ bundle: "main/team-a" });
    expect(again.hash).toBe(effective.hash);
    expect(again.zip).toBeUndefined();
  });

  it("getEffectiveBundle of a bundle referencing a missing file fails with the server's message, and changes nothing", async () => {
    const root = tree({
      "broken/bundle.yaml": 'apiVersion: "1"\nid: broken\nversion: "1"\nparent: base\njcasc:\n  - jenkins.yaml\n  - missing.yaml\n',
      "broken/jenkins.yaml": "jenkins:\n  systemMessage: broken\n",
      "base/bundle.yaml": 'apiVersion: "1"\nid: base\nversion: "1"\n',
    });
    const before = emu.state.assignments();
    const error = await getEffectiveBundle(root, "broken").catch((e) => e);
    expect(error).toBeInstanceOf(RequestRejectedError);
    expect(error.status).toBe(400);
    expect(error.bodyExcerpt).toContain("references the missing file 'missing.yaml' in section 'jcasc'");
    expect(error.message).toMatch(/^getEffectiveBundle\(tree: ".*", bundle: "broken"\): computing the effective bundle of "broken" \(POST \/cjoc\/casc-bundle\/get-effective-bundle\): /);
    expect(error.message).toContain("references the missing file 'missing.yaml' in section 'jcasc'");
    expect(requests(journal())).toEqual(["POST /cjoc/casc-bundle/get-effective-bundle"]);

    const preValidation = await preValidateBundles(root).catch((e) => e);
    expect(preValidation).toBeInstanceOf(RequestRejectedError);
    expect(preValidation.message).toMatch(/^preValidateBundles\(tree: ".*"\): pre-validating bundles \(POST \/cjoc\/casc-bundle\/pre-validate-bundle\): /);
    expect(preValidation.message).toContain("references the missing file 'missing.yaml' in section 'jcasc'");
    expect(emu.state.assignments()).toEqual(before);
  });
});

describe("instance endpoints, on the operations center or a controller", () => {
  it("getUpdateLog and checkBundleUpdate", async () => {
    const log = await getUpdateLog({ instanceUrl: controllerUrl });
    expect([last().method, last().path]).toEqual(["GET", `${controllerPrefix}casc-bundle-mgnt/casc-bundle-update-log`]);
    expect(log.versions.map((v) => v.version)).toContain(emu.state.appliedBundle(CONTROLLER)!.version);
    expect(Object.keys(log).sort()).toEqual(["retentionPolicy", "updateLogStatus", "versions"]);

    const check = await checkBundleUpdate({ instanceUrl: controllerUrl, quiet: true });
    expect([last().method, last().path, last().query]).toEqual(["GET", `${controllerPrefix}casc-bundle-mgnt/check-bundle-update`, { quiet: "true" }]);
    expect(check.updateAvailable).toBe(false);
    expect(Object.keys(check).sort()).toEqual(["items", "updateAvailable", "versions"]);
    expect(check.versions.currentBundle.version).toBe(emu.state.appliedBundle(CONTROLLER)!.version);

    // Default instance: the operations center, which has no bundle.
    await expect(checkBundleUpdate()).resolves.toMatchObject({ updateAvailable: false });
    expect(last().path).toBe("/cjoc/casc-bundle-mgnt/check-bundle-update");
  });

  it("exportConfiguration and exportConfigurationZip", async () => {
    const text = await exportConfiguration({ instanceUrl: controllerUrl });
    expect([last().method, last().path]).toEqual(["GET", `${controllerPrefix}core-casc-export`]);
    expect(text).toContain("building team A");
    const zip = await exportConfigurationZip({ instanceUrl: controllerUrl });
    expect([last().method, last().path]).toEqual(["GET", `${controllerPrefix}core-casc-export/zipExport`]);
    expect(Object.keys(await unzipBundle(zip))).toContain("bundle.yaml");
  });

  it("exportEffectiveBundle and downloadEffectiveBundleFile", async () => {
    const bundle = await exportEffectiveBundle({ instanceUrl: controllerUrl });
    expect([last().method, last().path]).toEqual(["POST", `${controllerPrefix}core-casc-effective-bundle-export`]);
    expect(bundle.zip).toBeUndefined();
    const name = Object.keys(bundle.files).find((f) => f.endsWith("team-a/jenkins.yaml"))!;
    expect(bundle.files[name]).toContain("Managed by CasC: team A");
    expect(name).toBeDefined();

    const file = await downloadEffectiveBundleFile(name, { instanceUrl: controllerUrl });
    expect([last().method, last().path]).toEqual(["POST", `${controllerPrefix}core-casc-effective-bundle-export/downloadFile/${name}`]);
    expect(file).toBe(bundle.files[name]);

    // The operations center has applied no bundle: the server's 404, named after the call.
    const error = await exportEffectiveBundle().catch((e) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toMatch(/^exportEffectiveBundle\(\): exporting the effective bundle \(POST \/cjoc\/core-casc-effective-bundle-export\)/);
  });

  it("exportItem, whole or one section", async () => {
    const whole = await exportItem("job/team-a/job/build", { instanceUrl: controllerUrl });
    expect([last().method, last().path]).toEqual(["POST", `${controllerPrefix}job/team-a/job/build/export/download`]);
    expect(whole).toContain("build");
    const items = await exportItem("job/team-a/job/build", { instanceUrl: controllerUrl, section: "items.yaml" });
    expect(last().path).toBe(`${controllerPrefix}job/team-a/job/build/export/download/items.yaml`);
    expect(items).toContain("pipeline");
  });

  it("downloadSchema", async () => {
    const schema = await downloadSchema("plugins.json");
    expect([last().method, last().path]).toEqual(["GET", "/cjoc/core-casc-schema-download/download/plugins.json"]);
    expect(typeof schema).toBe("object");
    await downloadSchema("items.json", { instanceUrl: controllerUrl });
    expect(last().path).toBe(`${controllerPrefix}core-casc-schema-download/download/items.json`);
  });
});

describe("settings", () => {
  it("from explicit options, which win over the environment setting by setting", async () => {
    setEnv({ CLOUDBEES_USERNAME: emu.credentials.nonAdmin.username, CLOUDBEES_API_TOKEN: emu.credentials.nonAdmin.apiToken });
    const error = await getBundles().catch((e) => e);
    expect(error).toBeInstanceOf(PermissionError);
    expect(error.message).toMatch(/^getBundles\(\): listing bundles \(GET \/cjoc\/casc-bundle\/list\): permission denied \(403\)/);

    emu.journal.clear();
    await getBundles({ settings: { username: emu.credentials.admin.username, apiToken: emu.credentials.admin.apiToken } });
    expect(last().headers.authorization).toBe(basicOf(emu.credentials.admin.username, emu.credentials.admin.apiToken));
  });

  it("from explicit options alone, with no environment", async () => {
    setEnv(Object.fromEntries(Object.keys(adminEnvironment(emu)).map((k) => [k, undefined])));
    await expect(getBundle("base", { settings: adminSettings(emu) })).resolves.toMatchObject({ name: "base" });
    expect(requests(journal())).toEqual(["GET /cjoc/casc-bundle/list"]);
  });

  it("keeps one client per settings in the process", async () => {
    await closeClients();
    await getBundles();
    await getBundle("base");
    await validateUploadedBundle("base");
    expect(providerState().operationsCenterClients.size).toBe(1);
    await getBundles({ settings: { timeoutMs: 5000 } });
    expect(providerState().operationsCenterClients.size).toBe(2);
    await getUpdateLog({ instanceUrl: controllerUrl });
    await checkBundleUpdate({ instanceUrl: controllerUrl });
    expect(providerState().instanceClients!.size).toBe(1);
    // No key holds a token.
    expect([...providerState().operationsCenterClients.keys(), ...providerState().instanceClients!.keys()].join()).not.toContain(
      emu.credentials.admin.apiToken,
    );
  });

  it("missing settings fail before any request with the exact command, named after the call", async () => {
    setEnv({ CLOUDBEES_USERNAME: undefined, CLOUDBEES_API_TOKEN: undefined, CLOUDBEES_FEATURE_MANAGEMENT_TOKEN: undefined });
    const error = await getBundles().catch((e) => e);
    expect(error).toBeInstanceOf(SettingError);
    expect(error.message).toBe(
      "getBundles(): missing settings cloudbees:username, cloudbees:apiToken, needed to manage CasC bundles on the operations center. Set them with:\n" +
        "  cloudbees:username (operations-center user, an administrator): pulumi config set cloudbees:username <admin-user> (or the environment variable CLOUDBEES_USERNAME)\n" +
        "  cloudbees:apiToken (API token of that user): pulumi config set --secret cloudbees:apiToken <token> (or the environment variable CLOUDBEES_API_TOKEN)",
    );
    await expect(getApplications()).rejects.toThrow(
      "getApplications(): missing setting cloudbees:featureManagementToken, needed to manage feature-flag applications. Set it with:\n" +
        "  cloudbees:featureManagementToken (API token of the feature-flag account): pulumi config set --secret cloudbees:featureManagementToken <token> (or the environment variable CLOUDBEES_FEATURE_MANAGEMENT_TOKEN)",
    );
    // A controller needs the user and token, not the operations center's URL.
    setEnv({ CLOUDBEES_OPERATIONS_CENTER_URL: undefined, CLOUDBEES_USERNAME: "admin" });
    await expect(getUpdateLog({ instanceUrl: controllerUrl })).rejects.toThrow(
      `getUpdateLog(instanceUrl: "${controllerUrl}"): missing setting cloudbees:apiToken, needed to call the CasC API of ${controllerUrl}. Set it with:`,
    );
    expect(journal()).toHaveLength(0);
  });

  it("an unusable setting names the key and the command", async () => {
    await expect(getBundles({ settings: { timeoutMs: -1 } })).rejects.toThrow(
      'getBundles(): invalid setting cloudbees:timeoutMs: expected a whole number >= 1, got "-1". Fix: pulumi config set cloudbees:timeoutMs 30000 (or the environment variable CLOUDBEES_TIMEOUT_MS)',
    );
    await expect(getBundles({ settings: { apiTokn: "x" } as never })).rejects.toThrow(/^getBundles\(\): invalid settings: unknown setting "apiTokn" \(known: operationsCenterUrl, /);
    setEnv({ CLOUDBEES_OPERATIONS_CENTER_URL: "http://ci.example.com/cjoc/" });
    await expect(getBundles()).rejects.toThrow(/^getBundles\(\): invalid setting cloudbees:operationsCenterUrl: plain http to ci\.example\.com would send credentials in clear/);
    expect(journal()).toHaveLength(0);
  });
});

describe("bad input fails before any request, naming the argument", () => {
  const missing = path.join(SAMPLE_BUNDLES, "no-such-bundle");
  it.each<[string, () => Promise<unknown>, string]>([
    ["getApplication", () => getApplication(" "), 'getApplication(applicationId: " "): invalid applicationId: must not be empty.'],
    ["getBundle", () => getBundle(""), 'getBundle(name: ""): invalid name: must not be empty.'],
    ["getControllerBundleLink", () => getControllerBundleLink("/team-a/"), 'getControllerBundleLink(controllerPath: "/team-a/"): invalid controllerPath: "/team-a/" must not start or end with "/"'],
    ["getRawBundleValidationLog", () => getRawBundleValidationLog({ bundle: "" }), 'getRawBundleValidationLog(bundle: ""): invalid bundle: must not be empty.'],
    ["validateUploadedBundle", () => validateUploadedBundle(""), 'validateUploadedBundle(bundleId: ""): invalid bundleId: must not be empty.'],
    ["validateBundle (missing folder)", () => validateBundle(missing), `validateBundle(bundle: "${missing}"): invalid bundle: no folder or zip file at "${missing}".`],
    ["validateBundle (a file that is no zip)", () => validateBundle(path.join(SAMPLE_BUNDLES, "base", "bundle.yaml")), "is neither a folder nor a zip file"],
    ["validateBundle (a folder of bundles)", () => validateBundle(SAMPLE_BUNDLES), "holds no bundle file (for a folder of bundles, use preValidateBundles)"],
    ["validateBundle (empty zip)", () => validateBundle(Buffer.alloc(0)), "invalid bundle: the zip is empty."],
    ["preValidateBundles (missing folder)", () => preValidateBundles(missing), `invalid tree: no folder or zip file at "${missing}"`],
    ["preValidateBundles (unknown bundle)", () => preValidateBundles(SAMPLE_BUNDLES, { bundles: ["team-z"] }), 'invalid bundles: no bundle "team-z" below'],
    ["preValidateBundles (bundles with a zip)", () => preValidateBundles(Buffer.from("PK\x05\x06"), { bundles: ["team-a"] }), "invalid bundles: applies only when the bundles are given as a folder"],
    ["getEffectiveBundle (unknown bundle)", () => getEffectiveBundle(SAMPLE_BUNDLES, "team-z"), 'invalid bundle: no bundle "team-z" below'],
    ["getEffectiveBundle (empty bundle)", () => getEffectiveBundle(SAMPLE_BUNDLES, " "), "invalid bundle: must not be empty."],
    ["getEffectiveBundle (bad branch)", () => getEffectiveBundle(SAMPLE_BUNDLES, "team-a", { branch: "a//b" }), "invalid branch: Invalid branch name"],
    ["exportItem", () => exportItem(""), 'exportItem(itemUri: ""): invalid itemUri: must not be empty.'],
    ["downloadSchema", () => downloadSchema("jenkins.json" as never), 'downloadSchema(name: "jenkins.json"): invalid name: "jenkins.json" is not one of'],
    ["downloadEffectiveBundleFile", () => downloadEffectiveBundleFile("../secrets"), 'invalid fileName: "../secrets" has an empty, "." or ".." segment'],
    ["instanceUrl (empty)", () => getUpdateLog({ instanceUrl: "" }), 'getUpdateLog(instanceUrl: ""): invalid instanceUrl: must not be empty.'],
    ["instanceUrl (not a URL)", () => getUpdateLog({ instanceUrl: "controller-a" }), 'getUpdateLog(instanceUrl: "controller-a"): invalid instanceUrl: "controller-a" is not an absolute URL'],
  ])("%s", async (_name, call, message) => {
    const error = (await call().catch((e) => e)) as InvalidInputError;
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error.message).toContain(message);
    expect(journal()).toHaveLength(0);
  });
});
