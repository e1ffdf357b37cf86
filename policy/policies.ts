/** The pack's policies, in the order a report lists them (docs/policy.md describes each). */
import type { Policies } from "@pulumi/policy";
import { providerTokenSecret, teamAdmins } from "./access";
import { assignmentFallback, availabilityNarrow, bundleValidated } from "./bundles";
import { controllerIgnoreSecurity } from "./controllers";
import { flagDescription, flagOnEverywhere, protectedEnvironments, targetGroupsKnown } from "./flags";

export const policies: Policies = [
  bundleValidated,
  availabilityNarrow,
  assignmentFallback,
  controllerIgnoreSecurity,
  protectedEnvironments,
  targetGroupsKnown,
  teamAdmins,
  providerTokenSecret,
  flagDescription,
  flagOnEverywhere,
];
