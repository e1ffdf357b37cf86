import type { Emulator } from "../emulator";
import { secret } from "./values";

/**
 * The stack config that points a program (and the providers) at an emulator, as `pulumi config set` would:
 * `cloudbees:operationsCenterUrl`, `cloudbees:username`, `cloudbees:apiToken` (secret),
 * `cloudbees:featureManagementUrl` and `cloudbees:featureManagementToken` (secret), for the emulator's admin user.
 */
export function emulatorStackConfig(emu: Emulator): Record<string, unknown> {
  return {
    "cloudbees:operationsCenterUrl": emu.operationsCenterUrl,
    "cloudbees:username": emu.credentials.admin.username,
    "cloudbees:apiToken": secret(emu.credentials.admin.apiToken),
    "cloudbees:featureManagementUrl": emu.featureManagementUrl,
    "cloudbees:featureManagementToken": secret(emu.credentials.featureManagementToken),
  };
}
