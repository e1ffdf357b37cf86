import * as pulumi from "@pulumi/pulumi";
import { providerShell, TYPE_MODULE } from "./provider-shell";

export interface DefaultBundleArgs {
  /** The bundle pre-selected for controllers that match its availability pattern. Updates in place. */
  bundleId: pulumi.Input<string>;
}

/**
 * The operations center's default bundle. No endpoint reads which bundle is the default, so a refresh checks only
 * that the bundle still exists; the API cannot unset it either, so destroying warns that the default stays.
 */
export class DefaultBundle extends pulumi.dynamic.Resource {
  /** The default bundle, as given (the API cannot read it back). */
  declare readonly bundleId: pulumi.Output<string>;
  /** Controllers for which the bundle is pre-selected (those its availability pattern allows). */
  declare readonly preselectedFor: pulumi.Output<string[]>;

  constructor(name: string, args: DefaultBundleArgs, opts?: pulumi.CustomResourceOptions) {
    super(providerShell("defaultBundle"), name, { bundleId: args.bundleId, preselectedFor: undefined }, opts, TYPE_MODULE, "DefaultBundle");
  }
}
