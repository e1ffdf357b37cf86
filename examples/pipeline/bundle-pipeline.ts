// The bundle pipeline, as a function: index.ts runs it once with the stack's config; a program may run it against
// several operations centers (`connection`), each under its own names (`prefix`).
import * as pulumi from "@pulumi/pulumi";
import * as cloudbees from "pulumi-cloudbees";

export interface ControllerPlan {
  /** The bundle the controller runs. */
  bundle: string;
  /** The controller's base URL (for the reload). */
  url: string;
}

export interface BundlePipelineArgs {
  /** The bundle location: a folder of bundles, relative to the program's folder. */
  bundlesDir: string;
  /** Controller full path -> which bundle it runs and where it is. */
  controllers: Record<string, ControllerPlan>;
  /** The named connection (`cloudbees:connections.<name>`) to run on; the default one when absent. */
  connection?: string;
  /** Put before every resource name, so that one program can run the pipeline more than once. */
  prefix?: string;
}

export function bundlePipeline(args: BundlePipelineArgs) {
  const { bundlesDir, controllers, connection } = args;
  const name = (n: string) => `${args.prefix ?? ""}${n}`;
  const bundles = [...new Set(Object.values(controllers).map((c) => c.bundle))].sort();

  // 1. Lint locally, then pre-validate on the operations center: the bundles the controllers run, with their parents.
  //    Its content hash changes whenever a file of those bundles changes, and triggers everything below again.
  const validation = new cloudbees.BundleValidation(name("bundles"), { connection, bundleTreePath: bundlesDir, bundles });

  // 2. The operations center re-reads its bundle location.
  const checkout = new cloudbees.BundleCheckout(name("checkout"), { connection, triggers: [validation.contentHash] }, { dependsOn: [validation] });

  // 3. Each bundle is available to exactly the controllers that run it (team-a's bundle.yaml pattern is overridden).
  const availability = bundles.map(
    (bundleId) =>
      new cloudbees.BundleAvailability(
        name(`available-${bundleId}`),
        { connection, bundleId, controllers: Object.keys(controllers).filter((path) => controllers[path].bundle === bundleId) },
        { dependsOn: [checkout] },
      ),
  );

  // 4. Assign each controller its bundle, issue its bundle link (the token is a secret), then reload it when its
  //    bundle changed (a reload that needs a restart fails the run).
  const perController = Object.entries(controllers).map(([controllerPath, plan]) => {
    const slug = controllerPath.replace(/\//g, "-");
    const assignment = new cloudbees.ControllerBundleAssignment(
      name(`assign-${slug}`),
      { connection, controllerPath, bundleId: plan.bundle },
      { dependsOn: availability },
    );
    const link = new cloudbees.ControllerBundleToken(name(`link-${slug}`), { connection, controllerPath: assignment.controllerPath });
    const reload = new cloudbees.BundleReload(
      name(`reload-${slug}`),
      { connection, instanceUrl: plan.url, triggers: [validation.contentHash] },
      { dependsOn: [assignment] },
    );
    return [controllerPath, { link, reload }] as const;
  });
  return {
    contentHash: validation.contentHash,
    validationMessages: validation.messages,
    checkedOut: checkout.bundles,
    reloads: pulumi.all(
      Object.fromEntries(
        perController.map(([path, { reload }]) => [
          path,
          pulumi.all([reload.reloaded, reload.version]).apply(([reloaded, version]) => ({ reloaded, version })),
        ]),
      ),
    ),
    linkFiles: pulumi.all(Object.fromEntries(perController.map(([path, { link }]) => [path, link.linkFileContent]))),
  };
}
