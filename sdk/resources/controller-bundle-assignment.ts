import * as pulumi from "@pulumi/pulumi";
import type { ConnectionArgs } from "./connection-args";
import { DynamicResource } from "./dynamic-resource";

export interface ControllerBundleAssignmentArgs extends ConnectionArgs {
  /** Full path of the controller (`folder1/controller1`, no leading or trailing "/"). Changing it replaces. */
  controllerPath: pulumi.Input<string>;
  /** The bundle to assign; it must be available to the controller (see BundleAvailability). Updates in place. */
  bundleId: pulumi.Input<string>;
  /**
   * Bundle assigned when this resource is deleted (the API cannot unassign). Without it the controller keeps its bundle.
   * It must be available to the controller when the resource is created or updated (declare its BundleAvailability
   * and put it in `dependsOn`): a fallback that could not be assigned fails then, not at destroy.
   */
  fallbackBundleId?: pulumi.Input<string>;
}

/**
 * The CasC bundle a controller uses. The operations center assigns only a bundle available to the controller: declare
 * the BundleAvailability first and pass it in `dependsOn`. Creating it for a controller that already uses the bundle
 * sends nothing (takeover).
 */
export class ControllerBundleAssignment extends DynamicResource {
  /** Full path of the controller, as given. */
  declare readonly controllerPath: pulumi.Output<string>;
  /** The bundle assigned to the controller, as the operations center reports it. */
  declare readonly bundleId: pulumi.Output<string>;
  /** The bundle assigned on delete, as given (undefined: none). */
  declare readonly fallbackBundleId: pulumi.Output<string | undefined>;
  /** The connection it lives on, as given (absent: `default`). */
  declare readonly connection: pulumi.Output<string | undefined>;

  constructor(name: string, args: ControllerBundleAssignmentArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "controllerBundleAssignment",
      "ControllerBundleAssignment",
      name,
      { connection: args.connection, controllerPath: args.controllerPath, bundleId: args.bundleId, fallbackBundleId: args.fallbackBundleId },
      opts,
    );
  }
}
