import type { EnvironmentRequest, ExperimentRequest, FlagConfigurationRequest, FlagCreateRequest, TargetGroupRequest, TeamMemberRequest } from "./feature-flag-types";

/**
 * What a write of the feature-flag service sends: only the fields the API defines
 * (../../../shared/notes/feature-management-api.md section 3: Experiment, Flag Request, Basic Flag, TargetGroup,
 * Condition, Platform, SplitedValue, ScheduledValue, User; E2's `{name, description}`), at every depth. A record read
 * from the service keeps every field it came with (the schemas read loosely), and callers build requests from such
 * records (a configuration sent back whole, with one input changed): a field the API does not define (`_links`, an
 * `_id`) is the service's own, and a service that refuses unknown fields refuses the write that echoes it (400
 * "_links: unknown field"). So each request passes through here on its way out, whatever built it.
 */

type Json = Record<string, unknown>;

const isRecord = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** `value` with only `keys` (those present), each through its own shaping when one is given. */
function only(value: unknown, keys: readonly string[], shape: Record<string, (v: unknown) => unknown> = {}): unknown {
  if (!isRecord(value)) return value;
  const out: Json = {};
  for (const k of keys) if (value[k] !== undefined) out[k] = shape[k] ? shape[k]!(value[k]) : value[k];
  return out;
}

const eachOf = (item: (v: unknown) => unknown) => (v: unknown) => (Array.isArray(v) ? v.map(item) : v);

/** A flag value: an option, null, a split `[{option, percentage}]` or a schedule `[{from, percentage, option}]`. */
const flagValue = eachOf((entry) => only(entry, "from" in (isRecord(entry) ? entry : {}) ? ["from", "percentage", "option"] : ["option", "percentage"]));

const condition = (c: unknown): unknown =>
  only(c, ["dependency", "group", "version", "property", "value"], {
    dependency: (d) => only(d, ["flag", "value"]),
    group: (g) => only(g, ["operator", "name"]),
    version: (v) => only(v, ["operator", "semver"]),
    property: (p) => only(p, ["name", "operator", "operand"]),
    value: flagValue,
  });

const conditions = eachOf(condition);

const platform = (p: unknown): unknown => only(p, ["name", "flag", "conditions", "value"], { conditions, value: flagValue });

const CONFIGURATION = { platforms: eachOf(platform), conditions, value: flagValue };

const CONFIGURATION_FIELDS = ["description", "enabled", "labels", "stickinessProperty", "platforms", "conditions", "value", "archived"] as const;

/** X3's Experiment. */
export function experimentRequest(e: ExperimentRequest): ExperimentRequest {
  return only(e, ["version", "type", "flag", "name", "availableValues", ...CONFIGURATION_FIELDS], CONFIGURATION) as ExperimentRequest;
}

/** F4's Flag Request. */
export function flagConfigurationRequest(f: FlagConfigurationRequest): FlagConfigurationRequest {
  return only(f, ["name", "availableValues", "isPermanent", ...CONFIGURATION_FIELDS], CONFIGURATION) as FlagConfigurationRequest;
}

/** F3's Basic Flag. */
export function flagCreateRequest(f: FlagCreateRequest): FlagCreateRequest {
  return only(f, ["name", "availableValues", "isPermanent"]) as FlagCreateRequest;
}

/** T2's TargetGroup. */
export function targetGroupRequest(g: TargetGroupRequest): TargetGroupRequest {
  return only(g, ["version", "type", "name", "description", "operator", "conditions"], {
    conditions: eachOf((c) => only(c, ["property", "operator", "operand"])),
  }) as TargetGroupRequest;
}

/** E2's `{name, description}`. */
export function environmentRequest(e: EnvironmentRequest): EnvironmentRequest {
  return only(e, ["name", "description"]) as EnvironmentRequest;
}

/** U3's User: permissions by application id, then by environment name. */
export function teamMemberRequest(m: TeamMemberRequest): TeamMemberRequest {
  const applications = (apps: unknown): unknown =>
    isRecord(apps) ? Object.fromEntries(Object.entries(apps).map(([id, a]) => [id, only(a, ["environments"])])) : apps;
  return only(m, ["email", "name", "teamAdmin", "applications"], { applications }) as TeamMemberRequest;
}
