import * as pulumi from "@pulumi/pulumi";
import type { ConnectionArgs } from "./connection-args";
import { SECRET_OUTPUTS } from "../../provider/resources/controller-bundle-token/types";
import { DynamicResource } from "./dynamic-resource";

export interface ControllerBundleTokenArgs extends ConnectionArgs {
  /** Full path of the controller (`folder1/controller1`); it must have a bundle assigned. Changing it replaces. */
  controllerPath: pulumi.Input<string>;
  /** Any values: when one changes, the token is regenerated again (a rotation). */
  triggers?: pulumi.Input<unknown[]>;
}

/**
 * A new bundle token for a controller (regenerate-token: the previous token stops working), and the controller's
 * bundle link. `token` and `linkFileContent` are secrets. Id `bundle-token/<controllerPath>`.
 * A refresh reads the link: a token regenerated outside Pulumi shows as a change and is kept (the state then holds
 * the token that works). Destroying it does nothing remote: the controller keeps its current token.
 */
export class ControllerBundleToken extends DynamicResource {
  /** Full path of the controller, as given. */
  declare readonly controllerPath: pulumi.Output<string>;
  /** The `triggers` input, as given: a change regenerates the token. */
  declare readonly triggers: pulumi.Output<unknown[] | undefined>;
  /** URL where the operations center exposes the controller's bundle. */
  declare readonly url: pulumi.Output<string>;
  /** The controller's bundle token (secret). */
  declare readonly token: pulumi.Output<string>;
  /** The link file content, `<url>\n<token>` (secret). */
  declare readonly linkFileContent: pulumi.Output<string>;
  /** The connection it lives on, as given (absent: `default`). */
  declare readonly connection: pulumi.Output<string | undefined>;

  constructor(name: string, args: ControllerBundleTokenArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "controllerBundleToken",
      "ControllerBundleToken",
      name,
      { connection: args.connection, controllerPath: args.controllerPath, triggers: args.triggers, url: undefined, token: undefined, linkFileContent: undefined },
      // The provider host cannot return secrets: the engine marks these outputs secret.
      pulumi.mergeOptions(opts, { additionalSecretOutputs: [...SECRET_OUTPUTS] }),
    );
  }
}
