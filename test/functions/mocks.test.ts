import * as pulumi from "@pulumi/pulumi";
import * as cloudbees from "../../sdk";
import { isolateEnvironment, valueOf } from "./helpers";

// Under `pulumi.runtime.setMocks` (the way Pulumi users unit-test programs) every function answers from the mocks'
// `call`, with its token and its arguments, and sends nothing: no setting is configured in this file (and the
// environment is blanked), so a function that tried the network would fail on the missing settings instead.

isolateEnvironment();

const BUNDLE: cloudbees.BundleSummary = {
  name: "team-a",
  url: "https://oc.example.com/config-bundle/team-a",
  regex: "team-a/.*",
  availabilityPatternFromYaml: false,
  usedBy: ["team-a/controller-a"],
  availableFor: ["team-a/controller-a", "team-a/controller-b"],
};
const VALIDATION = { valid: true, structureValidations: [], controllerValidations: [{ controller: "team-a/controller-a" }] };
const LOG_RECORD = { version: "3", errors: 0, warnings: 1, folder: "/v3", date: "2026-01-01" };

/** What each token answers; a token not listed answers nothing (undefined), which no result fits. */
const answers: Record<string, (inputs: Record<string, unknown>) => unknown> = {
  "cloudbees:index:getBundles": () => [BUNDLE],
  "cloudbees:index:getBundle": (inputs) => ({ ...BUNDLE, name: inputs.name, extra: "dropped" }),
  "cloudbees:index:getControllers": () => [{ controllerPath: "team-a/controller-a", bundleId: "team-a", availableBundles: ["team-a"] }],
  "cloudbees:index:getApplications": () => [{ id: "5e95", name: "web" }],
  "cloudbees:index:getApplication": (inputs) => ({ id: inputs.applicationId, name: "web" }),
  "cloudbees:index:getRawBundleValidationLog": () => ({ validationLog: [{ bundleId: "team-a", records: [LOG_RECORD] }] }),
  "cloudbees:index:getEffectiveBundleValidationLog": () => ({
    validationLog: [{ controller: "team-a/controller-a", records: [{ ...LOG_RECORD, bundle: "team-a" }] }],
  }),
  "cloudbees:index:getControllerBundleLink": (inputs) => ({ controllerPath: inputs.controllerPath, url: "https://oc/b", token: "t0k3n" }),
  "cloudbees:index:validateUploadedBundle": () => VALIDATION,
  "cloudbees:index:validateBundle": () => ({ valid: false, validationMessages: ["ERROR - [X] - bad"] }),
  "cloudbees:index:preValidateBundles": () => ({ validations: [{ bundle: "main/team-a", result: VALIDATION }] }),
  "cloudbees:index:getEffectiveBundle": (inputs) => ({ bundle: inputs.bundle, files: { "team-a/jcasc.yaml": "x: 1\n" }, hash: "ab" }),
  "cloudbees:index:getUpdateLog": () => ({ updateLogStatus: "ENABLED", retentionPolicy: 10, versions: [] }),
  "cloudbees:index:checkBundleUpdate": () => ({
    updateAvailable: false,
    versions: { currentBundle: { version: "3", validations: [] } },
    items: { deletions: [] },
  }),
  "cloudbees:index:exportConfiguration": () => "jenkins: {}\n",
  "cloudbees:index:exportConfigurationZip": () => new Uint8Array([80, 75, 5, 6]),
  "cloudbees:index:exportEffectiveBundle": () => ({ files: { "jcasc.yaml": "a: 1\n" }, hash: "cd" }),
  "cloudbees:index:downloadEffectiveBundleFile": (inputs) => `file ${inputs.fileName}`,
  "cloudbees:index:exportItem": (inputs) => `item ${inputs.itemUri}`,
  "cloudbees:index:downloadSchema": () => ({ $schema: "http://json-schema.org/draft-07/schema#" }),
  "cloudbees:index:getEnvironments": () => [{ name: "Production", key: "6b04815000bd7487fdfec187" }],
  "cloudbees:index:getFlags": () => [{ name: "shop.newFlow", enabled: true, value: false }],
  "cloudbees:index:getFlag": (inputs) => ({ name: inputs.flag, value: "blue" }),
  "cloudbees:index:getExperiments": (inputs) => [{ flag: "shop.newFlow", value: [{ option: true, percentage: 50 }], name: inputs.environment }],
  "cloudbees:index:getTargetGroups": () => [{ name: "beta", conditions: [{ property: "plan", operator: "in-array", operand: ["beta"] }] }],
  "cloudbees:index:getAuditLogs": () => [{ id: "a1", creationDate: "2026-11-01T00:00:00.000Z", action: "turned targeting on" }],
  "cloudbees:index:getTeamMembers": () => [{ email: "alice@example.com", name: "Alice", teamAdmin: false, applications: {} }],
  "cloudbees:index:getTeamMember": (inputs) => ({ email: inputs.email, teamAdmin: true }),
};

const calls: pulumi.runtime.MockCallArgs[] = [];
let override: ((args: pulumi.runtime.MockCallArgs) => unknown) | undefined;

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }),
      call: (args) => {
        calls.push(args);
        if (override) return override(args) as pulumi.runtime.MockCallResult;
        return answers[args.token]?.(args.inputs) as pulumi.runtime.MockCallResult;
      },
    },
    "mocks-project",
    "dev",
    false,
  );
});
beforeEach(() => {
  calls.length = 0;
  override = undefined;
});

it("getBundles, getBundle and getControllers return the mocked values, asked with their tokens and arguments", async () => {
  await expect(cloudbees.getBundles()).resolves.toEqual([BUNDLE]);
  // Keys the result type does not have are dropped, as from a server's answer.
  await expect(cloudbees.getBundle("team-b")).resolves.toEqual({ ...BUNDLE, name: "team-b" });
  await expect(cloudbees.getControllers({ connection: "prod" })).resolves.toEqual([
    { controllerPath: "team-a/controller-a", bundleId: "team-a", availableBundles: ["team-a"] },
  ]);
  expect(calls.map((c) => [c.token, c.inputs])).toEqual([
    ["cloudbees:index:getBundles", {}],
    ["cloudbees:index:getBundle", { name: "team-b" }],
    ["cloudbees:index:getControllers", { connection: "prod" }],
  ]);
});

it("the settings are never given to the mocks; connection, instance and the function's own arguments are", async () => {
  await cloudbees.getUpdateLog({ instance: "sandbox", settings: { apiToken: "secret-token" } });
  await cloudbees.getUpdateLog({ instanceUrl: "https://ci.example.com/team-a/" });
  await cloudbees.downloadEffectiveBundleFile("jcasc.yaml", { instanceUrl: "https://ci/a/" });
  expect(calls.map((c) => c.inputs)).toEqual([
    { instance: "sandbox" },
    { instanceUrl: "https://ci.example.com/team-a/" },
    { fileName: "jcasc.yaml", instanceUrl: "https://ci/a/" },
  ]);
  expect(JSON.stringify(calls)).not.toContain("secret-token");
});

it("every function has its token and its typed result", async () => {
  await expect(cloudbees.getApplications()).resolves.toEqual([{ id: "5e95", name: "web" }]);
  await expect(cloudbees.getApplication("5e95")).resolves.toEqual({ id: "5e95", name: "web" });
  await expect(cloudbees.getRawBundleValidationLog({ bundle: "team-a" })).resolves.toEqual({ validationLog: [{ bundleId: "team-a", records: [LOG_RECORD] }] });
  expect((await cloudbees.getEffectiveBundleValidationLog()).validationLog[0]!.records[0]!.bundle).toBe("team-a");
  await expect(cloudbees.validateUploadedBundle("team-a", { quiet: true })).resolves.toEqual(VALIDATION);
  await expect(cloudbees.validateBundle(Buffer.from("PK\x05\x06"))).resolves.toEqual({ valid: false, validationMessages: ["ERROR - [X] - bad"] });
  await expect(cloudbees.preValidateBundles("bundles/")).resolves.toEqual({ validations: [{ bundle: "main/team-a", result: VALIDATION }] });
  await expect(cloudbees.getEffectiveBundle("bundles/", "team-a")).resolves.toEqual({ bundle: "team-a", files: { "team-a/jcasc.yaml": "x: 1\n" }, hash: "ab" });
  expect((await cloudbees.checkBundleUpdate()).updateAvailable).toBe(false);
  await expect(cloudbees.exportConfiguration()).resolves.toBe("jenkins: {}\n");
  const zip = await cloudbees.exportConfigurationZip();
  expect(Buffer.isBuffer(zip) && zip.equals(Buffer.from([80, 75, 5, 6]))).toBe(true);
  await expect(cloudbees.exportEffectiveBundle()).resolves.toEqual({ files: { "jcasc.yaml": "a: 1\n" }, hash: "cd" });
  await expect(cloudbees.exportItem("job/a", { section: "items.yaml" })).resolves.toBe("item job/a");
  await expect(cloudbees.downloadSchema("items.json")).resolves.toEqual({ $schema: "http://json-schema.org/draft-07/schema#" });
  expect(calls.map((c) => c.token)).toEqual([
    "getApplications", "getApplication", "getRawBundleValidationLog", "getEffectiveBundleValidationLog", "validateUploadedBundle",
    "validateBundle", "preValidateBundles", "getEffectiveBundle", "checkBundleUpdate", "exportConfiguration",
    "exportConfigurationZip", "exportEffectiveBundle", "exportItem", "downloadSchema",
  ].map((name) => `cloudbees:index:${name}`));
  expect(calls[6]!.inputs).toEqual({ tree: "bundles/" });
});

it("the feature-flag functions answer from the mocks, with their tokens and arguments", async () => {
  calls.length = 0;
  await expect(cloudbees.getEnvironments("app1")).resolves.toEqual([{ name: "Production", key: "6b04815000bd7487fdfec187" }]);
  await expect(cloudbees.getFlags("app1", "Production")).resolves.toEqual([{ name: "shop.newFlow", enabled: true, value: false }]);
  await expect(cloudbees.getFlag("app1", "Production", "shop.banner")).resolves.toEqual({ name: "shop.banner", value: "blue" });
  await expect(cloudbees.getExperiments("app1", "Staging")).resolves.toEqual([{ flag: "shop.newFlow", value: [{ option: true, percentage: 50 }], name: "Staging" }]);
  await expect(cloudbees.getTargetGroups("app1")).resolves.toEqual([{ name: "beta", conditions: [{ property: "plan", operator: "in-array", operand: ["beta"] }] }]);
  await expect(cloudbees.getAuditLogs("app1", "Production", new Date("2026-11-01T00:00:00Z"), { connection: "prod" })).resolves.toEqual([
    { id: "a1", creationDate: "2026-11-01T00:00:00.000Z", action: "turned targeting on" },
  ]);
  expect(calls.map((c) => [c.token, c.inputs])).toEqual([
    ["cloudbees:index:getEnvironments", { applicationId: "app1" }],
    ["cloudbees:index:getFlags", { applicationId: "app1", environment: "Production" }],
    ["cloudbees:index:getFlag", { applicationId: "app1", environment: "Production", flag: "shop.banner" }],
    ["cloudbees:index:getExperiments", { applicationId: "app1", environment: "Staging" }],
    ["cloudbees:index:getTargetGroups", { applicationId: "app1" }],
    ["cloudbees:index:getAuditLogs", { applicationId: "app1", environment: "Production", startDate: "2026-11-01T00:00:00.000Z", connection: "prod" }],
  ]);
  // A mocked answer of the wrong shape names the function, the token and the field.
  override = () => [{ name: "Production" }];
  await expect(cloudbees.getEnvironments("app1")).rejects.toThrow(/getEnvironments.*cloudbees:index:getEnvironments.*\[0\]\.key/);
  override = undefined;
});

it("getControllerBundleLink makes the mocked token secret, or reveals it when asked", async () => {
  const link = await cloudbees.getControllerBundleLink("team-a/controller-a");
  expect(link.url).toBe("https://oc/b");
  expect(await pulumi.isSecret(link.token)).toBe(true);
  expect(await valueOf(link.linkFileContent)).toBe("https://oc/b\nt0k3n");
  const revealed = await cloudbees.getControllerBundleLink("team-a/controller-a", { reveal: true });
  expect(revealed).toBeInstanceOf(cloudbees.RevealedControllerBundleLink);
  expect(revealed.token).toBe("t0k3n");
});

it("a mocked value that does not fit the result names the function, the token and the field", async () => {
  override = () => [{ ...BUNDLE, usedBy: "team-a/controller-a" }];
  const error = await cloudbees.getBundles().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(cloudbees.UnexpectedResponseError);
  expect((error as cloudbees.UnexpectedResponseError).field).toBe("[0].usedBy");
  expect((error as Error).message).toMatch(
    /^getBundles\(\): the mocks' call for cloudbees:index:getBundles returned a value that is not a getBundles result: \[0\]\.usedBy: .*expected array/,
  );

  override = () => ({});
  await expect(cloudbees.getBundle("team-a")).rejects.toThrow(/^getBundle\(name: "team-a"\): the mocks' call for cloudbees:index:getBundle returned .*: name: /);
});

it("an error thrown by the mocks is the function's error, naming the call", async () => {
  override = () => {
    throw new Error("no such bundle in this test");
  };
  await expect(cloudbees.getBundle("team-z")).rejects.toThrow('getBundle(name: "team-z"): no such bundle in this test');
});

it("a bad argument fails under mocks as in a program, naming the input, before the mocks are asked", async () => {
  // Each case: the call, and the input its InvalidInputError names. None reaches the mocks' call.
  const cases: Array<[() => Promise<unknown>, string]> = [
    [() => cloudbees.getBundle(""), "name"],
    [() => cloudbees.getControllerBundleLink("team-a/../controller"), "controllerPath"],
    [() => cloudbees.getControllerBundleLink("team-a/controller-a", { reveal: "yes" as unknown as false }), "reveal"],
    [() => cloudbees.validateUploadedBundle("team-a", { quiet: 1 as unknown as boolean }), "quiet"],
    [() => cloudbees.getRawBundleValidationLog({ controller: "true" as unknown as boolean }), "controller"],
    [() => cloudbees.downloadSchema("nope.json" as cloudbees.SchemaFile), "name"],
    [() => cloudbees.exportItem("job/a", { section: "jobs.yaml" as cloudbees.SectionFile }), "section"],
    [() => cloudbees.downloadEffectiveBundleFile("  "), "fileName"],
    [() => cloudbees.exportEffectiveBundle({ includeZip: "yes" as unknown as boolean }), "includeZip"],
    [() => cloudbees.validateBundle(42 as unknown as string), "bundle"],
    [() => cloudbees.preValidateBundles(Buffer.from("PK\x05\x06"), { branch: "main" }), "branch"],
    [() => cloudbees.preValidateBundles("bundles/", { bundles: [] }), "bundles"],
    [() => cloudbees.getEffectiveBundle("bundles/", "team-a", { includeZip: "yes" as unknown as boolean }), "includeZip"],
    [() => cloudbees.getEffectiveBundle(Buffer.alloc(0), "team-a"), "tree"],
    [() => cloudbees.getApplication("a/b"), "applicationId"],
    [() => cloudbees.getFlag("app1", "Production", "a\nb"), "flag"],
    [() => cloudbees.getAuditLogs("app1", "Production", "yesterday"), "startDate"],
    // The options every function takes.
    [() => cloudbees.getUpdateLog({ instance: "sandbox", instanceUrl: "https://ci.example.com/a/" }), "instance"],
    [() => cloudbees.getControllers({ connection: "" }), "connection"],
    [() => cloudbees.getBundles({ settings: { apiTokn: "x" } as cloudbees.FunctionOptions["settings"] }), "settings"],
  ];
  for (const [call, input] of cases) {
    const error = await call().then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(cloudbees.InvalidInputError);
    expect([(error as cloudbees.InvalidInputError).input, (error as Error).message]).toEqual([input, expect.stringContaining(`invalid ${input}: `)]);
  }
  expect(calls).toEqual([]);
});

it("includeZip reaches the mocks, which answer the zip", async () => {
  override = (args) => ({ bundle: "team-a", files: {}, hash: "ab", zip: new Uint8Array([80, 75, 5, 6]) });
  const effective = await cloudbees.getEffectiveBundle("bundles/", "team-a", { includeZip: true });
  expect(Buffer.isBuffer(effective.zip) && effective.zip.equals(Buffer.from([80, 75, 5, 6]))).toBe(true);
  override = () => ({ files: {}, hash: "cd", zip: new Uint8Array([80, 75, 5, 6]) });
  expect((await cloudbees.exportEffectiveBundle({ includeZip: true })).zip).toHaveLength(4);
  expect(calls.map((c) => c.inputs)).toEqual([{ tree: "bundles/", bundle: "team-a", includeZip: true }, { includeZip: true }]);
});
