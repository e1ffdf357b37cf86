import { InvalidInputError } from "../http/errors";

/**
 * Checks of arguments that would otherwise build a wrong URL or a request the server can only refuse. They run
 * before anything is sent, and name the argument and the reason.
 */

export const SCHEMA_FILES = [
  "bundle-descriptor.json",
  "plugin-catalog.json",
  "plugins.json",
  "items.json",
  "rbac.json",
  "variables.json",
] as const;
export type SchemaFile = (typeof SCHEMA_FILES)[number];

export const SECTION_FILES = ["bundle.yaml", "core.yaml", "plugins.yaml", "plugin-catalog.yaml", "rbac.yaml", "items.yaml"] as const;
export type SectionFile = (typeof SECTION_FILES)[number];

export function requireText(value: unknown, input: string, operation: string): string {
  if (typeof value !== "string") throw new InvalidInputError(input, `expected a string, got ${typeof value}`, operation);
  if (value.trim() === "") throw new InvalidInputError(input, "must not be empty", operation);
  return value;
}

/**
 * An item's full path as Jenkins knows it (a controller's, or a folder's): `folder1/controller1`, no leading or
 * trailing slash, no empty segment.
 */
export function requireFullPath(value: unknown, input: string, operation: string): string {
  const path = requireText(value, input, operation);
  const problem = fullPathProblem(path);
  if (problem) throw new InvalidInputError(input, problem, operation);
  return path;
}

/** Why `path` is not a full item path, or undefined when it is one. Shared with the resources' checks. */
export function fullPathProblem(path: string): string | undefined {
  if (path.trim() !== path) return `"${path}" has leading or trailing spaces`;
  if (path.startsWith("/") || path.endsWith("/")) {
    return `"${path}" must not start or end with "/": full paths look like folder1/controller1`;
  }
  if (path.split("/").some((segment) => segment === "" || segment === "." || segment === "..")) {
    return `"${path}" has an empty, "." or ".." segment`;
  }
  return undefined;
}

export function requireOneOf<T extends string>(value: unknown, allowed: readonly T[], input: string, operation: string): T {
  if (typeof value === "string" && (allowed as readonly string[]).includes(value)) return value as T;
  throw new InvalidInputError(input, `"${String(value)}" is not one of ${allowed.join(", ")}`, operation);
}

/**
 * A relative URL path (an item's `job/folder1/job/pipeline`, a file `base/jenkins.yaml`), encoded segment by
 * segment. Surrounding slashes are dropped; "." and ".." are refused because they would climb out of the base URL's
 * prefix.
 */
export function encodeRelativePath(value: unknown, input: string, operation: string): string {
  const uri = requireText(value, input, operation).replace(/^\/+|\/+$/g, "");
  const segments = uri.split("/");
  if (segments.some((s) => s === "" || s === "." || s === "..")) {
    throw new InvalidInputError(input, `"${uri}" has an empty, "." or ".." segment`, operation);
  }
  return segments.map(encodeURIComponent).join("/");
}

export function requireZip(value: unknown, input: string, operation: string): Uint8Array {
  if (!(value instanceof Uint8Array)) throw new InvalidInputError(input, "expected the zip as a Buffer", operation);
  if (value.length === 0) throw new InvalidInputError(input, "the zip is empty", operation);
  return value;
}

export function requireBoolean(value: unknown, input: string, operation: string): boolean {
  if (typeof value !== "boolean") throw new InvalidInputError(input, `expected true or false, got ${String(value)}`, operation);
  return value;
}

export function requirePositiveInteger(value: unknown, input: string, operation: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) {
    throw new InvalidInputError(input, `expected a positive whole number of seconds, got ${String(value)}`, operation);
  }
  return value;
}
