import type { Emulator } from "../../emulator";
import { BLANK_ENV } from "../resources/helpers";

/**
 * The environment `pulumi-cloudbees import` runs in against `emu`: none of the runner's CLOUDBEES_* settings
 * (BLANK_ENV), the emulator's operations center and feature-flag account, and no spacing between requests (the
 * emulator's rate limit is off).
 */
export function cliEnvironment(emu: Emulator): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ...BLANK_ENV,
    CLOUDBEES_OPERATIONS_CENTER_URL: emu.operationsCenterUrl,
    CLOUDBEES_USERNAME: emu.credentials.admin.username,
    CLOUDBEES_API_TOKEN: emu.credentials.admin.apiToken,
    CLOUDBEES_FEATURE_MANAGEMENT_URL: emu.featureManagementUrl,
    CLOUDBEES_FEATURE_MANAGEMENT_TOKEN: emu.credentials.featureManagementToken,
    CLOUDBEES_FEATURE_MANAGEMENT_REQUEST_INTERVAL_MS: "0",
  };
}
