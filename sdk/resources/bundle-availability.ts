import * as pulumi from "@pulumi/pulumi";
import { providerShell, TYPE_MODULE } from "./provider-shell";

export interface BundleAvailabilityArgs {
  /** Bundle folder name as the operations center lists it (`team-a`). Changing it replaces the resource. */
  bundleId: pulumi.Input<string>;
  /** Regular expression matched against whole full controller paths (`team-a/.*`). Exactly one of regex, controllers. */
  regex?: pulumi.Input<string>;
  /**
   * Full controller paths (`folder1/controller1`), compared as a set; sent as the anchored, escaped pattern
   * `^(?:a|b)$`. Exactly one of regex, controllers.
   */
  controllers?: pulumi.Input<pulumi.Input<string>[]>;
}

/**
 * Which controllers may use a CasC bundle: the bundle's availability pattern, set through the API (it overrides the
 * bundle.yaml `availabilityPattern`). Destroying it clears the API pattern, and bundle.yaml's applies again.
 */
export class BundleAvailability extends pulumi.dynamic.Resource {
  /** The bundle's id (its folder path in the bundle location), as given. */
  declare readonly bundleId: pulumi.Output<string>;
  /** The pattern in force (the one built from `controllers` when they are given). */
  declare readonly regex: pulumi.Output<string>;
  /** The controllers the bundle is available to, when given as a list (a refresh reads a pattern of that form back as one). */
  declare readonly controllers: pulumi.Output<string[] | undefined>;
  /** Controllers that may be assigned the bundle. */
  declare readonly availableFor: pulumi.Output<string[]>;
  /** Controllers assigned the bundle. */
  declare readonly usedBy: pulumi.Output<string[]>;
  /** true when bundle.yaml's pattern is in force rather than this resource's. */
  declare readonly availabilityPatternFromYaml: pulumi.Output<boolean>;

  constructor(name: string, args: BundleAvailabilityArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      providerShell("bundleAvailability"),
      name,
      {
        bundleId: args.bundleId,
        regex: args.regex,
        controllers: args.controllers,
        availableFor: undefined,
        usedBy: undefined,
        availabilityPatternFromYaml: undefined,
      },
      opts,
      TYPE_MODULE,
      "BundleAvailability",
    );
  }
}
