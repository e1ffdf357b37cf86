/**
 * JSON schemas served by core-casc-schema-download. No public copy of the official ones exists, so these are our
 * own: small, draft-07, and consistent with what bundle-validation.ts checks. Built per call (no module state).
 */
import { reading } from "./readings";

export const SCHEMA_NAMES = [
  "bundle-descriptor.json",
  "plugin-catalog.json",
  "plugins.json",
  "items.json",
  "rbac.json",
  "variables.json",
] as const;

const fileList = (description: string): Record<string, unknown> => ({
  description,
  type: "array",
  items: { type: "string", minLength: 1 },
});

/** Remove strategies appear in lower and upper case in real bundles. */
const anyCase = (...values: string[]): Record<string, unknown> => ({
  type: "string",
  enum: values.flatMap((v) => [v, v.toUpperCase()]),
});

const base = (name: string, title: string): Record<string, unknown> => ({
  $schema: "http://json-schema.org/draft-07/schema#",
  $id: `https://cloudbees-emulator.local/schemas/${name}`,
  title,
});

/** The schema document of one of SCHEMA_NAMES; undefined for any other name. */
export function schemaDocument(name: string): Record<string, unknown> | undefined {
  if (!(SCHEMA_NAMES as readonly string[]).includes(name)) return undefined;
  switch (name) {
    case "bundle-descriptor.json":
      return {
        ...base(name, "CasC bundle descriptor (bundle.yaml)"),
        type: "object",
        required: ["apiVersion", "id", "version"],
        properties: {
          apiVersion: { description: "1 or 2; quoted values are accepted", enum: [1, 2, "1", "2"] },
          id: { type: "string", minLength: 1 },
          description: { type: "string" },
          version: { type: ["string", "number"] },
          jcasc: fileList("Core configuration files or folders"),
          plugins: fileList("Plugin list files or folders"),
          catalog: fileList("Plugin catalog file (one)"),
          rbac: fileList("RBAC files or folders"),
          items: fileList("Items files or folders"),
          variables: fileList("Variables files or folders"),
          parent: { type: "string", description: "Parent bundle folder name (bundle locations only)" },
          availabilityPattern: { type: "string", description: "Regex over controller full paths (bundle locations only)" },
          allowCapExceptions: { type: "boolean" },
          jcascMergeStrategy: { enum: ["errorOnConflict", "override"] },
          itemRemoveStrategy: {
            type: "object",
            properties: {
              items: anyCase("none", "sync", "remove-supported", "remove-all"),
              rbac: anyCase("update", "sync"),
            },
            additionalProperties: false,
          },
        },
        additionalProperties: false,
      };
    case "plugin-catalog.json":
      return {
        ...base(name, "Plugin catalog (plugin-catalog.yaml)"),
        type: "object",
        required: ["type", "version", "name", "configurations"],
        properties: {
          type: { const: "plugin-catalog" },
          version: { type: ["string", "number"] },
          name: { type: "string" },
          displayName: { type: "string" },
          configurations: {
            type: "array",
            items: {
              type: "object",
              properties: {
                description: { type: "string" },
                prerequisites: { type: "object", properties: { productVersion: { type: "string" } } },
                includePlugins: {
                  type: "object",
                  additionalProperties: {
                    type: "object",
                    properties: { version: { type: "string" }, url: { type: "string" } },
                  },
                },
              },
            },
          },
        },
      };
    case "plugins.json":
      return {
        ...base(name, "Plugin list (plugins.yaml)"),
        type: "object",
        // As the checks read a file without the list (the reading pluginsWithoutList).
        ...(reading("pluginsWithoutList") === "refused" ? { required: ["plugins"] } : {}),
        properties: {
          plugins: {
            type: "array",
            items: {
              type: "object",
              required: ["id"],
              properties: { id: { type: "string", minLength: 1 }, version: { type: "string" }, url: { type: "string" } },
            },
          },
        },
      };
    case "items.json":
      return {
        ...base(name, "Items (items.yaml)"),
        // No `items` is allowed: a controller without items exports only removeStrategy (a WARNING, not an ERROR).
        type: "object",
        definitions: {
          item: {
            type: "object",
            required: ["kind", "name"],
            properties: {
              kind: { type: "string", minLength: 1 },
              name: { type: "string", minLength: 1, pattern: "^[^/]+$" },
              displayName: { type: "string" },
              description: { type: "string" },
              items: { type: "array", items: { $ref: "#/definitions/item" } },
            },
          },
        },
        properties: {
          removeStrategy: {
            type: "object",
            properties: {
              items: anyCase("none", "sync", "remove-supported", "remove-all"),
              rbac: anyCase("update", "sync"),
            },
          },
          items: { type: "array", items: { $ref: "#/definitions/item" } },
        },
      };
    case "rbac.json":
      return {
        ...base(name, "Role-based access control (rbac.yaml)"),
        type: "object",
        properties: {
          removeStrategy: { type: "object", properties: { rbac: anyCase("update", "sync") } },
          roles: {
            type: "array",
            items: {
              type: "object",
              required: ["name"],
              properties: {
                name: { type: "string" },
                filterable: { type: "boolean" },
                permissions: { type: "array", items: { type: "string" } },
              },
            },
          },
          groups: {
            type: "array",
            items: {
              type: "object",
              required: ["name"],
              properties: {
                name: { type: "string" },
                roles: { type: "array", items: { type: "object", properties: { name: { type: "string" }, grantedAt: { type: "string" } } } },
                members: { type: "object", properties: { users: { type: "array" }, internal_groups: { type: "array" }, external_groups: { type: "array" } } },
              },
            },
          },
        },
      };
    case "variables.json":
      return {
        ...base(name, "Variables (variables.yaml)"),
        type: "object",
        required: ["variables"],
        properties: {
          variables: {
            type: "array",
            items: { type: "object", minProperties: 1, maxProperties: 1, additionalProperties: { type: ["string", "number", "boolean"] } },
          },
        },
      };
    default:
      return undefined;
  }
}
