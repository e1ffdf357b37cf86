import type { ItemTree } from "./item-tree";
import type { RunningConfiguration } from "./running-configuration";

/** What a controller runs, for tests (emu.state.runningConfiguration): plain data, secrets as given, a copy. */
export interface RunningConfigurationView {
  apiVersion: string;
  /** jenkins.yaml as applied (every jcasc file merged, over the emulator's defaults), without an export's additions. */
  jenkins: Record<string, unknown>;
  /** Installed plugin id -> version (null: the envelope's version), in installation order. */
  plugins: Record<string, string | null>;
  catalog?: unknown;
  rbac?: Record<string, unknown>;
  variables?: unknown;
  /** The items as items.yaml writes them (top level, children nested). */
  items: Record<string, unknown>[];
}

export function runningView(running: RunningConfiguration, items: ItemTree): RunningConfigurationView {
  const view: RunningConfigurationView = {
    apiVersion: running.apiVersion,
    jenkins: running.jenkins,
    plugins: Object.fromEntries(running.plugins),
    items: items.toYamlObjects(),
  };
  if (running.catalog !== undefined) view.catalog = running.catalog;
  if (running.rbac !== undefined) view.rbac = running.rbac;
  if (running.variables !== undefined) view.variables = running.variables;
  return structuredClone(view);
}
