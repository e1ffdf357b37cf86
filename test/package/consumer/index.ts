// A consumer's Pulumi program that uses every resource and every function of pulumi-cloudbees. The package test
// (test/package/consumer.test.ts) installs the packed package into a fresh project with this folder, typechecks it
// and runs its life cycle with lifecycle.ts.
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as cloudbees from "pulumi-cloudbees";

const config = new pulumi.Config("consumer");
const bundlesDir = config.require("bundlesDir");
const controller = "team-b/controller-b";
const controllerUrl = config.require("controllerUrl");
const instance = { instanceUrl: controllerUrl };

// Functions that only read: they run in preview too.
const preValidation = cloudbees.preValidateBundles(bundlesDir, { bundles: ["team-b"], quiet: true });
const effective = cloudbees.getEffectiveBundle(bundlesDir, "team-b");
const verdict = cloudbees.validateBundle(path.join(bundlesDir, "team-a"), instance);
const uploaded = cloudbees.validateUploadedBundle("team-a");
const schema = cloudbees.downloadSchema("bundle-descriptor.json");
const teamA = cloudbees.getBundle("team-a");
const bundleNames = cloudbees.getBundles().then((list) => list.map((b) => b.name).sort());
const controllers = cloudbees.getControllers();
const rawLog = cloudbees.getRawBundleValidationLog({ bundle: "team-a" });
const effectiveLog = cloudbees.getEffectiveBundleValidationLog();
const ocExport = cloudbees.exportConfiguration();
const ocZip = cloudbees.exportConfigurationZip();
const updateLog = cloudbees.getUpdateLog();

// The resources.
const app = new cloudbees.Application("app", { name: "consumer-app" });
const visibility = new cloudbees.GlobalAvailabilityPattern("visibility", { visibility: false });
const validation = new cloudbees.BundleValidation("validation", { bundleTreePath: bundlesDir, bundles: ["team-b"] });
const checkout = new cloudbees.BundleCheckout("checkout", { triggers: [validation.contentHash] }, { dependsOn: [validation] });
const availability = new cloudbees.BundleAvailability(
  "team-b",
  { bundleId: "team-b", controllers: [controller] },
  { dependsOn: [checkout, visibility] },
);
const assignment = new cloudbees.ControllerBundleAssignment("assign", { controllerPath: controller, bundleId: availability.bundleId });
const defaultBundle = new cloudbees.DefaultBundle("default", { bundleId: availability.bundleId });
const token = new cloudbees.ControllerBundleToken("token", { controllerPath: assignment.controllerPath });
const reload = new cloudbees.BundleReload("reload", { instanceUrl: controllerUrl, triggers: [validation.contentHash] }, { dependsOn: [assignment] });
const items = new cloudbees.Items(
  "items",
  { instanceUrl: controllerUrl, yaml: 'items:\n  - kind: "folder"\n    name: "consumer"\n' },
  { dependsOn: [reload] },
);

// Functions that read what the resources made: they run once the values are known (not in preview).
const application = app.applicationId.apply(async (id) => {
  const one = await cloudbees.getApplication(id);
  const all = await cloudbees.getApplications();
  return { name: one.name, listed: all.some((a) => a.id === id) };
});
const applied = reload.version.apply(async () => {
  const link = await cloudbees.getControllerBundleLink(controller);
  const update = await cloudbees.checkBundleUpdate({ ...instance, quiet: true });
  const bundle = await cloudbees.exportEffectiveBundle(instance);
  const descriptor = await cloudbees.downloadEffectiveBundleFile("bundle.yaml", instance);
  return {
    linkUrl: link.url,
    updateAvailable: update.updateAvailable,
    currentVersion: update.versions.currentBundle.version,
    files: Object.keys(bundle.files),
    descriptorHasId: descriptor.includes("team-b"),
  };
});
const exportedFolder = items.basePath.apply(() => cloudbees.exportItem("job/consumer", instance));

export const outputs = {
  preValidated: preValidation.then((r) => r.validations.map((v) => ({ bundle: v.bundle, valid: v.result.valid }))),
  effectiveFiles: effective.then((e) => Object.keys(e.files)),
  verdictValid: verdict.then((v) => v.valid && Array.isArray(v.validationMessages)),
  uploadedValid: uploaded.then((v) => v.valid),
  schemaKeys: schema.then((s) => Object.keys(s).length > 0),
  teamARegex: teamA.then((b) => b.regex),
  bundleNames,
  controllerPaths: controllers.then((list) => list.map((c) => c.controllerPath).sort()),
  rawLogBundles: rawLog.then((l) => l.validationLog.map((e) => e.bundleId)),
  effectiveLogControllers: effectiveLog.then((l) => l.validationLog.map((e) => e.controller).sort()),
  ocExportIsText: ocExport.then((t) => typeof t === "string"),
  ocZipBytes: ocZip.then((z) => z.length > 0),
  updateLogStatus: updateLog.then((l) => l.updateLogStatus),
  application,
  applied,
  exportedFolder: exportedFolder.apply((yaml) => yaml.includes("consumer")),
  contentHash: validation.contentHash,
  checkedOut: checkout.bundles,
  assigned: pulumi.interpolate`${assignment.controllerPath} <- ${assignment.bundleId}`,
  defaultBundleId: defaultBundle.bundleId,
  reloaded: reload.reloaded,
  tokenUrl: token.url,
  linkFile: token.linkFileContent,
};
