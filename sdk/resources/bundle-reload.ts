import * as pulumi from "@pulumi/pulumi";
import type { InstanceArgs } from "./connection-args";
import { DynamicResource } from "./dynamic-resource";

export interface BundleReloadArgs extends InstanceArgs {
  /**
   * Base URL of the instance to reload, with its prefix: a controller's (`https://ci.example.com/team-a/`).
   * Default: the operations center (cloudbees:operationsCenterUrl). Same credentials. Changing it replaces.
   */
  instanceUrl?: pulumi.Input<string>;
  /**
   * When the instance refuses to reload (the bundle is not hot reloadable, the update needs a restart, a reload is
   * already in progress): true reports it in the outputs (`reloaded: false`, `reason`) and goes on; false (default)
   * fails the deployment. Changing it alone runs nothing.
   */
  allowRestartRequired?: pulumi.Input<boolean>;
  /** Any values: when one changes, the check and reload run again (e.g. `[validation.contentHash]`). */
  triggers?: pulumi.Input<unknown[]>;
}

/**
 * Applies an instance's bundle update without restart: check-bundle-update, then reload-bundle only when an update
 * is available (never blindly, never twice). On create and whenever `triggers` change. Id
 * `bundle-reload/operations-center` or `bundle-reload/<instanceUrl>`. A refresh reads nothing; destroying it does
 * nothing remote (a reload cannot be undone).
 */
export class BundleReload extends DynamicResource {
  /** The instance reloaded (undefined: the operations center). */
  declare readonly instanceUrl: pulumi.Output<string | undefined>;
  /** The `allowRestartRequired` input, as given. */
  declare readonly allowRestartRequired: pulumi.Output<boolean | undefined>;
  /** The `triggers` input, as given: a change runs the check and reload again. */
  declare readonly triggers: pulumi.Output<unknown[] | undefined>;
  /** What check-bundle-update said. */
  declare readonly updateAvailable: pulumi.Output<boolean>;
  /** true when the update was applied. */
  declare readonly reloaded: pulumi.Output<boolean>;
  /** Why nothing was reloaded (the instance's words for a refusal); "" when reloaded. */
  declare readonly reason: pulumi.Output<string>;
  /** The bundle version in force after the run ("N/A" when none). */
  declare readonly version: pulumi.Output<string>;
  /** The connection it lives on, as given (absent: `default`). */
  declare readonly connection: pulumi.Output<string | undefined>;
  /** The connection's instance it talks to, as given. */
  declare readonly instance: pulumi.Output<string | undefined>;

  constructor(name: string, args: BundleReloadArgs = {}, opts?: pulumi.CustomResourceOptions) {
    super(
      "bundleReload",
      "BundleReload",
      name,
      {
        connection: args.connection,
        instance: args.instance,
        instanceUrl: args.instanceUrl,
        allowRestartRequired: args.allowRestartRequired,
        triggers: args.triggers,
        updateAvailable: undefined,
        reloaded: undefined,
        reason: undefined,
        version: undefined,
      },
      opts,
    );
  }
}
