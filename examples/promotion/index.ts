// Promotes a CasC bundle from staging to production in one program: one stack, two operations centers, each a
// named connection of the stack config, and a production controller whose API token is its own.
//
//   pulumi config set --path 'cloudbees:connections.staging.operationsCenterUrl' https://staging.example.com/cjoc/
//   pulumi config set --path 'cloudbees:connections.staging.username' admin
//   pulumi config set --secret --path 'cloudbees:connections.staging.apiToken' <token>
//   pulumi config set --path 'cloudbees:connections.production.operationsCenterUrl' https://ci.example.com/cjoc/
//   pulumi config set --path 'cloudbees:connections.production.username' admin
//   pulumi config set --secret --path 'cloudbees:connections.production.apiToken' <token>
//   pulumi config set --path 'cloudbees:connections.production.instances.team-a.url' https://ci.example.com/team-a/
//   pulumi config set --path 'cloudbees:connections.production.instances.team-a.username' team-a-admin
//   pulumi config set --secret --path 'cloudbees:connections.production.instances.team-a.apiToken' <token>
//
// Stack config of the program:
//   promotion:bundle       the bundle to promote (default team-a)
//   promotion:bundlesDir   the bundle location, relative to this folder (default ../bundles)
//   promotion:controller   full path of the controller that runs it, on both (default team-a/controller-a)
//   promotion:instance     that controller's name in production's instances (default team-a)
import * as pulumi from "@pulumi/pulumi";
import * as cloudbees from "pulumi-cloudbees";

const config = new pulumi.Config("promotion");
const bundle = config.get("bundle") ?? "team-a";
const bundlesDir = config.get("bundlesDir") ?? "../bundles";
const controllerPath = config.get("controller") ?? "team-a/controller-a";
const instance = config.get("instance") ?? "team-a";

// 1. Staging: lint and pre-validate the bundle (with its parents) on the staging operations center, then assign it
//    to the staging controller. A bundle with an ERROR stops here: nothing below is created or updated.
const validation = new cloudbees.BundleValidation("validate-on-staging", { connection: "staging", bundleTreePath: bundlesDir, bundles: [bundle] });
const onStaging = new cloudbees.ControllerBundleAssignment(
  "assign-on-staging",
  { connection: "staging", controllerPath, bundleId: bundle },
  { dependsOn: [validation] },
);

// 2. Production: make the bundle available to the controller, assign it, and reload the controller (through its own
//    URL and credentials) whenever the bundle's content changes.
const available = new cloudbees.BundleAvailability(
  "available-on-production",
  { connection: "production", bundleId: bundle, controllers: [controllerPath] },
  { dependsOn: [onStaging] },
);
const onProduction = new cloudbees.ControllerBundleAssignment(
  "assign-on-production",
  { connection: "production", controllerPath, bundleId: available.bundleId },
);
const reload = new cloudbees.BundleReload(
  "reload-on-production",
  { connection: "production", instance, triggers: [validation.contentHash] },
  { dependsOn: [onProduction] },
);

// What each operations center says once the promotion ran (read with the functions, per connection).
export const staging = onStaging.bundleId.apply((name) => cloudbees.getBundle(name, { connection: "staging" })).apply((b) => ({ bundle: b.name, usedBy: b.usedBy }));
export const production = onProduction.bundleId
  .apply((name) => cloudbees.getBundle(name, { connection: "production" }))
  .apply((b) => ({ bundle: b.name, usedBy: b.usedBy }));
export const reloaded = pulumi.all([reload.reloaded, reload.version]).apply(([done, version]) => ({ reloaded: done, version }));
export const productionControllerUpToDate = reload.version.apply(async () => {
  const update = await cloudbees.checkBundleUpdate({ connection: "production", instance });
  return !update.updateAvailable;
});
