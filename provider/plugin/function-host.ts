import { providerState } from "../config/state";
import type { FunctionHost } from "../functions/host";
import { printable } from "../text/printable";

/**
 * The plugin's host of the functions (provider/functions): the settings Configure gave it (where the resources read
 * them), and its warnings on stderr, which the engine shows, as the resources' own.
 */
export const pluginHost: FunctionHost = {
  stackConfig: () => providerState().stackConfig ?? {},
  userAgent: "pulumi-cloudbees-functions",
  warn: (message) => console.warn(`warning: ${printable(message)}`),
};
