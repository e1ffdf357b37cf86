/**
 * Nesting bounds for what a server or a config sends: a walk over a value nested 20,000 deep overflows the stack
 * (a bare "Maximum call stack size exceeded" naming nothing), and 100 MB of `[[[[...` parses into gigabytes. The
 * text is measured before it is parsed, in one pass and without allocating; values are measured to the bound only.
 */

/** Deepest nesting of arrays and objects accepted in any answer or setting: real ones nest a handful of levels. */
export const MAX_JSON_DEPTH = 64;

/** Whether the JSON text nests arrays and objects deeper than `max` (strings are skipped, escapes included). */
export function jsonTextTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    }
  }
  return false;
}

/** Whether a parsed value nests arrays and objects deeper than `max`; the walk stops at the bound. */
export function valueTooDeep(value: unknown, max = MAX_JSON_DEPTH, depth = 0): boolean {
  if (value === null || typeof value !== "object") return false;
  if (depth >= max) return true;
  for (const v of Array.isArray(value) ? value : Object.values(value)) if (valueTooDeep(v, max, depth + 1)) return true;
  return false;
}
