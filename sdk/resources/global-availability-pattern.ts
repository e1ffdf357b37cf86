import * as pulumi from "@pulumi/pulumi";
import type { ConnectionArgs } from "./connection-args";
import { DynamicResource } from "./dynamic-resource";

export interface GlobalAvailabilityPatternArgs extends ConnectionArgs {
  /** true: every bundle without a pattern may be used by any controller (more flexible, less secure). */
  visibility: pulumi.Input<boolean>;
}

/** The operations center's global availability switch. Destroying it sets it back to false, the secure setting. */
export class GlobalAvailabilityPattern extends DynamicResource {
  /** The switch as set (a refresh infers it from the bundle list where the list can tell). */
  declare readonly visibility: pulumi.Output<boolean>;
  /** The connection it lives on, as given (absent: `default`). */
  declare readonly connection: pulumi.Output<string | undefined>;

  constructor(name: string, args: GlobalAvailabilityPatternArgs, opts?: pulumi.CustomResourceOptions) {
    super("globalAvailabilityPattern", "GlobalAvailabilityPattern", name, { connection: args.connection, visibility: args.visibility }, opts);
  }
}
