import * as pulumi from "@pulumi/pulumi";
import type { InstanceArgs } from "./connection-args";
import { DynamicResource } from "./dynamic-resource";

export interface BundleValidationArgs extends InstanceArgs {
  /**
   * A bundle folder (holding bundle.yaml), relative to the program's folder or absolute: linted, then validated with
   * casc-bundle-validate on `instanceUrl`. Exactly one of bundlePath, bundleTreePath. Changing it replaces.
   */
  bundlePath?: pulumi.Input<string>;
  /** Instance that validates `bundlePath` (a controller's base URL). Default: the operations center. */
  instanceUrl?: pulumi.Input<string>;
  /**
   * A bundle location (a folder of bundle folders): the bundles are linted, then pre-validated with
   * pre-validate-bundle on the operations center. Changing it replaces.
   */
  bundleTreePath?: pulumi.Input<string>;
  /** With bundleTreePath: the bundles to validate (names below it, e.g. "team-a"), with their parents. Default: all. */
  bundles?: pulumi.Input<pulumi.Input<string>[]>;
  /** With bundleTreePath: the branch they come from (default "main"). */
  branch?: pulumi.Input<string>;
  /** Any values: when one changes, the bundle is validated again. */
  triggers?: pulumi.Input<unknown[]>;
}

/**
 * Validates a local bundle, and fails the deployment when lint or the server finds an ERROR, listing every
 * message: give it in the `dependsOn` of the resources that check out, assign or reload, and a bad bundle stops the
 * pipeline before any of them runs. `contentHash` is computed from the files at every preview and up, so a changed
 * bundle is validated again and an unchanged one sends nothing. Id `bundle-validation/<bundlePath>` or
 * `bundle-tree-validation/<bundleTreePath>`. Refresh and destroy do nothing remote.
 */
export class BundleValidation extends DynamicResource {
  /** The bundle folder validated (one-bundle form). */
  declare readonly bundlePath: pulumi.Output<string | undefined>;
  /** The instance that validated the bundle (undefined: the operations center). */
  declare readonly instanceUrl: pulumi.Output<string | undefined>;
  /** The bundle location folder pre-validated (tree form). */
  declare readonly bundleTreePath: pulumi.Output<string | undefined>;
  /** The bundles of the tree that were sent (undefined: all of them). */
  declare readonly bundles: pulumi.Output<string[] | undefined>;
  /** The branch folder the tree was zipped under (undefined: `main`). */
  declare readonly branch: pulumi.Output<string | undefined>;
  /** The `triggers` input, as given: a change validates again. */
  declare readonly triggers: pulumi.Output<unknown[] | undefined>;
  /** SHA-256 of what was validated (the bundle's files; for a tree, the zip sent). */
  declare readonly contentHash: pulumi.Output<string>;
  /** The server's messages, `<LEVEL> - [<CODE>] - <text>` (tree: prefixed with the bundle). */
  declare readonly messages: pulumi.Output<string[]>;
  /** The local lint's messages. */
  declare readonly lintMessages: pulumi.Output<string[]>;
  /** The connection it lives on, as given (absent: `default`). */
  declare readonly connection: pulumi.Output<string | undefined>;
  /** The connection's instance it talks to, as given. */
  declare readonly instance: pulumi.Output<string | undefined>;

  constructor(name: string, args: BundleValidationArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "bundleValidation",
      "BundleValidation",
      name,
      {
        connection: args.connection,
        instance: args.instance,
        bundlePath: args.bundlePath,
        instanceUrl: args.instanceUrl,
        bundleTreePath: args.bundleTreePath,
        bundles: args.bundles,
        branch: args.branch,
        triggers: args.triggers,
        contentHash: undefined,
        messages: undefined,
        lintMessages: undefined,
      },
      opts,
    );
  }
}
