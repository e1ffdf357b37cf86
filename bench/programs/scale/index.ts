// The bench's scale program (bench/scale.ts runs it): scale:count resources of a realistic mix through our provider
// (scale:provider = ours) or through a minimal dynamic provider sending the same writes (scale:provider = minimal).
import * as pulumi from "@pulumi/pulumi";
import * as cloudbees from "pulumi-cloudbees";
import { configurationOf, controller, controllersOf, environmentOf, flagName, listBundle, regexBundle, regexOf, unitsOf } from "./layout";
import { minimal } from "./minimal";

const config = new pulumi.Config("scale");
const count = config.requireNumber("count");
const provider = config.get("provider") ?? "ours";
/** Names the application, so that runs against one emulator do not meet. */
const tag = config.get("tag") ?? "scale";
const units = unitsOf(count);

if (provider === "ours") {
  const app = new cloudbees.Application("app", { name: `${tag}-app` });
  const applicationId = app.applicationId;
  const environments = {
    Production: new cloudbees.Environment("env-Production", { applicationId, name: "Production" }),
    Staging: new cloudbees.Environment("env-Staging", { applicationId, name: "Staging" }),
  };
  for (let i = 0; i < units; i++) {
    new cloudbees.BundleAvailability(`regex-${i}`, { bundleId: regexBundle(i), regex: regexOf(i) });
    const listed = new cloudbees.BundleAvailability(`list-${i}`, { bundleId: listBundle(i), controllers: controllersOf(i, units) });
    new cloudbees.ControllerBundleAssignment(`assign-${i}`, { controllerPath: controller(i), bundleId: listBundle(i) }, { dependsOn: [listed] });
    const flag = new cloudbees.Flag(`flag-${i}`, { applicationId, name: flagName(i) });
    new cloudbees.FlagConfiguration(`conf-${i}`, { applicationId, environment: environments[environmentOf(i) as "Production"].name, flag: flag.name, ...configurationOf(i) });
  }
} else if (provider === "minimal") {
  minimal({ tag, units });
} else {
  throw new Error(`scale:provider must be ours or minimal, got ${provider}`);
}
