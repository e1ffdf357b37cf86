// Feature flags as code: the checkout team's application, a Staging environment beside the Production one every
// application starts with, a target group of beta testers, a boolean flag released to that group in Production and
// to half of the users in Staging, a string flag, and the team's developers as team members (checkout-flags.ts). It runs unchanged with the real CLI
// (`pulumi up`) against the feature-flag service or the emulator, and under `npm start`, which runs its life cycle
// against the emulator (with the real CLI when there is one, else with the engine stand-in).
import * as pulumi from "@pulumi/pulumi";
import { checkoutFlags } from "./checkout-flags";

const config = new pulumi.Config("flags");

const flags = checkoutFlags({
  stagingPercentage: config.getNumber("stagingPercentage") ?? 50,
  // Beta testers: anyone at example.com, or on the beta plan.
  betaEmail: config.get("betaEmail") ?? "@example\\.com$",
  betaPlans: config.getObject<string[]>("betaPlans") ?? ["beta", "preview"],
  developers: config.getObject<string[]>("developers") ?? ["dana@checkout.example", "lee@checkout.example"],
});

export const appId = flags.applicationId;
export const productionKey = flags.productionKey;
export const stagingKey = flags.stagingKey;
