import * as pulumi from "@pulumi/pulumi";
import type { TargetGroupCondition, TargetGroupOperator } from "../../provider/clients/feature-flag-types";
import type { TargetGroupConditionInput } from "./feature-flag-inputs";
import type { ConnectionArgs } from "./connection-args";
import { DynamicResource } from "./dynamic-resource";

export interface TargetGroupArgs extends ConnectionArgs {
  /** The application's id: an `Application`'s `applicationId`. Changing it replaces the resource. */
  applicationId: pulumi.Input<string>;
  /** The group's name, which flag conditions name (`group: { name }`). Changing it replaces the resource. */
  name: pulumi.Input<string>;
  /** Compared and written only when given. */
  description?: pulumi.Input<string>;
  /** How the conditions combine: `and` (the service's default: all hold) or `or` (any holds). Compared only when given. */
  operator?: pulumi.Input<TargetGroupOperator>;
  /**
   * The tests, a set (order does not matter; at most 1,000): `{ property, operator, operand? }`, where `property` is
   * a custom property's name (`rox.<attribute>` for the built-in ones) and `operator` one of `is-undefined`,
   * `is-true`, `is-false` (no operand), `eq`, `ne`, `gt`, `gte`, `lt`, `lte`, `in-array` (a list of strings),
   * `regex` (a regular expression, sent as given: see FlagConfiguration's `property`), `semver-eq`, `semver-ne`,
   * `semver-gt`, `semver-gte`, `semver-lt`, `semver-lte` (a version, `"2.0.0"`). Left out or null: a group without
   * tests, as the service keeps some (the SDK then counts everyone in for `and`, no one for `or`).
   */
  conditions?: pulumi.Input<pulumi.Input<TargetGroupConditionInput>[] | null>;
}

/**
 * A target group of a feature-flag application: users picked by their properties, named in flag conditions. An
 * existing group of the name is taken over, written only where a given input differs. The API cannot delete
 * target groups: destroying the resource removes it from the stack and warns that it stays. Needs
 * `cloudbees:featureManagementToken`.
 */
export class TargetGroup extends DynamicResource {
  declare readonly applicationId: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly description: pulumi.Output<string | undefined>;
  declare readonly operator: pulumi.Output<TargetGroupOperator | undefined>;
  declare readonly conditions: pulumi.Output<TargetGroupCondition[] | null | undefined>;
  /** When this stack last wrote (or took over) it: a refresh that finds drift names the changes the audit log has since. */
  declare readonly writtenAt: pulumi.Output<string>;
  /** The connection it lives on, as given (absent: `default`). */
  declare readonly connection: pulumi.Output<string | undefined>;

  constructor(name: string, args: TargetGroupArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "targetGroup",
      "TargetGroup",
      name,
      { writtenAt: undefined, connection: args.connection, applicationId: args.applicationId, name: args.name, description: args.description, operator: args.operator, conditions: args.conditions },
      opts,
    );
  }
}
