import * as pulumi from "@pulumi/pulumi";
import type { FlagOption } from "../../provider/clients/feature-flag-types";
import type { FlagOnDelete } from "../../provider/resources/flag/types";
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
  /**
   * What removing the resource (from the program, or by destroy) does to the flag on the service. `"delete"` (the
   * default): deletes the flag, in every environment. `"archive"`: keeps the flag and its values, and its
   * configuration in every environment where it has one, each archived and turned off (`archived: true`, `enabled:
   * false`: it serves what an unconfigured flag serves, `false` or the code's default), so that nothing the service
   * holds is lost. A change sends nothing; the state must hold it before the removal, so set it and `up` first.
   */
  onDelete?: pulumi.Input<FlagOnDelete>;
}

/**
 * A feature flag of an application: it exists in every environment; its configuration in one environment is a
 * `FlagConfiguration`. An existing flag of the name with the same available values is taken over without a write.
 * Destroy deletes the flag, in every environment, or archives it there (`onDelete: "archive"`). Needs
 * `cloudbees:featureManagementToken`.
 */
export class Flag extends DynamicResource {
  declare readonly applicationId: pulumi.Output<string>;
  /** The flag's name: what `FlagConfiguration.flag` and a condition's `dependency.flag` take. */
  declare readonly name: pulumi.Output<string>;
  /** The flag's values, as the service holds them. */
  declare readonly availableValues: pulumi.Output<FlagOption[]>;
  declare readonly isPermanent: pulumi.Output<boolean>;
  /** As given (absent: `"delete"`). */
  declare readonly onDelete: pulumi.Output<FlagOnDelete | undefined>;
  /** When this stack last wrote (or took over) it: a refresh that finds drift names the changes the audit log has since. */
  declare readonly writtenAt: pulumi.Output<string>;
  /** The connection it lives on, as given (absent: `default`). */
  declare readonly connection: pulumi.Output<string | undefined>;

  constructor(name: string, args: FlagArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "flag",
      "Flag",
      name,
      { writtenAt: undefined, connection: args.connection, applicationId: args.applicationId, name: args.name, availableValues: args.availableValues, isPermanent: args.isPermanent, onDelete: args.onDelete },
      opts,
    );
  }
}
