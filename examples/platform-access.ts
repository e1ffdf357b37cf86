// A platform team's access rules, as a function: examples/index.ts declares them once with the stack's config; a
// program may declare them on several operations centers (`connection`), each under its own names (`prefix`).
import * as pulumi from "@pulumi/pulumi";
import * as cloudbees from "pulumi-cloudbees";

export interface PlatformAccessArgs {
  /** The controllers that may use team-b's bundle, each assigned it. */
  teamBControllers: string[];
  /** The controllers that may use base's bundle (the sandbox is assigned it). */
  baseRegex: string;
  /** Adopt the checkout application if one of its name exists (false creates it whatever the account holds). */
  adoptExisting: boolean;
  /** The named connection (`cloudbees:connections.<name>`) to declare them on; the default one when absent. */
  connection?: string;
  /** Put before every resource name, so that one program can declare the set more than once. */
  prefix?: string;
}

export function platformAccess(args: PlatformAccessArgs) {
  const { connection } = args;
  const name = (n: string) => `${args.prefix ?? ""}${n}`;
  // The feature-flag application of the checkout team.
  const checkout = new cloudbees.Application(name("checkout"), { connection, name: "checkout-service", adoptExisting: args.adoptExisting });

  // With visibility false a bundle without a pattern is available to no controller: the secure setting, declared here
  // so that a change by hand shows as drift.
  const visibility = new cloudbees.GlobalAvailabilityPattern(name("bundle-visibility"), { connection, visibility: false });

  // team-a's bundle.yaml already says which controllers may use it; team-b and base get their availability here.
  const teamB = new cloudbees.BundleAvailability(name("team-b"), { connection, bundleId: "team-b", controllers: args.teamBControllers }, { dependsOn: [visibility] });
  const base = new cloudbees.BundleAvailability(name("base"), { connection, bundleId: "base", regex: args.baseRegex }, { dependsOn: [visibility] });

  // Assignments need the bundle to be available first: their bundle ids come from the availability resources.
  const assignments = args.teamBControllers.map(
    (controllerPath) =>
      new cloudbees.ControllerBundleAssignment(name(`assign-${controllerPath.replace(/\//g, "-")}`), {
        connection,
        controllerPath,
        bundleId: teamB.bundleId,
      }),
  );
  const sandbox = new cloudbees.ControllerBundleAssignment(name("assign-sandbox"), { connection, controllerPath: "sandbox", bundleId: base.bundleId });

  // New controllers matching base's pattern get it pre-selected (it assigns nothing by itself).
  const defaultBundle = new cloudbees.DefaultBundle(name("default-bundle"), { connection, bundleId: base.bundleId });

  // Who may use team-b's bundle, and who does, change with other resources and people: read them (getBundle), once
  // the assignments are made; no resource keeps them in its state.
  const teamBNow = pulumi
    .all([teamB.bundleId, ...assignments.map((a) => a.bundleId)])
    .apply(([bundleId]) => cloudbees.getBundle(bundleId, { connection }));
  return {
    applicationId: checkout.applicationId,
    teamBAvailableFor: teamBNow.availableFor,
    teamBUsedBy: teamBNow.usedBy,
    assigned: pulumi.all([...assignments, sandbox].map((a) => pulumi.interpolate`${a.controllerPath} <- ${a.bundleId}`)),
    defaultBundleId: defaultBundle.bundleId,
  };
}
