import * as core from "../../provider/functions/applications";
import type { FunctionOptions } from "../../provider/functions/calls";
import type { ApplicationInfo } from "../../provider/functions/results";
import { programHost } from "./host";

// The feature-flag account's applications: the TypeScript face of provider/functions/applications.ts, with the
// program's settings (host.ts).

/**
 * Every application of the feature-flag account (GET `/public-api/applications`).
 * Needs `cloudbees:featureManagementToken` (and `cloudbees:featureManagementUrl` off the default service). The
 * service allows one request per second: calls in one process are spaced, never refused. An application this version
 * cannot read is skipped, with a warning that names it and why; the others are returned.
 * Under `setMocks`: token `cloudbees:index:getApplications`.
 */
export async function getApplications(options?: FunctionOptions): Promise<ApplicationInfo[]> {
  return core.getApplications(programHost, options);
}

/**
 * One application by id (GET `/public-api/applications/{applicationId}`). An unknown id is a NotFoundError.
 * Under `setMocks`: token `cloudbees:index:getApplication`, inputs `{ applicationId }`.
 */
export async function getApplication(applicationId: string, options?: FunctionOptions): Promise<ApplicationInfo> {
  return core.getApplication(programHost, applicationId, options);
}
