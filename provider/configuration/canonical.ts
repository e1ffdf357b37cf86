import { createHash } from "node:crypto";

// One digest for every value compared: sha256 of a canonical JSON (keys sorted, lists as sets), cut to 16 hex
// characters. A digest stands for a value in state and in a diff; the value itself is never stored.

/** The digest of a key on the side that does not have it (a key either side declares, the other lacks). */
export const ABSENT = "absent";

/** Hex characters kept of a digest: 64 bits, enough to tell two values of one key apart. */
export const DIGEST_HEX_LENGTH = 16;

/** A value that stands for something compared by kind, never by text (never a mapping, never a YAML value). */
export type Marker = object & { readonly __marker?: never };

/** Whether a value is one of the markers below. */
export const isMarker = (value: unknown): boolean => value === PRESENT || value === EMPTY_MAPPING;

/**
 * What a secret or a variable reference is compared as: its presence. An encrypted secret differs per instance
 * and per export, a variable is resolved on the controller; their text is never hashed, stored or shown.
 */
export const PRESENT: Marker = Object.freeze(new (class Marker {})());

/** What an empty mapping (`wipeWorkspace: {}`, `jenkins: {}`) declares: that a mapping is there. */
export const EMPTY_MAPPING: Marker = Object.freeze(new (class Marker {})());

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Canonical JSON of a YAML value: mapping keys sorted, every list sorted and without duplicates (lists compare as
 * sets), scalars as text, the markers as tokens no JSON value can write.
 */
export function canonicalJson(value: unknown): string {
  if (value === PRESENT) return "#present";
  if (value === EMPTY_MAPPING) return "#mapping";
  if (value === undefined || value === null) return "null";
  if (Array.isArray(value)) return `[${[...new Set(value.map(canonicalJson))].sort(compare).join(",")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => compare(a, b));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  // A scalar compares by its text: JCasC reads `numExecutors: "2"` as it reads `numExecutors: 2`, and an export may
  // write either.
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return JSON.stringify(String(value));
  return JSON.stringify(value) ?? "null";
}

/** sha256 hex of a text, cut to `length` characters. */
export function shortHash(text: string, length = DIGEST_HEX_LENGTH): string {
  return createHash("sha256").update(text).digest("hex").slice(0, length);
}

/** The digest of a value; undefined and null are ABSENT (nothing there). */
export function digestOf(value: unknown): string {
  return value === undefined || value === null ? ABSENT : shortHash(canonicalJson(value));
}
