// The tier's controllers program (test/real-engine/controller-drift.test.ts): each controller of the stack config
// assigned its bundle and watched, as a platform team declares them. `drift:controllers` maps each controller's full
// path to its URL and bundle; `drift:bundleTreePath` is the folder the operations center checks out.
import * as pulumi from "@pulumi/pulumi";
import * as cloudbees from "pulumi-cloudbees";

const config = new pulumi.Config("drift");
const controllers = config.requireObject<Record<string, { url: string; bundle: string }>>("controllers");
const bundleTreePath = config.require("bundleTreePath");

export const drift: Record<string, pulumi.Output<string[]>> = {};
for (const [controllerPath, { url, bundle }] of Object.entries(controllers)) {
  const assignment = new cloudbees.ControllerBundleAssignment(controllerPath, { controllerPath, bundleId: bundle });
  const running = new cloudbees.ControllerConfiguration(controllerPath, {
    controllerPath,
    instanceUrl: url,
    bundleTreePath,
    bundleId: assignment.bundleId,
  });
  drift[controllerPath] = running.drift;
}
