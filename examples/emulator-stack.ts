import type { Emulator } from "../emulator";
import { secret } from "../testing/values";

/** Stack config that points the example program at an emulator, as `pulumi config set` would; tokens as secrets. */
export function emulatorStackConfig(emu: Emulator): Record<string, unknown> {
  return {
    "cloudbees:operationsCenterUrl": emu.operationsCenterUrl,
    "cloudbees:username": emu.credentials.admin.username,
    "cloudbees:apiToken": secret(emu.credentials.admin.apiToken),
    "cloudbees:featureManagementUrl": emu.featureManagementUrl,
    "cloudbees:featureManagementToken": secret(emu.credentials.featureManagementToken),
  };
}
