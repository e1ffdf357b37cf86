import { providerState } from "../config/state";
import type { FunctionHost } from "../functions/host";
import { warn } from "../resources/shared/errors";

/**
 * The plugin's host of the functions (provider/functions): the settings Configure gave it (where the resources read
 * them), and its warnings where the resources' go (the engine's log: engine-log.ts).
 */
export const pluginHost: FunctionHost = {
  stackConfig: () => providerState().stackConfig ?? {},
  userAgent: "pulumi-cloudbees-functions",
  warn: (message) => warn(message),
};
