import { requireSegment } from "../clients/inputs";
import { lazyZod } from "../http/lazy-zod";
import { featureManagementOf, run, type FunctionOptions } from "./calls";
import { readableItems } from "../clients/readable-items";
import { defineFunction, type FunctionHost } from "./host";
import { applicationInfoSchema } from "./result-schemas";
import { applicationInfoOf, type ApplicationInfo } from "./results";

// Loaded when the first schema is built, not with this module (lazy-zod.ts).
const z = lazyZod();

const GET_APPLICATIONS = defineFunction("getApplications", () => z.array(applicationInfoSchema()));
const GET_APPLICATION = defineFunction("getApplication", applicationInfoSchema);

/** getApplications: documented on its TypeScript face (sdk/functions/applications.ts), which the schema's description is made from. */
export async function getApplications(host: FunctionHost, options?: FunctionOptions): Promise<ApplicationInfo[]> {
  return run(host, GET_APPLICATIONS, {}, async (operation) =>
    readableItems(host, await featureManagementOf(host, options, operation).client.readApplicationList(), "application", operation).map(applicationInfoOf), options);
}

/** getApplication: documented on its TypeScript face (sdk/functions/applications.ts), which the schema's description is made from. */
export async function getApplication(host: FunctionHost, applicationId: string, options?: FunctionOptions): Promise<ApplicationInfo> {
  return run(
    host,
    GET_APPLICATION,
    { applicationId },
    async (operation) => applicationInfoOf(await featureManagementOf(host, options, operation).client.getApplication(applicationId)),
    options,
    (operation) => requireSegment(applicationId, "applicationId", operation),
  );
}
