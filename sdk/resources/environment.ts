import * as pulumi from "@pulumi/pulumi";
import type { ConnectionArgs } from "./connection-args";
import { DynamicResource } from "./dynamic-resource";

export interface EnvironmentArgs extends ConnectionArgs {
  /** The application's id: an `Application`'s `applicationId`. Changing it replaces the resource. */
  applicationId: pulumi.Input<string>;
  /**
   * The environment's name (`Staging`). API paths name the environment by it, so it cannot hold a slash or a
   * control character. An environment of this name that already exists is taken over without a write. Changing it
   * replaces the resource (the API cannot rename).
   */
  name: pulumi.Input<string>;
  /** Compared and written only when given: a description set in the UI is neither drift nor overwritten otherwise. */
  description?: pulumi.Input<string>;
}

/**
 * An environment of a feature-flag application (Production, Staging, ...). A new application has one environment,
 * `Production`. The API cannot delete environments: destroying the resource removes it from the stack and warns
 * that it stays. Needs `cloudbees:featureManagementToken`.
 */
export class Environment extends DynamicResource {
  declare readonly applicationId: pulumi.Output<string>;
  /** The environment's name, as the service holds it. */
  declare readonly name: pulumi.Output<string>;
  /** The `description` input, as the service holds it (absent when not given). */
  declare readonly description: pulumi.Output<string | undefined>;
  /** The environment's id, which is also its SDK key (24 hex digits): what `Rox.setup(key)` takes. Also the resource id. */
  declare readonly key: pulumi.Output<string>;
  /** When this stack last wrote (or took over) it: a refresh that finds drift names the changes the audit log has since. */
  declare readonly writtenAt: pulumi.Output<string>;
  /** The connection it lives on, as given (absent: `default`). */
  declare readonly connection: pulumi.Output<string | undefined>;

  constructor(name: string, args: EnvironmentArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "environment",
      "Environment",
      name,
      { writtenAt: undefined, connection: args.connection, applicationId: args.applicationId, name: args.name, description: args.description, key: undefined },
      opts,
    );
  }
}
