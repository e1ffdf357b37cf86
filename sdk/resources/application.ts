import * as pulumi from "@pulumi/pulumi";
import type { ConnectionArgs } from "./connection-args";
import { DynamicResource } from "./dynamic-resource";

export interface ApplicationArgs extends ConnectionArgs {
  /** Name of the application. Changing it creates a new application (the API cannot rename). */
  name: pulumi.Input<string>;
  /**
   * On create, adopt the account's application of exactly this name instead of creating a second one (the
   * service accepts duplicate names). Fails when several have the name.
   */
  adoptExisting?: pulumi.Input<boolean>;
}

/**
 * An application of the CloudBees feature-flag service (Feature Management). The API cannot delete applications:
 * destroying the resource removes it from the stack and warns that it stays in the account.
 * Needs `cloudbees:featureManagementToken` (and `cloudbees:featureManagementUrl` off the default service).
 */
export class Application extends DynamicResource {
  /** The service's id of the application (also the resource id). */
  declare readonly applicationId: pulumi.Output<string>;
  /** The application's name, as the service holds it. */
  declare readonly name: pulumi.Output<string>;
  /** The `adoptExisting` input, as given. */
  declare readonly adoptExisting: pulumi.Output<boolean | undefined>;
  /** true when create adopted an existing application. */
  declare readonly adopted: pulumi.Output<boolean>;
  /** The connection it lives on, as given (absent: `default`). */
  declare readonly connection: pulumi.Output<string | undefined>;

  constructor(name: string, args: ApplicationArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "application",
      "Application",
      name,
      { connection: args.connection, name: args.name, adoptExisting: args.adoptExisting, applicationId: undefined, adopted: undefined },
      opts,
    );
  }
}
