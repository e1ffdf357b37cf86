import type { z as Zod } from "zod";
import { lazyZod } from "../http/lazy-zod";
import { readableListSchema } from "./readable-list";
import type { AllTrue, Same } from "../http/response-schema";
import {
  ENVIRONMENT_PERMISSIONS,
  GROUP_OPERATORS,
  PROPERTY_OPERATORS,
  TARGET_GROUP_OPERATORS,
  VERSION_OPERATORS,
  type Environment,
  type Flag,
  type Experiment,
  type TargetGroup,
  type AuditLog,
  type TeamMember,
} from "./feature-flag-types";

// Loaded when the first schema is built, not with this module (lazy-zod.ts).
const z = lazyZod();

/**
 * The feature-flag service's records beyond applications, as ../../../shared/notes/feature-management-api.md
 * section 3 gives them (the Experiment/Flag/TargetGroup schemas of the vendor's docs and of the configuration-as-code
 * README its own generator wrote), widened to every form the service itself wrote (rollout/sound-redux-cac, the
 * corpus of test/fixtures/real-experiments). Field names are the API's. Every schema is a factory, never a
 * module-scope value: a zod schema captured by a serialized Pulumi provider breaks serialization.
 *
 * Reading is tolerant and loses nothing: fields this package has no name for are kept as they came (`looseObject`),
 * a list may be null; a field's type is checked where it decides behaviour (a value, a percentage, an operator).
 */

function option() {
  return z.union([z.string(), z.number(), z.boolean()]);
}

function percentage() {
  return z.number().min(0).max(100);
}

/** A list the service may send as null. */
function list<T extends Zod.ZodType>(item: T) {
  return z.array(item).nullable();
}

export function splitValueSchema() {
  return z.looseObject({ option: option().optional(), percentage: percentage().optional() });
}

export function scheduledValueSchema() {
  return z.looseObject({ from: z.string().min(1), percentage: percentage().optional(), option: option().optional() });
}

/** A schedule is a list whose every entry has `from` (tried first: a split entry takes any other object). */
export function flagValueSchema() {
  return z.union([option(), z.null(), z.array(scheduledValueSchema()), z.array(splitValueSchema())]);
}

function operand() {
  return z.union([z.string(), z.number(), z.array(z.string())]);
}

export function conditionSchema() {
  return z.looseObject({
    dependency: z.looseObject({ flag: z.string().min(1), value: option() }).optional(),
    group: z.looseObject({ operator: z.enum(GROUP_OPERATORS).optional(), name: z.union([z.string(), z.array(z.string())]) }).optional(),
    version: z.looseObject({ operator: z.enum(VERSION_OPERATORS), semver: z.string().nullable() }).optional(),
    property: z.looseObject({ name: z.string().min(1), operator: z.enum(PROPERTY_OPERATORS), operand: operand().optional() }).optional(),
    value: flagValueSchema().optional(),
  });
}

export function platformSchema() {
  return z.looseObject({
    name: z.string().min(1),
    flag: z.string().optional(),
    conditions: list(conditionSchema()).optional(),
    value: flagValueSchema().optional(),
  });
}

/** E1/E2: `{name, key, description}`; `key` is the environment's id and its SDK key. */
export function environmentSchema() {
  return z.looseObject({ name: z.string().min(1), key: z.string().min(1), description: z.string().optional() });
}

export function environmentListSchema() {
  return z.array(environmentSchema());
}

/** E1, one environment at a time (the functions' reads). */
export function readableEnvironmentListSchema() {
  return readableListSchema(environmentSchema, "name");
}

/**
 * E2's answer: the new environment's key itself (what the real service answers: cb-demos/fm-initializer's "Fixing
 * key issue" reads the body as the key), as a JSON string; or, tolerantly, the environment object; or nothing (""
 * here: a 204 No Content, or an empty string), when the key must be read back.
 */
export function environmentKeyAnswerSchema() {
  return z.union([z.literal(""), environmentKeySchema(), environmentSchema()]);
}

/** An SDK key as a body carries it: an id (a real one is 24 hex digits, or a UUID on the CloudBees platform). */
export function environmentKeySchema() {
  return z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,255}$/, "is not an environment key (letters, digits, '.', '_' and '-', at most 256)");
}

/**
 * F1/F2: a flag as one environment sees it, with that environment's configuration. Clients of the real service read
 * `name`, `description`, `enabled` and `value`; the rest is the Flag Request's fields, echoed where the server has them.
 */
export function flagSchema() {
  return z.looseObject({
    name: z.string().min(1),
    availableValues: list(option()).optional(),
    isPermanent: z.boolean().optional(),
    description: z.string().optional(),
    enabled: z.boolean().optional(),
    labels: z.union([list(z.string()), z.string()]).optional(),
    stickinessProperty: z.string().optional(),
    platforms: list(platformSchema()).optional(),
    conditions: list(conditionSchema()).optional(),
    value: flagValueSchema().optional(),
    archived: z.boolean().optional(),
  });
}

export function flagListSchema() {
  return z.array(flagSchema());
}

/** F1, one flag at a time. */
export function readableFlagListSchema() {
  return readableListSchema(flagSchema, "name");
}

/**
 * X1-X4: a flag's configuration in one environment, in the legacy experiment form. `flag` is the identity; `name`
 * is ignored by the service (the legacy rule).
 */
export function experimentSchema() {
  return z.looseObject({
    version: z.string().optional(),
    type: z.literal("experiment").optional(),
    flag: z.string().min(1),
    name: z.string().optional(),
    availableValues: list(option()).optional(),
    description: z.string().optional(),
    enabled: z.boolean().optional(),
    labels: z.union([list(z.string()), z.string()]).optional(),
    stickinessProperty: z.string().optional(),
    platforms: list(platformSchema()).optional(),
    conditions: list(conditionSchema()).optional(),
    value: flagValueSchema().optional(),
    archived: z.boolean().optional(),
  });
}

export function experimentListSchema() {
  return z.array(experimentSchema());
}

/** X1, one experiment at a time (readable-list.ts), each named by its flag. */
export function readableExperimentListSchema() {
  return readableListSchema(experimentSchema, "flag");
}

/** T1/T2. */
export function targetGroupSchema() {
  return z.looseObject({
    version: z.string().optional(),
    type: z.literal("target-group").optional(),
    name: z.string().min(1),
    description: z.string().optional(),
    operator: z.enum(TARGET_GROUP_OPERATORS).optional(),
    conditions: list(z.looseObject({ property: z.string().min(1), operator: z.enum(PROPERTY_OPERATORS), operand: operand().optional() })).optional(),
  });
}

export function targetGroupListSchema() {
  return z.array(targetGroupSchema());
}

/** T1, one target group at a time. */
export function readableTargetGroupListSchema() {
  return readableListSchema(targetGroupSchema, "name");
}

/** L1: one audit-log record (the Jenkins plugin's sample). */
export function auditLogSchema() {
  return z.looseObject({
    _id: z.string(),
    application: z.string().optional(),
    experiment: z.string().optional(),
    user: z.looseObject({ _id: z.string().optional(), email: z.string().optional(), name: z.string().optional(), picture: z.string().optional() }).optional(),
    userName: z.string().optional(),
    userEmail: z.string().optional(),
    action: z.string().optional(),
    message: z.string().optional(),
    environmentId: z.string().optional(),
    creation_date: z.string(),
    __v: z.number().optional(),
  });
}

export function auditLogListSchema() {
  return z.array(auditLogSchema());
}

/** L1, one record at a time (the drift reports' reads), each named by its `_id`. */
export function readableAuditLogListSchema() {
  return readableListSchema(auditLogSchema, "_id");
}

/** U1-U3: a team member of the account (the notes' User schema). */
export function teamMemberSchema() {
  return z.looseObject({
    email: z.string().min(1),
    name: z.string().optional(),
    teamAdmin: z.boolean().optional(),
    applications: z.record(z.string(), z.object({ environments: z.record(z.string(), z.enum(ENVIRONMENT_PERMISSIONS)).optional() })).optional(),
  });
}

export function teamMemberListSchema() {
  return z.array(teamMemberSchema());
}

/** U1, one team member at a time (the functions' reads). */
export function readableTeamMemberListSchema() {
  return readableListSchema(teamMemberSchema, "email");
}

// Each record type (feature-flag-types.ts) is exactly what its schema returns.
export type TypesMatchSchemas = AllTrue<
  [
    Same<Zod.infer<ReturnType<typeof environmentSchema>>, Environment>,
    Same<Zod.infer<ReturnType<typeof flagSchema>>, Flag>,
    Same<Zod.infer<ReturnType<typeof experimentSchema>>, Experiment>,
    Same<Zod.infer<ReturnType<typeof targetGroupSchema>>, TargetGroup>,
    Same<Zod.infer<ReturnType<typeof auditLogSchema>>, AuditLog>,
    Same<Zod.infer<ReturnType<typeof teamMemberSchema>>, TeamMember>,
  ]
>;
