import { readStackConfig, type RawConfig } from "../config";
import { providerState } from "../config/state";
import { unwrapSecrets } from "./secrets";

/**
 * Configure's settings: the stack's `cloudbees:*` settings go where the dynamic providers' configure puts them
 * (providerState().stackConfig, read by the same config code), and into the runtime's config, where the program
 * functions read them when they serve invokes.
 */

/**
 * The settings of a ConfigureRequest: its `args` (the provider's inputs: a default provider's are the stack's
 * `cloudbees:*` config, an explicit `cloudbees.Provider`'s its inputs), keyed by setting name, secrets unwrapped.
 * Older engines send only `variables` (`cloudbees:config:<name>` or `cloudbees:<name>`, JSON text for objects).
 */
export function settingsOfRequest(args: Record<string, unknown> | undefined, variables: Map<string, string>): RawConfig {
  const byName = new Map<string, unknown>();
  for (const [key, value] of variables) byName.set(key.slice(key.lastIndexOf(":") + 1), value);
  for (const [key, value] of Object.entries(unwrapSecrets(args).plain)) byName.set(key.slice(key.lastIndexOf(":") + 1), value);
  return readStackConfig({ get: (key) => byName.get(key.slice(key.indexOf(":") + 1)) });
}

/** The settings, where the resources and the functions (function-host.ts) read them. */
export function applySettings(config: RawConfig): void {
  providerState().stackConfig = config;
}
