import { isMarker } from "./canonical";

/**
 * A configuration in the form both sides are compared in: the bundle a controller should run (expectedView, from
 * the local bundle tree) and what it runs (exportedView, from its core-casc-export/zipExport). An undefined field
 * means the side does not declare that file at all.
 */
export interface ConfigurationView {
  /** jenkins.yaml: every jcasc file merged as JCasC merges them (provider/bundle/jcasc.ts); undefined: none. */
  jenkins?: unknown;
  /** plugins.yaml: plugin ids; undefined: the section is not declared. */
  plugins?: string[];
  /** plugin-catalog.yaml document (last one wins). */
  catalog?: unknown;
  /** rbac.yaml: merged document (roles, groups). */
  rbac?: unknown;
  /** items.yaml: the item objects (top level, children nested as in items.yaml) and the item remove strategy. */
  items?: { removeStrategy: string; items: unknown[] };
}

/** The files a configuration is compared in, as keys name them. */
export const CONFIGURATION_FILES = {
  jenkins: "jenkins.yaml",
  plugins: "plugins.yaml",
  catalog: "plugin-catalog.yaml",
  rbac: "rbac.yaml",
  items: "items.yaml",
} as const;

export type ConfigurationFile = (typeof CONFIGURATION_FILES)[keyof typeof CONFIGURATION_FILES];

/** A YAML mapping (a marker of canonical.ts is not one). */
export const isMapping = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !isMarker(value);
