import { MAX_JSON_DEPTH, valueTooDeep } from "../http/json-depth";
import { readBlockYaml } from "./block-yaml";
import { cascToJs, type DuplicateKeys, MAX_EXPANDED_VALUES, readYaml } from "./yaml-reader";

// YAML a server wrote (a controller's export): values only, read within bounds checked before and as it is read.
// Not lint's tree of origins (readYaml), which a fresh provider process pays for cold on every controller: block
// YAML, the form an export is written in, goes through the fast reader (block-yaml.ts); any other text through
// readYaml, whose aliases are bounded, then the same bounds on what it read. Either way the value is readYaml's.

export interface ServerYamlLimits {
  /** Largest file read, in bytes (an unzipped export's own bound, 256 MB inflated, is for all its files). */
  maxBytes: number;
  /** Deepest nesting of mappings and sequences: the bound every answer's JSON has (provider/http/json-depth.ts). */
  maxDepth: number;
}

export const SERVER_YAML_LIMITS: ServerYamlLimits = { maxBytes: 16 * 1024 * 1024, maxDepth: MAX_JSON_DEPTH };

/** A file read, or why not: `bound` when it is YAML past a limit (size, depth, values, aliases), not a syntax fault. */
export type ServerYamlRead = { ok: true; value: unknown } | { ok: false; error: string; line?: number; bound?: true };

/**
 * One file as readYaml would read it (YAML 1.1, one document; a key set twice resolved by
 * `duplicateKeys`, default last wins), refused past `limits`. Never throws.
 */
export function readServerYaml(content: Buffer, duplicateKeys: DuplicateKeys = "lastWins", limits: ServerYamlLimits = SERVER_YAML_LIMITS): ServerYamlRead {
  if (content.length > limits.maxBytes) return { ok: false, error: `it holds ${content.length} bytes, more than the ${limits.maxBytes} read`, bound: true };
  const text = content.toString("utf8");
  // Values counted as readYaml counts them, to its bound (MAX_EXPANDED_VALUES), on both ways.
  const fast = readBlockYaml(text, { maxDepth: limits.maxDepth, maxValues: MAX_EXPANDED_VALUES });
  if (fast !== undefined) return fast.ok ? fast : { ...fast, bound: true };
  const read = readYaml(text, { duplicateKeys });
  if (!read.ok) return read;
  const value = cascToJs(read.node);
  if (valueTooDeep(value, limits.maxDepth)) return { ok: false, error: `it is nested deeper than ${limits.maxDepth} levels`, bound: true };
  return { ok: true, value };
}
