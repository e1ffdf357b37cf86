import { requireText } from "../../provider/clients/inputs";
import { featureManagementOf, run, type FunctionOptions } from "./context";
import { applicationInfoOf, type ApplicationInfo } from "./results";

/**
 * Every application of the feature-flag account (GET `/public-api/applications`).
 * Needs `cloudbees:featureManagementToken` (and `cloudbees:featureManagementUrl` off the default service). The
 * service allows one request per second: calls in one process are spaced, never refused.
 */
export async function getApplications(options?: FunctionOptions): Promise<ApplicationInfo[]> {
  return run("getApplications", {}, async (operation) => (await featureManagementOf(options, operation).client.listApplications()).map(applicationInfoOf));
}

/**
 * One application by id (GET `/public-api/applications/{applicationId}`). An unknown id is a NotFoundError.
 */
export async function getApplication(applicationId: string, options?: FunctionOptions): Promise<ApplicationInfo> {
  return run("getApplication", { applicationId }, async (operation) => {
    const id = requireText(applicationId, "applicationId", operation);
    return applicationInfoOf(await featureManagementOf(options, operation).client.getApplication(id));
  });
}
