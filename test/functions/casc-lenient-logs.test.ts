import { startEmulator, type Emulator } from "../../emulator";
import {
  closeClients,
  getEffectiveBundleValidationLog,
  getRawBundleValidationLog,
  getUpdateLog,
  InstanceClient,
  OperationsCenterClient,
  preValidateBundles,
  zipBundleTree,
} from "../../sdk";
import { adminSettings, answerOnce, isolateEnvironment, SAMPLE_BUNDLES, warningsOf } from "./helpers";

// Issue 52: the validation logs, the update log and the pre-validation's verdicts are read entry by entry, as the
// bundle list is (casc-lenient-lists.test.ts): one entry in a form this version cannot read is skipped and said once,
// in a warning naming it and its field; the others are answered. Over real HTTP: the emulator's own answer, one entry
// altered.

const CONTROLLER = "team-a/controller-a";
let emu: Emulator;
let oc: OperationsCenterClient;
let controllerUrl: string;
isolateEnvironment();
const opts = () => ({ settings: adminSettings(emu) });
/** `getX(...): skipped <what> "<name>" (item <n> of the answer), in a form ... (<field>: ...); the other items were read`. */
const skipped = (fn: string, what: string, name: string, item: number, field: string) =>
  new RegExp(`^warning: \\[runtime\\] ${fn}\\(.*\\): skipped ${what} "${name}" \\(item ${item} of the answer\\), in a form this version of pulumi-cloudbees cannot read \\(${field}: [^)]+\\); the other items were read$`);

beforeAll(async () => {
  emu = await startEmulator();
  controllerUrl = emu.controllerUrls[CONTROLLER]!;
  oc = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...emu.credentials.admin, maxRetries: 0 });
  // The controller runs team-a: its update log then holds a version, and the logs an effective entry.
  await oc.setControllerToBundle("team-a", CONTROLLER);
  const controller = new InstanceClient({ baseUrl: controllerUrl, ...emu.credentials.admin });
  await controller.reloadBundle();
  await controller.close();
});
afterAll(async () => {
  await oc.close();
  await closeClients();
  await emu.close();
});

describe("the validation logs, entry by entry", () => {
  it("getRawBundleValidationLog answers the bundles' entries it can read and warns once of the one it cannot", async () => {
    const log = await oc.getRawBundleValidationLog();
    const entries = log["validation-log"].map((e) => (e["bundle-id"] === "team-b" ? { ...e, records: [{ ...e.records[0], errors: "two" }] } : e));
    answerOnce(emu, "GET", "/cjoc/casc-bundle/raw-bundle-validation-log", { "validation-log": entries });
    const { result, warnings } = await warningsOf(() => getRawBundleValidationLog(opts()));
    expect(result.validationLog.map((e) => e.bundleId).sort()).toEqual(emu.state.bundles().filter((b) => b !== "team-b").sort());
    const position = entries.findIndex((e) => e["bundle-id"] === "team-b") + 1;
    expect(warnings).toEqual([expect.stringMatching(skipped("getRawBundleValidationLog", "bundle", "team-b", position, "records\\[0\\]\\.errors"))]);
  });

  it("getEffectiveBundleValidationLog answers the controllers' entries it can read and warns once of the one it cannot", async () => {
    const [entry] = (await oc.getEffectiveBundleValidationLog({ controller: "team-a/.*" }))["validation-log"];
    const body = { "validation-log": [{ controller: "odd/controller", records: "none" }, entry, { ...entry!, controller: "null/records", records: null }] };
    answerOnce(emu, "GET", "/cjoc/casc-bundle/effective-bundle-validation-log", body);
    const { result, warnings } = await warningsOf(() => getEffectiveBundleValidationLog(opts()));
    // A null list of records is an empty one.
    expect(result.validationLog).toEqual([{ controller: CONTROLLER, records: entry!.records }, { controller: "null/records", records: [] }]);
    expect(warnings).toEqual([expect.stringMatching(skipped("getEffectiveBundleValidationLog", "controller", "odd/controller", 1, "records"))]);
  });
});

describe("the update log, version by version", () => {
  it("getUpdateLog answers the versions it can read and warns once of the one it cannot", async () => {
    const controller = new InstanceClient({ baseUrl: controllerUrl, ...emu.credentials.admin });
    const log = await controller.getUpdateLog().finally(() => controller.close());
    const [received] = log.versions;
    const versions = [{ ...received!, version: "odd", errors: "many" }, received, { ...received!, version: "newer", extra: true }];
    answerOnce(emu, "GET", `${new URL(controllerUrl).pathname}casc-bundle-mgnt/casc-bundle-update-log`, { ...log, versions });
    const { result, warnings } = await warningsOf(() => getUpdateLog({ ...opts(), instanceUrl: controllerUrl }));
    // Fields this version has no name for are read, and left out of the answer.
    expect(result.versions).toEqual([received, { ...received!, version: "newer" }]);
    expect(result).toMatchObject({ updateLogStatus: log["update-log-status"], retentionPolicy: log["retention-policy"] });
    expect(warnings).toEqual([expect.stringMatching(skipped("getUpdateLog", "version", "odd", 1, "errors"))]);
  });
});

describe("the pre-validation, verdict by verdict", () => {
  it("preValidateBundles answers the verdicts it can read and warns once of the one it cannot", async () => {
    const answer = await oc.preValidateBundles(await zipBundleTree(SAMPLE_BUNDLES));
    const validations = answer.validations.map((v) => (v.bundle === "main/team-b" ? { ...v, result: { ...v.result, valid: "yes" } } : v));
    answerOnce(emu, "POST", "/cjoc/casc-bundle/pre-validate-bundle", { validations });
    const { result, warnings } = await warningsOf(() => preValidateBundles(SAMPLE_BUNDLES, opts()));
    expect(result.validations.map((v) => v.bundle).sort()).toEqual(["main/base", "main/team-a"]);
    expect(result.validations.every((v) => v.result.valid)).toBe(true);
    const position = validations.findIndex((v) => v.bundle === "main/team-b") + 1;
    expect(warnings).toEqual([expect.stringMatching(skipped("preValidateBundles", "bundle", "main/team-b", position, "result\\.valid"))]);
  });
});
