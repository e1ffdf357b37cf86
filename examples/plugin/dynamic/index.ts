// Feature flags and CasC bundles as code, on the package's dynamic providers (see ../yaml for the same in YAML).
import * as pulumi from "@pulumi/pulumi";
import * as cloudbees from "pulumi-cloudbees";

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

export const applicationId = checkout.applicationId;
export const stagingKey = staging.key;
export const firstBundle = cloudbees.getBundles().then((bundles) => bundles[0]!.name);
export const linkFile = bundleToken.linkFileContent;
