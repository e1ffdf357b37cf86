// Feature flags as code: the checkout team's application, a Staging environment beside the Production one every
// application starts with, a target group of beta testers, a boolean flag released to that group in Production and
// to half of the users in Staging, and a string flag. It runs unchanged with the real CLI (`pulumi up`) against the
// feature-flag service or the emulator, and under `npm start`, which plays the engine's part against the emulator.
import * as pulumi from "@pulumi/pulumi";
import * as cloudbees from "pulumi-cloudbees";

const config = new pulumi.Config("flags");
// The share of Staging users who get the new checkout flow.
const stagingPercentage = config.getNumber("stagingPercentage") ?? 50;

const app = new cloudbees.Application("checkout", { name: "checkout-flags", adoptExisting: true });
const applicationId = app.applicationId;

// Every application starts with a Production environment: declaring it takes it over without a write.
const production = new cloudbees.Environment("production", { applicationId, name: "Production" });
const staging = new cloudbees.Environment("staging", { applicationId, name: "Staging", description: "pre-production" });

// Beta testers: anyone at example.com, or on the beta plan.
const beta = new cloudbees.TargetGroup("beta-testers", {
  applicationId,
  name: "beta-testers",
  description: "employees and customers on the beta plan",
  operator: "or",
  conditions: [
    { property: "email", operator: "regex", operand: "@example\\.com$" },
    { property: "plan", operator: "in-array", operand: ["beta", "preview"] },
  ],
});

// Flag names carry the namespace the application's code registers them under (Rox.register("checkout", ...)).
const newFlow = new cloudbees.Flag("new-flow", { applicationId, name: "checkout.newFlow" });
const banner = new cloudbees.Flag("banner-color", { applicationId, name: "checkout.bannerColor", availableValues: ["blue", "green", "red"] });

// Production: the new flow for beta testers only (an if / else-if chain; `value` applies when no condition matches).
new cloudbees.FlagConfiguration("new-flow-production", {
  applicationId,
  environment: production.name,
  flag: newFlow.name,
  conditions: [{ group: { name: beta.name }, value: true }],
  value: false,
  labels: ["checkout"],
});

// Staging: a percentage of all users.
new cloudbees.FlagConfiguration("new-flow-staging", {
  applicationId,
  environment: staging.name,
  flag: newFlow.name,
  value: [{ option: true, percentage: stagingPercentage }],
  labels: ["checkout"],
});

new cloudbees.FlagConfiguration("banner-color-production", {
  applicationId,
  environment: production.name,
  flag: banner.name,
  value: "blue",
});

export const appId = applicationId;
// The SDK keys an application's code is set up with (Rox.setup(key)).
export const productionKey = production.key;
export const stagingKey = staging.key;
