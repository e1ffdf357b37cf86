// The example program of the top-level Pulumi.yaml: a platform team declares its feature-flag application and who
// may use which CasC bundle (platform-access.ts). It runs unchanged with the real CLI (`pulumi up`) against a real
// operations center or the emulator, and under `npm start`, which runs its life cycle against the embedded emulator
// (with the real CLI when there is one, else with the engine stand-in of pulumi-cloudbees/testing).
import * as pulumi from "@pulumi/pulumi";
import { platformAccess } from "./platform-access";

const config = new pulumi.Config("example");

const access = platformAccess({
  teamBControllers: config.getObject<string[]>("teamBControllers") ?? ["team-b/controller-b"],
  baseRegex: config.get("baseRegex") ?? "sandbox",
  // Adopted if an application of this name already exists (example:adoptExisting false creates it whatever the
  // account holds, as the fault soak does).
  adoptExisting: config.getBoolean("adoptExisting") ?? true,
});

export const applicationId = access.applicationId;
export const teamBAvailableFor = access.teamBAvailableFor;
export const teamBUsedBy = access.teamBUsedBy;
export const assigned = access.assigned;
export const defaultBundleId = access.defaultBundleId;
