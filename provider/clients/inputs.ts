import { InvalidInputError } from "../http/errors";
import { MAX_ID_LENGTH, MAX_PATH_LENGTH, MAX_QUERY_LENGTH, MAX_TIMEOUT_SECONDS } from "./limits";
import { trimCharacter } from "../text/trim";

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

/** Sections of an item export: the spec's, and jenkins.yaml, the name exports give core.yaml's file. */
export const SECTION_FILES = ["bundle.yaml", "core.yaml", "jenkins.yaml", "plugins.yaml", "plugin-catalog.yaml", "rbac.yaml", "items.yaml"] as const;
export type SectionFile = (typeof SECTION_FILES)[number];

export function requireText(value: unknown, input: string, operation: string, maxLength = MAX_ID_LENGTH): string {
  if (typeof value !== "string") throw new InvalidInputError(input, `expected a string, got ${typeof value}`, operation);
  if (value.trim() === "") throw new InvalidInputError(input, "must not be empty", operation);
  if (value.length > maxLength) throw new InvalidInputError(input, tooLong(value, maxLength), operation);
  return value;
}

/**
 * The first control character (C0, DEL, C1) of `value` as `U+000A`, or undefined: no name, id or path may hold one
 * (it would forge a line of a log or an error). The one rule of the clients' checks and the resources' check.
 */
export function controlCharacterIn(value: string): string | undefined {
  const control = /[\u0000-\u001f\u007f-\u009f]/.exec(value);
  return control ? `U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}` : undefined;
}

/**
 * An id that the API takes as one segment of the URL path (`applications/<id>`): "." and ".." would climb out of
 * the path it names (`applications/..` reads the public API's root, with the token), "/" and "\\" would add segments,
 * and a control character has no place in an id. Refused before any request.
 */
export function requireSegment(value: unknown, input: string, operation: string, maxLength = MAX_ID_LENGTH): string {
  const text = requireText(value, input, operation, maxLength);
  if (text.trim() === "." || text.trim() === "..") throw new InvalidInputError(input, `"${text}" is not an id: it would name another path of the API`, operation);
  const separator = /[/\\]/.exec(text)?.[0];
  if (separator) throw new InvalidInputError(input, `"${text}" holds "${separator}": an id is one segment of the URL path`, operation);
  const control = controlCharacterIn(text);
  if (control) throw new InvalidInputError(input, `"${text}" holds a control character (${control}): an id cannot carry one`, operation);
  return text;
}

/** "is 70000 characters long; at most 255 are allowed" */
export function tooLong(value: string, maxLength: number): string {
  return `is ${value.length} characters long; at most ${maxLength} are allowed`;
}

/**
 * An item's full path as Jenkins knows it (a controller's, or a folder's): `folder1/controller1`, no leading or
 * trailing slash, no empty segment.
 */
export function requireFullPath(value: unknown, input: string, operation: string): string {
  const path = requireText(value, input, operation, MAX_PATH_LENGTH);
  const problem = fullPathProblem(path);
  if (problem) throw new InvalidInputError(input, problem, operation);
  return path;
}

/**
 * Why `path` is not a full item path, or undefined when it is one. Shared with the resources' checks. Each segment
 * is an item name as Jenkins' `checkGoodName` accepts it: not "." or "..", no control character and none of
 * `?*\%!@#$^&|<>[]:;` (jenkinsci/jenkins core/src/main/java/jenkins/model/Jenkins.java).
 */
export function fullPathProblem(path: string): string | undefined {
  if (path.length > MAX_PATH_LENGTH) return `is ${path.length} characters long; at most ${MAX_PATH_LENGTH} are allowed`;
  if (path.trim() !== path) return `"${path}" has leading or trailing spaces`;
  if (path.startsWith("/") || path.endsWith("/")) {
    return `"${path}" must not start or end with "/": full paths look like folder1/controller1`;
  }
  const segments = path.split("/");
  if (segments.some((segment) => segment === "" || segment.trim() === "." || segment.trim() === "..")) {
    return `"${path}" has an empty, "." or ".." segment`;
  }
  const control = controlCharacterIn(path);
  if (control) return `"${path}" holds a control character (${control}), which Jenkins refuses in item names`;
  const unsafe = /[?*\\%!@#$^&|<>[\]:;]/.exec(path);
  if (unsafe) return `"${path}" holds "${unsafe[0]}", which Jenkins refuses in item names (none of ?*\\%!@#$^&|<>[]:;)`;
  const long = segments.find((segment) => segment.length > MAX_ID_LENGTH);
  if (long) return `the item name "${long.slice(0, 40)}..." is ${long.length} characters long; at most ${MAX_ID_LENGTH} are allowed`;
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
  const uri = trimCharacter(requireText(value, input, operation, MAX_PATH_LENGTH), "/");
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

/** An instant: a Date, or a text Date parses (ISO-8601 is what the API takes). */
export function requireDate(value: unknown, input: string, operation: string): Date {
  const date = typeof value === "string" ? new Date(value) : value;
  if (!(date instanceof Date) || Number.isNaN(date.getTime())) {
    throw new InvalidInputError(input, `"${String(value)}" is not a date: give an ISO-8601 instant, e.g. "2026-01-01T00:00:00.000Z"`, operation);
  }
  return date;
}

export function requireBoolean(value: unknown, input: string, operation: string): boolean {
  if (typeof value !== "boolean") throw new InvalidInputError(input, `expected true or false, got ${String(value)}`, operation);
  return value;
}

export function requirePositiveInteger(value: unknown, input: string, operation: string, max = MAX_TIMEOUT_SECONDS): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value <= 0 || value > max) {
    throw new InvalidInputError(input, `expected a whole number of seconds from 1 to ${max}, got ${String(value)}`, operation);
  }
  return value;
}

/** Length of the query string as sent (`bundleId=team-a&regex=%5E...`): what the server's header limit counts. */
export function encodedQueryLength(query: Record<string, string>): number {
  return new URLSearchParams(query).toString().length;
}

/** Refuses a query string the server would answer with a bare 431 (Request Header Fields Too Large). */
export function requireQueryFits(query: Record<string, string>, input: string, operation: string): void {
  const length = encodedQueryLength(query);
  if (length > MAX_QUERY_LENGTH) {
    throw new InvalidInputError(
      input,
      `the encoded query string would be ${length} characters long; servers refuse more than about ${MAX_QUERY_LENGTH} (431)`,
      operation,
    );
  }
}
