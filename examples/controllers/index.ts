// A managed controller as code: created on the operations center by create-items (controllers are items of the
// operations center), made able to use a bundle, assigned it, and watched: what it runs is compared with the bundle.
// `pulumi destroy` stops and deletes the controller (POST job/.../stopAction, then doDelete), after its assignment and
// availability are gone.
import * as pulumi from "@pulumi/pulumi";
import * as cloudbees from "pulumi-cloudbees";

export const controllerPath = "team-c/controller-c";

// The controller's size: a change re-runs create-items, which updates the item in place.
const memory = new pulumi.Config("controllers").getNumber("memory") ?? 4096;

// The controller item as the operations center exports it (POST job/<name>/export/download): a folder holding a
// managedController. Its configurationAsCode property is left empty: the assignment below owns the bundle.
const controller = new cloudbees.Items("team-c-controller", {
  yaml: [
    "removeStrategy:",
    "  rbac: SYNC",
    "  items: NONE",
    "items:",
    "  - kind: folder",
    "    name: team-c",
    "    items:",
    "      - kind: managedController",
    "        name: controller-c",
    "        displayName: Team C",
    "        configuration:",
    "          kubernetes:",
    `            memory: ${memory}`,
    "            cpus: 1.0",
    "            disk: 50",
    "        properties:",
    "          - configurationAsCode: {}",
    "          - healthReporting:",
    "              enabled: true",
    "",
  ].join("\n"),
});

// The bundle may be used by this controller only; the controller must exist first.
const availability = new cloudbees.BundleAvailability("base-for-team-c", { bundleId: "base", controllers: [controllerPath] }, { dependsOn: [controller] });

const assignment = new cloudbees.ControllerBundleAssignment("team-c-controller", { controllerPath, bundleId: availability.bundleId }, { dependsOn: [controller] });

// What the controller really runs, compared with its bundle (../bundles is the folder the operations center checks
// out): a change made on the controller, or an update it has not applied, fails the drift job; `pulumi up --refresh`
// reloads the bundle. The controller's URL comes from the stack config (`controllers:instanceUrl`).
const instanceUrl = new pulumi.Config("controllers").require("instanceUrl");
const running = new cloudbees.ControllerConfiguration("team-c-controller", {
  controllerPath,
  instanceUrl,
  bundleTreePath: "../bundles",
  bundleId: assignment.bundleId,
});
export const drift = running.drift;
export const bundleVersion = running.bundleVersion;
