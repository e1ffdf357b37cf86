import * as pulumi from "@pulumi/pulumi";
import type { ConnectionArgs } from "./connection-args";
import { DynamicResource } from "./dynamic-resource";

export interface BundleCheckoutArgs extends ConnectionArgs {
  /** Server-side timeout of the check-out, in seconds (the operations center's default: 600). Changing it alone runs nothing. */
  timeoutSeconds?: pulumi.Input<number>;
  /** Any values: when one changes, the check-out runs again (e.g. `[validation.contentHash]`). */
  triggers?: pulumi.Input<unknown[]>;
}

/** A bundle source the operations center checked out, as check-out reports it. */
export interface CheckedOutBundleSource {
  /** The source's name (the bundle location's). */
  name: string;
  /** The bundles read from it: each bundle's name, and the server's text about it. */
  bundles: { bundleName: string; localText: string }[];
}

/**
 * Makes the operations center re-read its bundle locations (check-out), on create and whenever `triggers` change.
 * Id `bundle-checkout`. A refresh reads nothing (a check-out is not a thing to read back); destroying it does
 * nothing remote: the bundles checked out stay.
 */
export class BundleCheckout extends DynamicResource {
  /** The `timeoutSeconds` input, as given. */
  declare readonly timeoutSeconds: pulumi.Output<number | undefined>;
  /** The `triggers` input, as given: a change runs the check-out again. */
  declare readonly triggers: pulumi.Output<unknown[] | undefined>;
  /** Each bundle source with the bundles it checked out. */
  declare readonly remotes: pulumi.Output<CheckedOutBundleSource[]>;
  /** Names of the bundles checked out, sorted. */
  declare readonly bundles: pulumi.Output<string[]>;
  /** The connection it lives on, as given (absent: `default`). */
  declare readonly connection: pulumi.Output<string | undefined>;

  constructor(name: string, args: BundleCheckoutArgs = {}, opts?: pulumi.CustomResourceOptions) {
    super(
      "bundleCheckout",
      "BundleCheckout",
      name,
      { connection: args.connection, timeoutSeconds: args.timeoutSeconds, triggers: args.triggers, remotes: undefined, bundles: undefined },
      opts,
    );
  }
}
