import type { FlagOption } from "../provider/clients/feature-flag-types";
import { isBooleanFlag } from "./feature-flags";
import { FM_DEFAULT_AVAILABLE_VALUES, FM_LIMITS } from "./undocumented-behaviour";
import { reading } from "./readings";
import { illFormedReason } from "./well-formed";
import { controlCharacterReason } from "./name-characters";

/**
 * Reads the request bodies of the feature-flag endpoints as a careful server would: every field's type and bound,
 * every name. A refusal is a FlagApiError whose message starts with the field it is about (`conditions[1].group.name:
 * ...`). A flag's configuration and a target group: configuration-validation.ts.
 */

export class FlagApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function fail(field: string, reason: string): never {
  throw new FlagApiError(400, `${field}: ${reason}`);
}

export type Json = Record<string, unknown>;

export function parseJson(body: Buffer): unknown {
  let value: unknown;
  try {
    value = JSON.parse(body.toString("utf8"));
  } catch {
    throw new FlagApiError(400, "body: not JSON");
  }
  const illFormed = illFormedReason(value);
  if (illFormed) throw new FlagApiError(400, illFormed);
  return value;
}

/** The body as an object with only `allowed` keys. */
export function readObject(value: unknown, field: string, allowed: readonly string[]): Json {
  if (typeof value !== "object" || value === null || Array.isArray(value)) fail(field, "must be a JSON object");
  const unknown = Object.keys(value).find((k) => !allowed.includes(k));
  if (reading("unknownFields") === "refused" && unknown !== undefined) fail(field === "body" ? unknown : `${field}.${unknown}`, `unknown field (allowed: ${allowed.join(", ")})`);
  return value as Json;
}

export function readName(value: unknown, field: string): string {
  if (typeof value !== "string" || value.trim() === "") fail(field, "must be a non-empty string");
  if (value.length > FM_LIMITS.nameLength) fail(field, `longer than ${FM_LIMITS.nameLength} characters`);
  if (value === "." || value === "..") fail(field, `"${value}" cannot be carried in a path`);
  const control = controlCharacterReason(value);
  if (control) fail(field, control);
  return value;
}

export function readText(value: unknown, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string") fail(field, "must be a string");
  if (value.length > FM_LIMITS.descriptionLength) fail(field, `longer than ${FM_LIMITS.descriptionLength} characters`);
  return value;
}

export function readBoolean(value: unknown, field: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "boolean") fail(field, "must be true or false");
  return value;
}

export function readArray(value: unknown, field: string, max: number): unknown[] {
  if (!Array.isArray(value)) fail(field, "must be an array");
  if (value.length > max) fail(field, `more than ${max} entries`);
  return value;
}

// ------------------------------------------------------------------ environments

export function readEnvironmentRequest(body: unknown): { name: string; description?: string } {
  const o = readObject(body, "body", ["name", "description"]);
  return { name: readName(o.name, "name"), description: readText(o.description, "description") };
}

// ------------------------------------------------------------------ flags

export function readAvailableValues(value: unknown, field: string): FlagOption[] {
  if (value === undefined) return [...FM_DEFAULT_AVAILABLE_VALUES];
  // The service kept `[]`, `""` among them and a value offered twice (`['', '']`): each is accepted as given.
  const values = readArray(value, field, FM_LIMITS.availableValues);
  values.forEach((v, i) => {
    if (typeof v !== "string" && typeof v !== "boolean" && (typeof v !== "number" || !Number.isFinite(v))) {
      fail(`${field}[${i}]`, "must be a string, a number or a boolean");
    }
    if (typeof v === "string" && v.length > FM_LIMITS.nameLength) fail(`${field}[${i}]`, `longer than ${FM_LIMITS.nameLength} characters`);
  });
  const options = values as FlagOption[];
  if (options.some((v) => typeof v === "boolean") && !isBooleanFlag({ availableValues: options })) {
    fail(field, "a boolean flag offers exactly [false, true]; other flags offer strings or numbers");
  }
  return options;
}

/** Same values, in any order (available values are a set). */
export function sameValues(a: readonly FlagOption[], b: readonly FlagOption[]): boolean {
  return a.length === b.length && a.every((v) => b.some((w) => w === v));
}

export const CONFIGURATION_FIELDS = ["description", "enabled", "labels", "stickinessProperty", "platforms", "conditions", "value", "archived"] as const;

/** F4's Flag Request; F3 takes it too (the reading createFlagBody). */
export const FLAG_REQUEST_FIELDS = ["name", "availableValues", "isPermanent", ...CONFIGURATION_FIELDS];

/** F3: the flag to create; `availableValues` undefined when the body leaves them out (the default applies to a new flag only). */
export function readFlagCreate(body: unknown): { name: string; availableValues?: FlagOption[]; isPermanent: boolean } {
  const o = readObject(body, "body", reading("createFlagBody") === "flag-request" ? FLAG_REQUEST_FIELDS : ["name", "availableValues", "isPermanent"]);
  return {
    name: readName(o.name, "name"),
    availableValues: o.availableValues === undefined ? undefined : readAvailableValues(o.availableValues, "availableValues"),
    isPermanent: readBoolean(o.isPermanent, "isPermanent") ?? false,
  };
}
