// A unit test of index.ts with `pulumi.runtime.setMocks`, the way Pulumi users test programs: no emulator, no
// provider host, no request; the functions answer from the mocks' `call` (token `cloudbees:index:<function>`),
// the resources from `newResource`. (With node:assert, so the consumer project needs no test framework; the same
// program's life cycle against the emulator is lifecycle.ts.) Prints one JSON line for the package test.
import * as assert from "node:assert/strict";
import * as pulumi from "@pulumi/pulumi";

const BUNDLE = { url: "https://oc.example.com/cjoc/config-bundle/x", regex: "", availabilityPatternFromYaml: false, usedBy: [], availableFor: [] };
const VERDICT = { valid: true, structureValidations: [], controllerValidations: [] };

/** What each function answers, by token. */
const answers: Record<string, (inputs: Record<string, any>) => unknown> = {
  "cloudbees:index:getBundles": () => [{ ...BUNDLE, name: "team-z" }, { ...BUNDLE, name: "team-y" }],
  "cloudbees:index:getBundle": (inputs) => ({ ...BUNDLE, name: inputs.name, regex: "team-a/.*" }),
  "cloudbees:index:getControllers": () => [{ controllerPath: "mocked/controller", bundleId: "team-z", availableBundles: ["team-z"] }],
  "cloudbees:index:getUpdateLog": () => ({ updateLogStatus: "MOCKED", retentionPolicy: 1, versions: [] }),
  "cloudbees:index:preValidateBundles": () => ({ validations: [{ bundle: "main/team-b", result: VERDICT }] }),
  "cloudbees:index:getEffectiveBundle": (inputs) => ({ bundle: inputs.bundle, files: { "team-b/bundle.yaml": "id: team-b\n" }, hash: "00" }),
  "cloudbees:index:validateBundle": () => ({ valid: true, validationMessages: [] }),
  "cloudbees:index:validateUploadedBundle": () => VERDICT,
  "cloudbees:index:downloadSchema": () => ({ type: "object" }),
  "cloudbees:index:getRawBundleValidationLog": () => ({ validationLog: [{ bundleId: "team-a", records: [] }] }),
  "cloudbees:index:getEffectiveBundleValidationLog": () => ({ validationLog: [] }),
  "cloudbees:index:exportConfiguration": () => "jenkins: {}\n",
  "cloudbees:index:exportConfigurationZip": () => Buffer.from("PK\x05\x06"),
  "cloudbees:index:getApplication": (inputs) => ({ id: inputs.applicationId, name: "consumer-app" }),
  "cloudbees:index:getApplications": () => [{ id: "app-1", name: "consumer-app" }],
  "cloudbees:index:getControllerBundleLink": (inputs) => ({ controllerPath: inputs.controllerPath, url: "https://oc/link", token: "t" }),
  "cloudbees:index:checkBundleUpdate": () => ({ updateAvailable: false, versions: { currentBundle: { version: "1", validations: [] } }, items: { deletions: [] } }),
  "cloudbees:index:exportEffectiveBundle": () => ({ files: { "bundle.yaml": "id: team-b\n" }, hash: "01" }),
  "cloudbees:index:downloadEffectiveBundleFile": () => "id: team-b\n",
  "cloudbees:index:exportItem": () => "items:\n  - name: consumer\n",
};
/** Outputs a create would give, by resource type (the inputs come back too). */
const created: Record<string, Record<string, unknown>> = {
  "pulumi-nodejs:dynamic/cloudbees:Application": { applicationId: "app-1" },
  "pulumi-nodejs:dynamic/cloudbees:BundleValidation": { contentHash: "abc" },
  "pulumi-nodejs:dynamic/cloudbees:BundleReload": { version: "2", reloaded: true },
  "pulumi-nodejs:dynamic/cloudbees:Items": { basePath: "" },
};

const tokens: string[] = [];
const registered: string[] = [];

function valueOf<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply((v) => resolve(v)));
}

async function main(): Promise<void> {
  pulumi.runtime.setAllConfig({ "consumer:bundlesDir": "bundles", "consumer:controllerUrl": "https://ci.example.com/team-b/controller-b/" });
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.push(args.type);
        return { id: `${args.name}-id`, state: { ...args.inputs, ...created[args.type] } };
      },
      call: (args) => {
        tokens.push(args.token);
        const answer = answers[args.token];
        if (!answer) throw new Error(`no mock for ${args.token}`);
        return answer(args.inputs) as pulumi.runtime.MockCallResult;
      },
    },
    "consumer",
    "unit",
    false,
  );
  // The program runs when it is imported, after setMocks.
  const { outputs } = await import("./index");

  assert.deepEqual(await outputs.bundleNames, ["team-y", "team-z"]);
  assert.deepEqual(await outputs.controllerPaths, ["mocked/controller"]);
  assert.equal(await outputs.updateLogStatus, "MOCKED");
  assert.equal(await outputs.teamARegex, "team-a/.*");
  assert.deepEqual(await valueOf(outputs.application), { name: "consumer-app", listed: true });
  const applied = await valueOf(outputs.applied);
  assert.equal(applied.linkUrl, "https://oc/link");
  assert.ok(registered.includes("pulumi-nodejs:dynamic/cloudbees:ControllerBundleAssignment"), registered.join(", "));
  console.log(JSON.stringify({ tokens: [...new Set(tokens)].sort(), registered: registered.length }));
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.stack ?? e.message : e);
  process.exit(1);
});
