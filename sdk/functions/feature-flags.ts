import * as core from "../../provider/functions/feature-flags";
import type { Environment, Experiment, Flag, TargetGroup } from "../../provider/clients/feature-flag-types";
import type { FunctionOptions } from "../../provider/functions/calls";
import type { AuditLogInfo } from "../../provider/functions/feature-flags";
import { programHost } from "./host";

// The reads of an application's environments, flags, configurations, target groups and audit log: the TypeScript
// face of provider/functions/feature-flags.ts, with the program's settings (host.ts).

/**
 * The application's environments (GET `/public-api/applications/{applicationId}/environments`). `key` is the SDK key.
 * An environment this version cannot read is skipped, with a warning that names it and why; the others are returned.
 */
export async function getEnvironments(applicationId: string, options?: FunctionOptions): Promise<Environment[]> {
  return core.getEnvironments(programHost, applicationId, options);
}

/**
 * Every flag of the application with its configuration in `environment`, configured or not
 * (GET `/public-api/applications/{applicationId}/{environment}/flags`).
 * A flag this version cannot read is skipped, with a warning that names it and why; the others are returned.
 */
export async function getFlags(applicationId: string, environment: string, options?: FunctionOptions): Promise<Flag[]> {
  return core.getFlags(programHost, applicationId, environment, options);
}

/** One flag with its configuration in `environment` (GET `.../{environment}/flags/{flag}`). Unknown: NotFoundError. */
export async function getFlag(applicationId: string, environment: string, flag: string, options?: FunctionOptions): Promise<Flag> {
  return core.getFlag(programHost, applicationId, environment, flag, options);
}

/**
 * The flags configured in `environment`, in the legacy experiment form (GET `.../{environment}/experiments`): a flag
 * that exists but is not configured there is not in this list (it is in getFlags). An experiment this version cannot
 * read is skipped, with a warning that names it and why; the others are returned.
 */
export async function getExperiments(applicationId: string, environment: string, options?: FunctionOptions): Promise<Experiment[]> {
  return core.getExperiments(programHost, applicationId, environment, options);
}

/**
 * The application's target groups (GET `/public-api/applications/{applicationId}/target-groups`). A target group this
 * version cannot read is skipped, with a warning that names it and why; the others are returned.
 */
export async function getTargetGroups(applicationId: string, options?: FunctionOptions): Promise<TargetGroup[]> {
  return core.getTargetGroups(programHost, applicationId, options);
}

/**
 * The audit-log records of `environment` since `startDate` (GET `.../{environment}/auditlogs?startDate=<ISO-8601>`).
 * The service answers at most 30 records a call: ask again from the last record's `creationDate` for more.
 */
export async function getAuditLogs(applicationId: string, environment: string, startDate: Date | string, options?: FunctionOptions): Promise<AuditLogInfo[]> {
  return core.getAuditLogs(programHost, applicationId, environment, startDate, options);
}
