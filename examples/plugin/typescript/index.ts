// Feature flags and CasC bundles as code, in TypeScript through the cloudbees provider plugin (see ../yaml).
import * as pulumi from "@pulumi/pulumi";
import * as cloudbees from "@pulumi-cloudbees/cloudbees";

const config = new pulumi.Config();
const rolloutPercentage = config.getNumber("rolloutPercentage") ?? 50;

const checkout = new cloudbees.Application("checkout", { name: "checkout-service", adoptExisting: true });
const staging = new cloudbees.Environment("staging", { applicationId: checkout.applicationId, name: "Staging" });
const newFlow = new cloudbees.Flag("newFlow", { applicationId: checkout.applicationId, name: "checkout.newFlow" });
new cloudbees.FlagConfiguration("newFlowStaging", {
  applicationId: checkout.applicationId,
  environment: staging.name,
  flag: newFlow.name,
  value: [{ option: true, percentage: rolloutPercentage }],
});

const teamB = new cloudbees.BundleAvailability("teamB", { bundleId: "team-b", controllers: ["team-b/controller-b"] });
const controllerB = new cloudbees.ControllerBundleAssignment("controllerB", { controllerPath: "team-b/controller-b", bundleId: teamB.bundleId });
const bundleToken = new cloudbees.ControllerBundleToken("bundleToken", { controllerPath: controllerB.controllerPath });

const bundles = cloudbees.getBundlesOutput();

export const applicationId = checkout.applicationId;
export const stagingKey = staging.key;
export const firstBundle = bundles.bundles[0].name;
export const linkFile = bundleToken.linkFileContent;
