import type * as pulumi from "@pulumi/pulumi";
import type { FlagOption, GroupOperator, PropertyOperator, TargetGroupOperator, VersionOperator } from "../../provider/clients/feature-flag-types";

/**
 * The feature-flag service's value and condition forms as program inputs: the same fields as the API's records
 * (provider/clients/feature-flag-types.ts), each of which may be an Output of another resource (a target group's
 * `name`, a flag's `name`).
 */

/**
 * `percentage` % of users (0-100, default 100) get `option`, one of the flag's available values. An entry without
 * `option` (the service keeps `[{ percentage: 52 }]`) gives its share no value: the code's default (check warns).
 */
export interface SplitValueInput {
  option?: pulumi.Input<FlagOption>;
  percentage?: pulumi.Input<number>;
}

/**
 * From the ISO-8601 instant `from` on, `percentage` % of users (0-100, default 100) get `option` (default true; the
 * service writes every schedule with `option: true`). Boolean flags only.
 */
export interface ScheduledValueInput {
  from: pulumi.Input<string>;
  percentage?: pulumi.Input<number>;
  option?: pulumi.Input<boolean>;
}

/**
 * A flag value: one of the flag's available values, a percentage split `[{ option, percentage }]` (summing to at
 * most 100), a schedule `[{ from, percentage, option }]` (boolean flags only), or null (the flag's default from the
 * code).
 */
export type FlagValueInput = FlagOption | null | pulumi.Input<SplitValueInput>[] | pulumi.Input<ScheduledValueInput>[];

/** Holds when the other flag (by name) has this value. The flag must exist when the configuration is written. */
export interface DependencyClauseInput {
  flag: pulumi.Input<string>;
  value: pulumi.Input<FlagOption>;
}

/** Holds when the user is in the target group(s) named: `or` (default) any of them, `and` all, `not` or `nor` none. */
export interface GroupClauseInput {
  operator?: pulumi.Input<GroupOperator>;
  /** A target group's name, or a list of them (a set). The groups must exist when the configuration is written. */
  name: pulumi.Input<string> | pulumi.Input<pulumi.Input<string>[]>;
}

/**
 * Holds when the application's release version compares with `semver` ("2.0.0") by `operator` (`semver-gte`, ...).
 * The service also keeps null or a text that is not a version, which no release matches (check warns).
 */
export interface VersionClauseInput {
  operator: pulumi.Input<VersionOperator>;
  semver: pulumi.Input<string | null>;
}

/**
 * Holds when the custom property `name` compares with `operand` by `operator`: `is-undefined`, `is-true`, `is-false`
 * take no operand; `in-array` takes a list of strings; `regex` a regular expression (sent as given: one JavaScript
 * cannot compile, such as `*@example.com`, the service keeps, but the SDK cannot evaluate: check warns); `semver-*` a
 * version; `eq`, `ne`, `gt`, `gte`, `lt`, `lte` a string or a number.
 */
export interface PropertyClauseInput {
  name: pulumi.Input<string>;
  operator: pulumi.Input<PropertyOperator>;
  operand?: pulumi.Input<string | number | pulumi.Input<string>[]>;
}

/**
 * One rule of an ordered if / else-if chain: it holds when every clause it has holds, and then gives `value`. A
 * condition without a clause holds for everyone (the dashboard's "All users": `{ value: true }`).
 */
export interface ConditionInput {
  dependency?: pulumi.Input<DependencyClauseInput>;
  group?: pulumi.Input<GroupClauseInput>;
  version?: pulumi.Input<VersionClauseInput>;
  property?: pulumi.Input<PropertyClauseInput>;
  /** What the flag gives when the condition holds (same forms as a configuration's `value`); left out: the flag's default. */
  value?: pulumi.Input<FlagValueInput>;
}

/** The rules of one platform (as the SDK reports it: `Android`, `NodeJS`, ...), where it differs from the default. */
export interface PlatformInput {
  name: pulumi.Input<string>;
  conditions?: pulumi.Input<pulumi.Input<ConditionInput>[]>;
  value?: pulumi.Input<FlagValueInput>;
}

/** A target group's test: `property operator operand` (operators and operands as in PropertyClauseInput). */
export interface TargetGroupConditionInput {
  property: pulumi.Input<string>;
  operator: pulumi.Input<PropertyOperator>;
  operand?: pulumi.Input<string | number | pulumi.Input<string>[]>;
}

export type { FlagOption, TargetGroupOperator };
