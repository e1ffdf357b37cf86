import { requireText } from "../../provider/clients/inputs";
import type { Application } from "../../provider/clients/feature-management-schemas";
import { featureManagementOf, run, type FunctionOptions } from "./context";

/**
 * Every application of the feature-flag account (GET `/public-api/applications`).
 * Needs `cloudbees:featureManagementToken` (and `cloudbees:featureManagementUrl` off the default service). The
 * service allows one request per second: calls in one process are spaced, never refused.
 */
export async function getApplications(options?: FunctionOptions): Promise<Application[]> {
  return run("getApplications", {}, async (operation) => featureManagementOf(options, operation).client.listApplications());
}

/**
 * One application by id (GET `/public-api/applications/{applicationId}`). An unknown id is a NotFoundError.
 */
export async function getApplication(applicationId: string, options?: FunctionOptions): Promise<Application> {
  return run("getApplication", { applicationId }, async (operation) => {
    const id = requireText(applicationId, "applicationId", operation);
    return featureManagementOf(options, operation).client.getApplication(id);
  });
}
