import type { Emulator } from "../emulator";
import { secret } from "./engine/values";

export interface EmulatorStackConfigOptions {
  /**
   * `cloudbees:featureManagementRequestIntervalMs`: the least time between two feature-flag requests. Default: 0 while
   * the emulator's rate limit is off (nothing to wait for), else left out (the provider's 1000, the service's limit).
   */
  featureManagementRequestIntervalMs?: number;
}

/**
 * The stack config that points a program (and the providers) at an emulator, as `pulumi config set` would:
 * `cloudbees:operationsCenterUrl`, `cloudbees:username`, `cloudbees:apiToken` (secret),
 * `cloudbees:featureManagementUrl` and `cloudbees:featureManagementToken` (secret), for the emulator's admin user.
 */
export function emulatorStackConfig(emu: Emulator, options: EmulatorStackConfigOptions = {}): Record<string, unknown> {
  const SECRET_KEYS = new Set(["apiToken", "featureManagementToken"]);
  return Object.fromEntries(
    Object.entries(emulatorConnection(emu, options)).map(([key, value]) => [`cloudbees:${key}`, SECRET_KEYS.has(key) ? secret(value) : value]),
  );
}

/**
 * One named connection to an emulator (`cloudbees:connections.<name>`, the keys of emulatorStackConfig without the
 * `cloudbees:` prefix), for a stack that talks to several emulators: put it, with the others, in a secret
 * `cloudbees:connections` object.
 */
export function emulatorConnection(emu: Emulator, options: EmulatorStackConfigOptions = {}): Record<string, string> {
  const interval = options.featureManagementRequestIntervalMs ?? (emu.state.featureManagementRateLimit() ? undefined : 0);
  return {
    operationsCenterUrl: emu.operationsCenterUrl,
    username: emu.credentials.admin.username,
    apiToken: emu.credentials.admin.apiToken,
    featureManagementUrl: emu.featureManagementUrl,
    featureManagementToken: emu.credentials.featureManagementToken,
    ...(interval === undefined ? {} : { featureManagementRequestIntervalMs: String(interval) }),
  };
}
