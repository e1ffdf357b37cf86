/**
 * The feature-flag service's records, requests, bounds and vocabularies (../../../shared/notes/feature-management-api.md
 * section 3), as plain types and constants, without zod: these reach the published declarations, and zod's own do not
 * compile in a project without esModuleInterop (Pulumi's template). feature-flag-schemas.ts parses responses into
 * these types and checks at compile time that each schema returns exactly its type.
 */

/**
 * What the service fills in where a request leaves a field out: the defaults of the configuration-as-code README and the
 * docs' Flag Request (note section 3). One place for the emulator that applies them, the resources that compare
 * against them, the import that leaves them out of a program, and the SDK translation.
 */
export const SERVICE_DEFAULTS = {
  availableValues: [false, true] as readonly FlagOption[],
  description: "",
  enabled: true,
  labels: [] as readonly string[],
  stickinessProperty: "rox.distinct_id",
  platforms: [] as readonly never[],
  conditions: [] as readonly never[],
  /** Of a split or a schedule entry. */
  percentage: 100,
  /** How a condition's group clause combines its groups. */
  groupOperator: "or",
  /** How a target group combines its conditions. */
  targetGroupOperator: "and",
} as const;

/** A boolean flag offers exactly the booleans false and true (the strings "true" and "false" make a string flag). */
export function isBooleanFlag(availableValues: readonly FlagOption[] = SERVICE_DEFAULTS.availableValues): boolean {
  return availableValues.length === 2 && availableValues.includes(true) && availableValues.includes(false);
}

/**
 * Bounds of what one request may carry (no public source gives the service's own): the emulator refuses past them,
 * and the resources' checks refuse the same at preview, so that a preview that passes never fails at `up`.
 */
export const FEATURE_FLAG_LIMITS = {
  nameLength: 255,
  descriptionLength: 4096,
  availableValues: 1000,
  labels: 100,
  platforms: 100,
  /** The bound: a chain of conditions, or a target group's. */
  conditions: 1000,
  /** Entries of a split or a schedule. */
  valueParts: 100,
  groupNames: 100,
  operandItems: 1000,
} as const;

/**
 * A release version as apps report it (a version clause, a `semver-*` operand): 1 to 3 dot-separated numbers, optional
 * -prerelease and +build ("2", "2.1" and "2.1.0-rc.1").
 */
export function isVersionText(text: string): boolean {
  return /^\d+(\.\d+){0,2}(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/.test(text);
}

/** Operators of a target group's conditions and of an inline `property` clause. */
export const PROPERTY_OPERATORS = [
  "is-undefined",
  "is-true",
  "is-false",
  "eq",
  "ne",
  "gt",
  "gte",
  "lt",
  "lte",
  "in-array",
  "regex",
  "semver-eq",
  "semver-ne",
  "semver-gt",
  "semver-gte",
  "semver-lt",
  "semver-lte",
] as const;
export type PropertyOperator = (typeof PROPERTY_OPERATORS)[number];

/** The operators that take no operand. */
export const OPERATORS_WITHOUT_OPERAND: readonly PropertyOperator[] = ["is-undefined", "is-true", "is-false"];

/** Operators of a condition's `version` clause (the application's release version, semver). */
export const VERSION_OPERATORS = ["semver-eq", "semver-ne", "semver-gt", "semver-gte", "semver-lt", "semver-lte"] as const;
export type VersionOperator = (typeof VERSION_OPERATORS)[number];

/**
 * How a condition's `group` clause combines its target groups. Default `or`: any of them; `and`: all; `not` (the
 * docs) and `nor` (what the service itself writes, "matches none of"): none.
 */
export const GROUP_OPERATORS = ["or", "and", "not", "nor"] as const;
export type GroupOperator = (typeof GROUP_OPERATORS)[number];

/** How a target group combines its conditions. Default `and`. */
export const TARGET_GROUP_OPERATORS = ["and", "or"] as const;
export type TargetGroupOperator = (typeof TARGET_GROUP_OPERATORS)[number];

/** A value a flag can deliver: a boolean flag's true/false, a string or number flag's option. */
export type FlagOption = string | number | boolean;

/**
 * Fields the service sent that this package has no name for: kept as they came, so that a read loses nothing
 * (records read from the service carry them; requests need none).
 */
export interface UnknownFields {
  [field: string]: unknown;
}

/**
 * `[{option, percentage}]`: `percentage` % of users (default 100) get `option`. The service also wrote entries with
 * only `percentage` (`[{percentage: 52}]`: that share gets no value of its own, the code's default).
 */
export interface SplitValue extends UnknownFields {
  option?: FlagOption;
  percentage?: number;
}

/**
 * `[{from, percentage, option}]`: from `from` (an ISO-8601 date) on, `percentage` % of users (default 100) get
 * `option` (true when absent). Boolean flags only. Every schedule the service wrote carries `option: true`.
 */
export interface ScheduledValue extends UnknownFields {
  from: string;
  percentage?: number;
  option?: FlagOption;
}

/** A flag's value: a plain option, a percentage split, a schedule, or null (the SDK's default from code). */
export type FlagValue = FlagOption | SplitValue[] | ScheduledValue[] | null;

export interface DependencyClause extends UnknownFields {
  /** The other flag's name. */
  flag: string;
  /** The clause holds when the other flag's value equals this (the service writes it as text: `"true"`). */
  value: FlagOption;
}

export interface GroupClause extends UnknownFields {
  /** Default `or`. */
  operator?: GroupOperator;
  /** Target-group name(s). */
  name: string | string[];
}

export interface VersionClause extends UnknownFields {
  operator: VersionOperator;
  /**
   * The version compared with: usually `"2.0.0"`; the service also kept texts that are not versions (`"1,2,0"`) and
   * null ("Version >= null" in its audit log), which no release matches.
   */
  semver: string | null;
}

export interface PropertyClause extends UnknownFields {
  /** The custom property's name (`rox.<attribute>` for the built-in ones). */
  name: string;
  operator: PropertyOperator;
  operand?: string | number | string[];
}

/**
 * One rule of an if / else-if chain: every present clause must hold, then `value` applies. A condition without a
 * clause always holds (the dashboard's "All users"; the service wrote `{value}` and `{}`); one without `value` gives
 * the flag's default (false for a boolean flag).
 */
export interface Condition extends UnknownFields {
  dependency?: DependencyClause;
  group?: GroupClause;
  version?: VersionClause;
  property?: PropertyClause;
  value?: FlagValue;
}

export interface Platform extends UnknownFields {
  name: string;
  /** Deprecated by the service: an override flag name. */
  flag?: string;
  conditions?: Condition[] | null;
  /** Absent: the platform's conditions fall through to the default platform's rules. */
  value?: FlagValue;
}

/** A target group's condition: `property operator operand`. */
export interface TargetGroupCondition extends UnknownFields {
  property: string;
  operator: PropertyOperator;
  operand?: string | number | string[];
}

/** E1/E2: an environment; `key` is its id and its SDK key. */
export interface Environment extends UnknownFields {
  name: string;
  key: string;
  description?: string;
}

/**
 * F1/F2: a flag as one environment sees it, with that environment's configuration. Clients of the real service read
 * `name`, `description`, `enabled` and `value`; the rest is the Flag Request's fields, echoed where the server has them.
 */
export interface Flag extends UnknownFields {
  name: string;
  availableValues?: FlagOption[] | null;
  isPermanent?: boolean;
  description?: string;
  enabled?: boolean;
  /** A list, or (as the service wrote some) one label as text. */
  labels?: string[] | string | null;
  stickinessProperty?: string;
  platforms?: Platform[] | null;
  conditions?: Condition[] | null;
  value?: FlagValue;
  archived?: boolean;
}

/**
 * X1-X4: a flag's configuration in one environment, in the legacy experiment form. `flag` is the identity; `name`
 * is ignored by the service (the legacy rule).
 */
export interface Experiment extends UnknownFields {
  version?: string;
  type?: "experiment";
  flag: string;
  name?: string;
  /** The service wrote `[]` and lists holding `""` too. */
  availableValues?: FlagOption[] | null;
  description?: string;
  enabled?: boolean;
  /** A list, or (as the service wrote some) one label as text. */
  labels?: string[] | string | null;
  stickinessProperty?: string;
  platforms?: Platform[] | null;
  conditions?: Condition[] | null;
  value?: FlagValue;
  /** An archived experiment (the service wrote `archived: true`). */
  archived?: boolean;
}

/** T1/T2: a target group. */
export interface TargetGroup extends UnknownFields {
  version?: string;
  type?: "target-group";
  name: string;
  description?: string;
  operator?: TargetGroupOperator;
  /** The service also kept a group whose conditions are null or absent. */
  conditions?: TargetGroupCondition[] | null;
}

/** L1: one audit-log record (the Jenkins plugin's sample). */
export interface AuditLog extends UnknownFields {
  _id: string;
  application?: string;
  experiment?: string;
  user?: { _id?: string; email?: string; name?: string; picture?: string };
  userName?: string;
  userEmail?: string;
  action?: string;
  message?: string;
  environmentId?: string;
  creation_date: string;
  __v?: number;
}

/** U1-U3: a team member of the account (the notes' User schema); a listed member may omit any field but `email`. */
export interface TeamMember extends UnknownFields {
  email: string;
  name?: string;
  teamAdmin?: boolean;
  applications?: Record<string, { environments?: Record<string, EnvironmentPermission> }>;
}

/** What E2 takes. */
export interface EnvironmentRequest {
  name: string;
  description?: string;
}

/** F3 ("Basic Flag"): creates the flag in every environment. */
export interface FlagCreateRequest {
  name: string;
  /** Default `[true, false]`. */
  availableValues?: FlagOption[];
  /** Default false. */
  isPermanent?: boolean;
}

/** F4 ("Flag Request"): the flag's configuration in one environment. */
export interface FlagConfigurationRequest {
  name: string;
  availableValues?: FlagOption[];
  description?: string;
  enabled?: boolean;
  isPermanent?: boolean;
  labels?: string[] | string;
  stickinessProperty?: string;
  platforms?: Platform[];
  conditions?: Condition[];
  value?: FlagValue;
  archived?: boolean;
}

/** What X3 takes: `type: "experiment"` and `flag` are required. */
export interface ExperimentRequest {
  version?: string;
  type: "experiment";
  flag: string;
  name?: string;
  availableValues?: FlagOption[];
  description?: string;
  enabled?: boolean;
  labels?: string[] | string;
  stickinessProperty?: string;
  platforms?: Platform[];
  conditions?: Condition[];
  value?: FlagValue;
  archived?: boolean;
}

/** One RFC 6902 operation of X4. */
export interface JsonPatchOperation {
  op: "add" | "remove" | "replace" | "move" | "copy" | "test";
  path: string;
  value?: unknown;
  from?: string;
}

/** What T2 takes: `type: "target-group"`, the name, and the conditions. */
export interface TargetGroupRequest {
  version?: string;
  type: "target-group";
  name: string;
  description?: string;
  operator?: TargetGroupOperator;
  /** null (or left out): a group without conditions, as the service kept some. */
  conditions?: TargetGroupCondition[] | null;
}

/** A team member's permission on one environment of an application. */
export const ENVIRONMENT_PERMISSIONS = ["read", "write"] as const;
export type EnvironmentPermission = (typeof ENVIRONMENT_PERMISSIONS)[number];

/** A team member's permissions: application id -> `{environments: {<environment name>: "read" | "write"}}`. */
export type TeamMemberApplications = Record<string, { environments: Record<string, EnvironmentPermission> }>;

/** What U3 (PUT /users, create or update) takes. */
export interface TeamMemberRequest {
  email: string;
  name?: string;
  teamAdmin?: boolean;
  applications?: TeamMemberApplications;
}
