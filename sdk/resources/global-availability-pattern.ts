import * as pulumi from "@pulumi/pulumi";
import { providerShell, TYPE_MODULE } from "./provider-shell";

export interface GlobalAvailabilityPatternArgs {
  /** true: every bundle without a pattern may be used by any controller (more flexible, less secure). */
  visibility: pulumi.Input<boolean>;
}

/** The operations center's global availability switch. Destroying it sets it back to false, the secure setting. */
export class GlobalAvailabilityPattern extends pulumi.dynamic.Resource {
  /** The switch as set (a refresh infers it from the bundle list where the list can tell). */
  declare readonly visibility: pulumi.Output<boolean>;

  constructor(name: string, args: GlobalAvailabilityPatternArgs, opts?: pulumi.CustomResourceOptions) {
    super(providerShell("globalAvailabilityPattern"), name, { visibility: args.visibility }, opts, TYPE_MODULE, "GlobalAvailabilityPattern");
  }
}
