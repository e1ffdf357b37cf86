import * as pulumi from "@pulumi/pulumi";
import type { ConnectionArgs } from "./connection-args";
import { DynamicResource } from "./dynamic-resource";

export interface BundleAvailabilityArgs extends ConnectionArgs {
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
 * Creating it when the operations center already holds the same pattern sends nothing (takeover).
 *
 * Its state is the pattern alone. Which controllers may use or do use the bundle changes with other resources and
 * people: read it with `getBundle(bundleId)` (`availableFor`, `usedBy`) or `getControllers()`.
 */
export class BundleAvailability extends DynamicResource {
  /** The bundle's id (its folder path in the bundle location), as given. */
  declare readonly bundleId: pulumi.Output<string>;
  /** The pattern in force (the one built from `controllers` when they are given). */
  declare readonly regex: pulumi.Output<string>;
  /** The controllers the bundle is available to, when given as a list (a refresh reads a pattern of that form back as one). */
  declare readonly controllers: pulumi.Output<string[] | undefined>;
  /** The connection it lives on, as given (absent: `default`). */
  declare readonly connection: pulumi.Output<string | undefined>;

  constructor(name: string, args: BundleAvailabilityArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "bundleAvailability",
      "BundleAvailability",
      name,
      {
        connection: args.connection,
        bundleId: args.bundleId,
        regex: args.regex,
        controllers: args.controllers,
      },
      opts,
    );
  }
}
