import type { z as Zod } from "zod";
import { lazyZod } from "../http/lazy-zod";
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
 * README its own generator wrote). Field names are the API's. Every schema is a factory, never a module-scope value:
 * a zod schema captured by a serialized Pulumi provider breaks serialization.
 *
 * Responses are parsed loosely where the service may add fields (unknown keys are dropped, not refused), and strictly
 * where a field's type decides behaviour (a value, a percentage, an operator).
 */

function option() {
  return z.union([z.string(), z.number(), z.boolean()]);
}

function percentage() {
  return z.number().min(0).max(100);
}

export function splitValueSchema() {
  return z.object({ option: option(), percentage: percentage().optional() });
}

export function scheduledValueSchema() {
  return z.object({ from: z.string().min(1), percentage: percentage().optional() });
}

export function flagValueSchema() {
  return z.union([option(), z.null(), z.array(splitValueSchema()), z.array(scheduledValueSchema())]);
}

function operand() {
  return z.union([z.string(), z.number(), z.array(z.string())]);
}

export function conditionSchema() {
  return z.object({
    dependency: z.object({ flag: z.string().min(1), value: option() }).optional(),
    group: z.object({ operator: z.enum(GROUP_OPERATORS).optional(), name: z.union([z.string(), z.array(z.string())]) }).optional(),
    version: z.object({ operator: z.enum(VERSION_OPERATORS), semver: z.string() }).optional(),
    property: z.object({ name: z.string().min(1), operator: z.enum(PROPERTY_OPERATORS), operand: operand().optional() }).optional(),
    value: flagValueSchema().optional(),
  });
}

export function platformSchema() {
  return z.object({
    name: z.string().min(1),
    flag: z.string().optional(),
    conditions: z.array(conditionSchema()).optional(),
    value: flagValueSchema().optional(),
  });
}

/** E1/E2: `{name, key, description}`; `key` is the environment's id and its SDK key. */
export function environmentSchema() {
  return z.object({ name: z.string().min(1), key: z.string().min(1), description: z.string().optional() });
}

export function environmentListSchema() {
  return z.array(environmentSchema());
}

/**
 * F1/F2: a flag as one environment sees it, with that environment's configuration. Clients of the real service read
 * `name`, `description`, `enabled` and `value`; the rest is the Flag Request's fields, echoed where the server has them.
 */
export function flagSchema() {
  return z.object({
    name: z.string().min(1),
    availableValues: z.array(option()).optional(),
    isPermanent: z.boolean().optional(),
    description: z.string().optional(),
    enabled: z.boolean().optional(),
    labels: z.array(z.string()).optional(),
    stickinessProperty: z.string().optional(),
    platforms: z.array(platformSchema()).optional(),
    conditions: z.array(conditionSchema()).optional(),
    value: flagValueSchema().optional(),
  });
}

export function flagListSchema() {
  return z.array(flagSchema());
}

/**
 * X1-X4: a flag's configuration in one environment, in the legacy experiment form. `flag` is the identity; `name`
 * is ignored by the service (the legacy rule).
 */
export function experimentSchema() {
  return z.object({
    version: z.string().optional(),
    type: z.literal("experiment").optional(),
    flag: z.string().min(1),
    name: z.string().optional(),
    availableValues: z.array(option()).optional(),
    description: z.string().optional(),
    enabled: z.boolean().optional(),
    labels: z.union([z.array(z.string()), z.string()]).optional(),
    stickinessProperty: z.string().optional(),
    platforms: z.array(platformSchema()).optional(),
    conditions: z.array(conditionSchema()).optional(),
    value: flagValueSchema().optional(),
  });
}

export function experimentListSchema() {
  return z.array(experimentSchema());
}

/** T1/T2. */
export function targetGroupSchema() {
  return z.object({
    version: z.string().optional(),
    type: z.literal("target-group").optional(),
    name: z.string().min(1),
    description: z.string().optional(),
    operator: z.enum(TARGET_GROUP_OPERATORS).optional(),
    conditions: z.array(z.object({ property: z.string().min(1), operator: z.enum(PROPERTY_OPERATORS), operand: operand().optional() })),
  });
}

export function targetGroupListSchema() {
  return z.array(targetGroupSchema());
}

/** L1: one audit-log record (the Jenkins plugin's sample). */
export function auditLogSchema() {
  return z.object({
    _id: z.string(),
    application: z.string().optional(),
    experiment: z.string().optional(),
    user: z.object({ _id: z.string().optional(), email: z.string().optional(), name: z.string().optional(), picture: z.string().optional() }).optional(),
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

/** U1-U3: a team member of the account (the notes' User schema). */
export function teamMemberSchema() {
  return z.object({
    email: z.string().min(1),
    name: z.string().optional(),
    teamAdmin: z.boolean().optional(),
    applications: z.record(z.string(), z.object({ environments: z.record(z.string(), z.enum(ENVIRONMENT_PERMISSIONS)).optional() })).optional(),
  });
}

export function teamMemberListSchema() {
  return z.array(teamMemberSchema());
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
