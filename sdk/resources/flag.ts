import * as pulumi from "@pulumi/pulumi";
import type { FlagOption } from "../../provider/clients/feature-flag-types";
import type { ConnectionArgs } from "./connection-args";
import { DynamicResource } from "./dynamic-resource";

export interface FlagArgs extends ConnectionArgs {
  /** The application's id: an `Application`'s `applicationId`. Changing it replaces the resource. */
  applicationId: pulumi.Input<string>;
  /**
   * The flag's name, with its namespace as the code registers it (`checkout.newFlow`). The service fixes it once
   * created: changing it replaces the flag (its configurations are lost with it).
   */
  name: pulumi.Input<string>;
  /**
   * The values the flag can take, a set (order does not matter): `[false, true]` (the default) for a boolean flag,
   * strings or numbers for the others (`""` among them, or none at all `[]`, as the service keeps). The service
   * fixes them once created: a change replaces the flag, deleting the old one first since the name stays the same.
   */
  availableValues?: pulumi.Input<pulumi.Input<FlagOption>[]>;
  /** A permanent flag, meant to stay in the code for good. Default false. Compared and written only when given. */
  isPermanent?: pulumi.Input<boolean>;
}

/**
 * A feature flag of an application: it exists in every environment; its configuration in one environment is a
 * `FlagConfiguration`. An existing flag of the name with the same available values is taken over without a write.
 * Destroy deletes the flag, in every environment. Needs `cloudbees:featureManagementToken`.
 */
export class Flag extends DynamicResource {
  declare readonly applicationId: pulumi.Output<string>;
  /** The flag's name: what `FlagConfiguration.flag` and a condition's `dependency.flag` take. */
  declare readonly name: pulumi.Output<string>;
  /** The flag's values, as the service holds them. */
  declare readonly availableValues: pulumi.Output<FlagOption[]>;
  declare readonly isPermanent: pulumi.Output<boolean>;
  /** When this stack last wrote (or took over) it: a refresh that finds drift names the changes the audit log has since. */
  declare readonly writtenAt: pulumi.Output<string>;
  /** The connection it lives on, as given (absent: `default`). */
  declare readonly connection: pulumi.Output<string | undefined>;

  constructor(name: string, args: FlagArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "flag",
      "Flag",
      name,
      { writtenAt: undefined, connection: args.connection, applicationId: args.applicationId, name: args.name, availableValues: args.availableValues, isPermanent: args.isPermanent },
      opts,
    );
  }
}
