// A CasC bundle pipeline, as a deployment pipeline runs it on every push to the bundle repository:
// lint and pre-validate the bundles, check them out on the operations center, make them available, assign them to
// controllers and reload those controllers. A bundle with an ERROR fails the validation, and since everything after
// it depends on it, nothing is checked out, assigned or reloaded.
//
// Stack config (besides the cloudbees:* settings):
//   pipeline:bundlesDir      the bundle location, relative to this folder (default ../bundles)
//   pipeline:controllers     controller full path -> { bundle, url }: which bundle each controller runs, and the
//                            controller's base URL (for the reload)
import * as pulumi from "@pulumi/pulumi";
import * as cloudbees from "pulumi-cloudbees";

interface ControllerPlan {
  bundle: string;
  url: string;
}

const config = new pulumi.Config("pipeline");
const bundlesDir = config.get("bundlesDir") ?? "../bundles";
const controllers = config.requireObject<Record<string, ControllerPlan>>("controllers");
const bundles = [...new Set(Object.values(controllers).map((c) => c.bundle))].sort();

// 1. Lint locally, then pre-validate on the operations center: the bundles the controllers run, with their parents.
//    Its content hash changes whenever a file of those bundles changes, and triggers everything below again.
const validation = new cloudbees.BundleValidation("bundles", { bundleTreePath: bundlesDir, bundles });

// 2. The operations center re-reads its bundle location.
const checkout = new cloudbees.BundleCheckout("checkout", { triggers: [validation.contentHash] }, { dependsOn: [validation] });

// 3. Each bundle is available to exactly the controllers that run it (team-a's bundle.yaml pattern is overridden).
const availability = bundles.map(
  (bundleId) =>
    new cloudbees.BundleAvailability(
      `available-${bundleId}`,
      { bundleId, controllers: Object.keys(controllers).filter((path) => controllers[path].bundle === bundleId) },
      { dependsOn: [checkout] },
    ),
);

// 4. Assign each controller its bundle, issue its bundle link (the token is a secret), then reload it when its
//    bundle changed (a reload that needs a restart fails the run).
const perController = Object.entries(controllers).map(([controllerPath, plan]) => {
  const slug = controllerPath.replace(/\//g, "-");
  const assignment = new cloudbees.ControllerBundleAssignment(
    `assign-${slug}`,
    { controllerPath, bundleId: plan.bundle },
    { dependsOn: availability },
  );
  const link = new cloudbees.ControllerBundleToken(`link-${slug}`, { controllerPath: assignment.controllerPath });
  const reload = new cloudbees.BundleReload(
    `reload-${slug}`,
    { instanceUrl: plan.url, triggers: [validation.contentHash] },
    { dependsOn: [assignment] },
  );
  return [controllerPath, { link, reload }] as const;
});

export const contentHash = validation.contentHash;
export const validationMessages = validation.messages;
export const checkedOut = checkout.bundles;
export const reloads = pulumi.all(
  Object.fromEntries(
    perController.map(([path, { reload }]) => [
      path,
      pulumi.all([reload.reloaded, reload.version]).apply(([reloaded, version]) => ({ reloaded, version })),
    ]),
  ),
);
export const linkFiles = pulumi.all(Object.fromEntries(perController.map(([path, { link }]) => [path, link.linkFileContent])));
