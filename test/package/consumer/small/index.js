// @ts-check
// A setting resource, one that depends on it, an action resource on a controller and a function: enough to prove
// the provider shells and the host of the lowest @pulumi/pulumi of the range (index.ts, with every resource and
// function, runs with the newest). JavaScript, as a program of a project without TypeScript: the project that
// installs the lowest SDK installs nothing else (the newest project's tsc checks this file with checkJs).
const pulumi = require("@pulumi/pulumi");
const cloudbees = require("pulumi-cloudbees");

const config = new pulumi.Config("consumer");
const controller = "team-b/controller-b";

const availability = new cloudbees.BundleAvailability("team-b", { bundleId: "team-b", controllers: [controller] });
const assignment = new cloudbees.ControllerBundleAssignment("assign", { controllerPath: controller, bundleId: availability.bundleId });
const reload = new cloudbees.BundleReload("reload", { instanceUrl: config.require("controllerUrl") }, { dependsOn: [assignment] });

exports.outputs = {
  regex: availability.regex,
  assigned: pulumi.interpolate`${assignment.controllerPath} <- ${assignment.bundleId}`,
  reloaded: reload.reloaded,
  usedBy: assignment.bundleId.apply(async (id) => (await cloudbees.getBundle(id)).usedBy),
};
