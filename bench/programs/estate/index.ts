// One stack of the drift bench's estate (bench/drift-estate.ts): five resources on the dynamic providers, on an
// application named after the project (each stack folder has its own).
import * as pulumi from "@pulumi/pulumi";
import * as cloudbees from "pulumi-cloudbees";

const app = new cloudbees.Application("app", { name: pulumi.getProject() });
const staging = new cloudbees.Environment("staging", { applicationId: app.applicationId, name: "Staging" });
const newFlow = new cloudbees.Flag("newFlow", { applicationId: app.applicationId, name: "checkout.newFlow" });
new cloudbees.FlagConfiguration("newFlowStaging", {
  applicationId: app.applicationId,
  environment: staging.name,
  flag: newFlow.name,
  value: [{ option: true, percentage: 50 }],
});
new cloudbees.Flag("darkMode", { applicationId: app.applicationId, name: "ui.darkMode" });
