import * as pulumi from "@pulumi/pulumi";
import { providerShell, TYPE_MODULE } from "./provider-shell";

export interface ControllerBundleAssignmentArgs {
  /** Full path of the controller (`folder1/controller1`, no leading or trailing "/"). Changing it replaces. */
  controllerPath: pulumi.Input<string>;
  /** The bundle to assign; it must be available to the controller (see BundleAvailability). Updates in place. */
  bundleId: pulumi.Input<string>;
  /** Bundle assigned when this resource is deleted (the API cannot unassign). Without it the controller keeps its bundle. */
  fallbackBundleId?: pulumi.Input<string>;
}

/**
 * The CasC bundle a controller uses. The operations center assigns only a bundle available to the controller: declare
 * the BundleAvailability first and pass it in `dependsOn`.
 */
export class ControllerBundleAssignment extends pulumi.dynamic.Resource {
  /** Full path of the controller, as given. */
  declare readonly controllerPath: pulumi.Output<string>;
  /** The bundle assigned to the controller, as the operations center reports it. */
  declare readonly bundleId: pulumi.Output<string>;
  /** The bundle assigned on delete, as given (undefined: none). */
  declare readonly fallbackBundleId: pulumi.Output<string | undefined>;

  constructor(name: string, args: ControllerBundleAssignmentArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      providerShell("controllerBundleAssignment"),
      name,
      { controllerPath: args.controllerPath, bundleId: args.bundleId, fallbackBundleId: args.fallbackBundleId },
      opts,
      TYPE_MODULE,
      "ControllerBundleAssignment",
    );
  }
}
