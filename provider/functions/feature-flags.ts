import { lazyZod } from "../http/lazy-zod";
import { environmentListSchema, experimentListSchema, flagListSchema, flagSchema, targetGroupListSchema } from "../clients/feature-flag-schemas";
import { type AuditLog, type Environment, type Experiment, type Flag, type TargetGroup } from "../clients/feature-flag-types";
import { requireDate, requireSegment } from "../clients/inputs";
import { featureManagementOf, run, type FunctionOptions } from "./calls";
import { readableItems } from "../clients/readable-items";
import { defineFunction, type FunctionHost } from "./host";

// Loaded when the first schema is built, not with this module (lazy-zod.ts).
const z = lazyZod();

/**
 * Reads of an application's environments, flags, configurations and target groups: the same calls the resources
 * make, with the functions' settings. Needs `cloudbees:featureManagementToken` (and `cloudbees:featureManagementUrl`
 * off the default service). The service allows one request per second: calls in one process are spaced, never
 * refused. An environment is named by its name, as the API's paths take it (`Production`). Under `setMocks`, each
 * answers from the mocks' `call` with token `cloudbees:index:<function name>` and its named arguments as inputs, the
 * result parsed as the records the API answers.
 */

/** getEnvironments: documented on its TypeScript face (sdk/functions/feature-flags.ts), which the schema's description is made from. */
export async function getEnvironments(host: FunctionHost, applicationId: string, options?: FunctionOptions): Promise<Environment[]> {
  return run(host, GET_ENVIRONMENTS, { applicationId }, async (operation) =>
    readableItems(host, await featureManagementOf(host, options, operation).client.readEnvironmentList(applicationId), "environment", operation), options, (operation) =>
    requireSegments({ applicationId }, operation),
  );
}

/** getFlags: documented on its TypeScript face (sdk/functions/feature-flags.ts), which the schema's description is made from. */
export async function getFlags(host: FunctionHost, applicationId: string, environment: string, options?: FunctionOptions): Promise<Flag[]> {
  return run(host, GET_FLAGS, { applicationId, environment }, async (operation) =>
    readableItems(host, await featureManagementOf(host, options, operation).client.readFlagList(applicationId, environment), "flag", operation), options, (operation) =>
    requireSegments({ applicationId, environment }, operation),
  );
}

/** getFlag: documented on its TypeScript face (sdk/functions/feature-flags.ts), which the schema's description is made from. */
export async function getFlag(host: FunctionHost, applicationId: string, environment: string, flag: string, options?: FunctionOptions): Promise<Flag> {
  return run(host, GET_FLAG, { applicationId, environment, flag }, (operation) =>
    featureManagementOf(host, options, operation).client.getFlag(applicationId, environment, flag), options, (operation) =>
    requireSegments({ applicationId, environment, flag }, operation),
  );
}

/** getExperiments: documented on its TypeScript face (sdk/functions/feature-flags.ts), which the schema's description is made from. */
export async function getExperiments(host: FunctionHost, applicationId: string, environment: string, options?: FunctionOptions): Promise<Experiment[]> {
  return run(host, GET_EXPERIMENTS, { applicationId, environment }, async (operation) =>
    readableItems(host, await featureManagementOf(host, options, operation).client.readExperimentList(applicationId, environment), "experiment", operation), options, (operation) =>
    requireSegments({ applicationId, environment }, operation),
  );
}

/** getTargetGroups: documented on its TypeScript face (sdk/functions/feature-flags.ts), which the schema's description is made from. */
export async function getTargetGroups(host: FunctionHost, applicationId: string, options?: FunctionOptions): Promise<TargetGroup[]> {
  return run(host, GET_TARGET_GROUPS, { applicationId }, async (operation) =>
    readableItems(host, await featureManagementOf(host, options, operation).client.readTargetGroupList(applicationId), "target group", operation), options, (operation) =>
    requireSegments({ applicationId }, operation),
  );
}

function auditLogInfoSchema() {
  return z.object({
    id: z.string(),
    creationDate: z.string(),
    action: z.string().optional(),
    message: z.string().optional(),
    userName: z.string().optional(),
    userEmail: z.string().optional(),
    user: z.object({ id: z.string().optional(), email: z.string().optional(), name: z.string().optional(), picture: z.string().optional() }).optional(),
    application: z.string().optional(),
    experiment: z.string().optional(),
    environmentId: z.string().optional(),
  });
}

const GET_ENVIRONMENTS = defineFunction("getEnvironments", environmentListSchema);
const GET_FLAGS = defineFunction("getFlags", flagListSchema);
const GET_FLAG = defineFunction("getFlag", flagSchema);
const GET_EXPERIMENTS = defineFunction("getExperiments", experimentListSchema);
const GET_TARGET_GROUPS = defineFunction("getTargetGroups", targetGroupListSchema);
const GET_AUDIT_LOGS = defineFunction("getAuditLogs", () => z.array(auditLogInfoSchema()));

/** One audit-log record, camelCase (the wire's `_id` and `creation_date` are `id` and `creationDate`). */
export interface AuditLogInfo {
  /** The record's id. */
  id: string;
  /** When the change was made (ISO-8601). */
  creationDate: string;
  /** What was done, e.g. "turned targeting on". */
  action?: string;
  /** The change in words, e.g. "Flag 'x' set to targeting on". */
  message?: string;
  /** Who made it. */
  userName?: string;
  userEmail?: string;
  user?: { id?: string; email?: string; name?: string; picture?: string };
  /** The application's id. */
  application?: string;
  /** The experiment (flag configuration) it concerns, when it concerns one. */
  experiment?: string;
  /** The environment's id (its key). */
  environmentId?: string;
}

function auditLogInfoOf(r: AuditLog): AuditLogInfo {
  const out: AuditLogInfo = { id: r._id, creationDate: r.creation_date };
  for (const key of ["action", "message", "userName", "userEmail", "application", "experiment", "environmentId"] as const) {
    if (r[key] !== undefined) out[key] = r[key];
  }
  if (r.user) {
    const { _id, ...rest } = r.user;
    out.user = { ...(_id === undefined ? {} : { id: _id }), ...rest };
  }
  return out;
}

/** getAuditLogs: documented on its TypeScript face (sdk/functions/feature-flags.ts), which the schema's description is made from. */
export async function getAuditLogs(host: FunctionHost, applicationId: string, environment: string, startDate: Date | string, options?: FunctionOptions): Promise<AuditLogInfo[]> {
  // An invalid Date reads as itself in the error, not as toISOString's RangeError.
  const start = startDate instanceof Date && !Number.isNaN(startDate.getTime()) ? startDate.toISOString() : startDate;
  return run(host, GET_AUDIT_LOGS, { applicationId, environment, startDate: start }, async (operation) =>
    readableItems(host, await featureManagementOf(host, options, operation).client.readAuditLogList(applicationId, environment, startDate), "audit-log record", operation).map(auditLogInfoOf), options, (operation) => {
    requireSegments({ applicationId, environment }, operation);
    requireDate(startDate, "startDate", operation);
  });
}

/** Each argument that the API's paths take as one segment (an id, an environment's name, a flag's name), checked. */
function requireSegments(values: Record<string, unknown>, operation: string): void {
  for (const [input, value] of Object.entries(values)) requireSegment(value, input, operation);
}
