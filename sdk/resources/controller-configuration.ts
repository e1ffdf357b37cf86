import * as pulumi from "@pulumi/pulumi";
import type { InstanceArgs } from "./connection-args";
import { DynamicResource } from "./dynamic-resource";

export interface ControllerConfigurationArgs extends InstanceArgs {
  /** Full path of the controller (`team-a/controller-a`, no leading or trailing "/"). Changing it replaces. */
  controllerPath: pulumi.Input<string>;
  /**
   * The controller's base URL, with its prefix (`https://ci.example.com/team-a/controller-a/`), reached with the
   * connection's credentials; or name it with `instance`. Changing it replaces.
   */
  instanceUrl?: pulumi.Input<string>;
  /**
   * The local folder of bundle folders, as the operations center checks them out (`bundles`), relative to the
   * program's folder: the bundle and its parents are read there, at every preview and refresh.
   */
  bundleTreePath: pulumi.Input<string>;
  /** The bundle the controller should run: its name in bundleTreePath (usually the assignment's `bundleId`). */
  bundleId: pulumi.Input<string>;
  /**
   * Paths left out of the comparison, each `<file>: <path>` (`jenkins.yaml: jenkins.systemMessage`,
   * `plugins.yaml: ssh-agent`): the path and everything below it.
   */
  ignore?: pulumi.Input<pulumi.Input<string>[]>;
}

/**
 * What a controller really runs, compared with the bundle it should run (with its parents, merged as the CasC plugin
 * merges them). A refresh reads the controller's export and its update check: a change made on the controller (in its
 * UI), a plugin installed by hand or an update not applied shows as a diff per path, so `pulumi preview --refresh
 * --expect-no-changes` fails on it. `pulumi up` reloads the bundle, and fails naming what a reload cannot put back. A
 * change to the bundle files shows, in preview, what each controller that runs them gains, loses or changes. Id
 * `controller-configuration/<controllerPath>`. Destroying it changes nothing on the controller.
 */
export class ControllerConfiguration extends DynamicResource {
  /** Full path of the controller, as given. */
  declare readonly controllerPath: pulumi.Output<string>;
  /** The controller's URL, as given (undefined: named by `instance`). */
  declare readonly instanceUrl: pulumi.Output<string | undefined>;
  /** The bundle folders' path, as given. */
  declare readonly bundleTreePath: pulumi.Output<string>;
  /** The bundle the controller should run, as given. */
  declare readonly bundleId: pulumi.Output<string>;
  /** The paths left out, as given. */
  declare readonly ignore: pulumi.Output<string[] | undefined>;
  /**
   * A value per compared path (`jenkins.yaml: unclassified.location.adminAddress`, `plugins.yaml: ssh-agent`,
   * `items.yaml: item "deploy"`), as the controller runs it: the value as it is (`"ops@example.com"`, bounded), or,
   * where it can hold a secret, its digest and why (`3181448... (the credentials section)`).
   */
  declare readonly configuration: pulumi.Output<Record<string, string>>;
  /** "none", or the update the controller has not applied: `<version in force> -> <waiting version> (<type>)`. */
  declare readonly pendingUpdate: pulumi.Output<string>;
  /** The bundle version the controller has in force ("N/A": none). */
  declare readonly bundleVersion: pulumi.Output<string>;
  /** What differs from the bundle, one line a path (`plugins.yaml: +ssh-agent`); empty when it runs its bundle. */
  declare readonly drift: pulumi.Output<string[]>;
  /** The connection it lives on, as given (absent: `default`). */
  declare readonly connection: pulumi.Output<string | undefined>;
  /** The connection's instance it talks to, as given. */
  declare readonly instance: pulumi.Output<string | undefined>;

  constructor(name: string, args: ControllerConfigurationArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "controllerConfiguration",
      "ControllerConfiguration",
      name,
      {
        connection: args.connection,
        instance: args.instance,
        controllerPath: args.controllerPath,
        instanceUrl: args.instanceUrl,
        bundleTreePath: args.bundleTreePath,
        bundleId: args.bundleId,
        ignore: args.ignore,
        configuration: undefined,
        pendingUpdate: undefined,
        bundleVersion: undefined,
        drift: undefined,
      },
      opts,
    );
  }
}
