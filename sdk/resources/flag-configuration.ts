import * as pulumi from "@pulumi/pulumi";
import type { Condition, FlagValue, Platform } from "../../provider/clients/feature-flag-types";
import type { ConditionInput, FlagValueInput, PlatformInput } from "./feature-flag-inputs";
import type { ConnectionArgs } from "./connection-args";
import { DynamicResource } from "./dynamic-resource";

export interface FlagConfigurationArgs extends ConnectionArgs {
  /** The application's id: an `Application`'s `applicationId`. Changing it replaces the resource. */
  applicationId: pulumi.Input<string>;
  /** The environment's name (an `Environment`'s `name`, or `Production`). Changing it replaces the resource. */
  environment: pulumi.Input<string>;
  /** The flag's name (a `Flag`'s `name`: pass the output, so that the flag exists first). Changing it replaces the resource. */
  flag: pulumi.Input<string>;
  /**
   * Targeting on (true, the service's default) or off: every user then gets the flag's off value, `false` for a
   * boolean flag and the default from the code for a string or number flag (what the vendor's SDK does).
   */
  enabled?: pulumi.Input<boolean>;
  /**
   * The value when no condition matches:
   * - one of the flag's available values (`true`, `"green"`);
   * - a percentage split `[{ option, percentage }]`: `percentage` % of users (default 100) get `option`; the
   *   percentages sum to at most 100, e.g. `[{ option: true, percentage: 50 }]`;
   * - a schedule `[{ from, percentage, option }]` (boolean flags only): from the ISO-8601 instant `from` on,
   *   `percentage` % of users get `option` (default true);
   * - null: the flag's default from the code.
   * The service's default is false for a boolean flag, null otherwise.
   */
  value?: pulumi.Input<FlagValueInput>;
  /**
   * An ordered if / else-if chain (the first condition that holds wins; at most 1,000). Each condition holds when
   * every clause it has holds, and then gives its `value` (same forms as above):
   * - `group: { name, operator? }`: the user is in the target group(s) named (`or`, the default: any of them;
   *   `and`: all; `not` or `nor`: none);
   * - `dependency: { flag, value }`: another flag has this value;
   * - `version: { operator, semver }`: the application's release version compares (`semver-gte`, `"2.0.0"`);
   * - `property: { name, operator, operand? }`: a custom property compares (`eq`, `in-array`, `regex`, ... the
   *   target groups' operators). A named group or flag must exist when the configuration is written.
   * A condition without a clause holds for everyone (`{ value: true }`, the dashboard's "All users").
   */
  conditions?: pulumi.Input<pulumi.Input<ConditionInput>[]>;
  /** Per-platform rules `[{ name, conditions?, value? }]` (a set by name), for platforms that differ from the default. */
  platforms?: pulumi.Input<pulumi.Input<PlatformInput>[]>;
  /** Labels, a set; or one label as text, as the service writes some. */
  labels?: pulumi.Input<pulumi.Input<string>[] | string>;
  description?: pulumi.Input<string>;
  /** The custom property whose value seeds percentage splits. The service's default is `rox.distinct_id`. */
  stickinessProperty?: pulumi.Input<string>;
  /** An archived experiment, as the service marks one (`archived: true`). Compared only when given (absent: false). */
  archived?: pulumi.Input<boolean>;
}

/**
 * A flag's configuration in one environment (the legacy API's "experiment" of the flag there): on/off, its value,
 * its conditions, per-platform rules. Only the inputs given are compared and written: what is set in the UI for the
 * others is neither drift nor overwritten. Destroy removes the configuration in that environment; the flag stays.
 * Needs `cloudbees:featureManagementToken`.
 */
export class FlagConfiguration extends DynamicResource {
  declare readonly applicationId: pulumi.Output<string>;
  declare readonly environment: pulumi.Output<string>;
  declare readonly flag: pulumi.Output<string>;
  declare readonly enabled: pulumi.Output<boolean | undefined>;
  declare readonly value: pulumi.Output<FlagValue | undefined>;
  declare readonly conditions: pulumi.Output<Condition[] | undefined>;
  declare readonly platforms: pulumi.Output<Platform[] | undefined>;
  declare readonly labels: pulumi.Output<string[] | string | undefined>;
  declare readonly description: pulumi.Output<string | undefined>;
  declare readonly stickinessProperty: pulumi.Output<string | undefined>;
  declare readonly archived: pulumi.Output<boolean | undefined>;
  /** When this stack last wrote (or took over) it: a refresh that finds drift names the changes the audit log has since. */
  declare readonly writtenAt: pulumi.Output<string>;
  /** The connection it lives on, as given (absent: `default`). */
  declare readonly connection: pulumi.Output<string | undefined>;

  constructor(name: string, args: FlagConfigurationArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "flagConfiguration",
      "FlagConfiguration",
      name,
      { writtenAt: undefined,
        connection: args.connection,
        applicationId: args.applicationId,
        environment: args.environment,
        flag: args.flag,
        enabled: args.enabled,
        value: args.value,
        conditions: args.conditions,
        platforms: args.platforms,
        labels: args.labels,
        description: args.description,
        stickinessProperty: args.stickinessProperty,
        archived: args.archived,
      },
      opts,
    );
  }
}
