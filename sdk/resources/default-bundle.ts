import * as pulumi from "@pulumi/pulumi";
import type { ConnectionArgs } from "./connection-args";
import { DynamicResource } from "./dynamic-resource";

export interface DefaultBundleArgs extends ConnectionArgs {
  /** The bundle pre-selected for controllers that match its availability pattern. Updates in place. */
  bundleId: pulumi.Input<string>;
}

/**
 * The operations center's default bundle. No endpoint reads which bundle is the default, so a refresh checks only
 * that the bundle still exists; the API cannot unset it either, so destroying warns that the default stays. The
 * controllers it is pre-selected for are those its availability pattern allows: `getBundle(bundleId).availableFor`.
 */
export class DefaultBundle extends DynamicResource {
  /** The default bundle, as given (the API cannot read it back). */
  declare readonly bundleId: pulumi.Output<string>;
  /** The connection it lives on, as given (absent: `default`). */
  declare readonly connection: pulumi.Output<string | undefined>;

  constructor(name: string, args: DefaultBundleArgs, opts?: pulumi.CustomResourceOptions) {
    super("defaultBundle", "DefaultBundle", name, { connection: args.connection, bundleId: args.bundleId }, opts);
  }
}
