import * as pulumi from "@pulumi/pulumi";
import type { InstanceArgs } from "./connection-args";
import { DynamicResource } from "./dynamic-resource";

export interface ItemsArgs extends InstanceArgs {
  /** The items.yaml text (a mapping with an `items` list). Changing it creates the items again. */
  yaml: pulumi.Input<string>;
  /** Full path of the folder to create them in (it must exist). Default: the instance's root. Changing it re-runs. */
  path?: pulumi.Input<string>;
  /** Base URL of the instance (a controller's). Default: the operations center. Changing it replaces. */
  instanceUrl?: pulumi.Input<string>;
  /** Any values: when one changes, the items are created again. */
  triggers?: pulumi.Input<unknown[]>;
}

/**
 * Creates the items of an items.yaml text (create-items) on create, and again when `yaml`, `path` or `triggers`
 * change. Id `items/operations-center[/<path>]` or `items/<instanceUrl>[/<path>]`. The API cannot delete items:
 * destroying it warns that they stay. A refresh reads nothing.
 */
export class Items extends DynamicResource {
  /** The items.yaml text, as given. */
  declare readonly yaml: pulumi.Output<string>;
  /** The folder the items were created in, as given (undefined: the root). */
  declare readonly path: pulumi.Output<string | undefined>;
  /** The instance the items were created on (undefined: the operations center). */
  declare readonly instanceUrl: pulumi.Output<string | undefined>;
  /** The `triggers` input, as given: a change creates the items again. */
  declare readonly triggers: pulumi.Output<unknown[] | undefined>;
  /** The folder's full name as the instance answered ("" for the root). */
  declare readonly basePath: pulumi.Output<string>;
  /** The connection it lives on, as given (absent: `default`). */
  declare readonly connection: pulumi.Output<string | undefined>;
  /** The connection's instance it talks to, as given. */
  declare readonly instance: pulumi.Output<string | undefined>;

  constructor(name: string, args: ItemsArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "items",
      "Items",
      name,
      { connection: args.connection, instance: args.instance, yaml: args.yaml, path: args.path, instanceUrl: args.instanceUrl, triggers: args.triggers, basePath: undefined },
      opts,
    );
  }
}
