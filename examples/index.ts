// The example program of the top-level Pulumi.yaml: a platform team declares its feature-flag application and who
// may use which CasC bundle. It runs unchanged with the real CLI (`pulumi up`) against a real operations center or
// the emulator, and under `npm start`, which plays the engine's part against the embedded emulator.
import * as pulumi from "@pulumi/pulumi";
import * as cloudbees from "pulumi-cloudbees";

const config = new pulumi.Config("example");
const teamBControllers = config.getObject<string[]>("teamBControllers") ?? ["team-b/controller-b"];

// The feature-flag application of the checkout team; adopted if an application of this name already exists
// (example:adoptExisting false creates it whatever the account holds, as the fault soak does).
const adoptExisting = config.getBoolean("adoptExisting") ?? true;
const checkout = new cloudbees.Application("checkout", { name: "checkout-service", adoptExisting });

// With visibility false a bundle without a pattern is available to no controller: the secure setting, declared here
// so that a change by hand shows as drift.
const visibility = new cloudbees.GlobalAvailabilityPattern("bundle-visibility", { visibility: false });

// team-a's bundle.yaml already says which controllers may use it; team-b and base get their availability here.
const teamB = new cloudbees.BundleAvailability("team-b", { bundleId: "team-b", controllers: teamBControllers }, { dependsOn: [visibility] });
const base = new cloudbees.BundleAvailability("base", { bundleId: "base", regex: "sandbox" }, { dependsOn: [visibility] });

// Assignments need the bundle to be available first: their bundle ids come from the availability resources.
const assignments = teamBControllers.map(
  (controllerPath) =>
    new cloudbees.ControllerBundleAssignment(`assign-${controllerPath.replace(/\//g, "-")}`, {
      controllerPath,
      bundleId: teamB.bundleId,
    }),
);
const sandbox = new cloudbees.ControllerBundleAssignment("assign-sandbox", { controllerPath: "sandbox", bundleId: base.bundleId });

// New controllers matching base's pattern get it pre-selected (it assigns nothing by itself).
const defaultBundle = new cloudbees.DefaultBundle("default-bundle", { bundleId: base.bundleId });

export const applicationId = checkout.applicationId;
// Who may use team-b's bundle, and who does, change with other resources and people: read them (getBundle), once the
// assignments are made; no resource keeps them in its state.
const teamBNow = pulumi
  .all([teamB.bundleId, ...assignments.map((a) => a.bundleId)])
  .apply(([bundleId]) => cloudbees.getBundle(bundleId));
export const teamBAvailableFor = teamBNow.availableFor;
export const teamBUsedBy = teamBNow.usedBy;
export const assigned = pulumi.all([...assignments, sandbox].map((a) => pulumi.interpolate`${a.controllerPath} <- ${a.bundleId}`));
export const defaultBundleId = defaultBundle.bundleId;
