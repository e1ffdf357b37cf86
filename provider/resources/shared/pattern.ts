/**
 * Availability patterns: a regular expression that the operations center matches against a controller's *whole*
 * full path (Java `Pattern.matches`). A list of controllers becomes one canonical pattern, and a pattern of that
 * form reads back as the list, so that drift shows in the form the program used.
 *
 * Canonical form: `^(?:a|b|c)$` with the paths sorted, de-duplicated and regex-escaped. The anchors are redundant
 * under whole-path matching but keep the meaning if a matcher ever searches instead; `(?:...)` keeps the
 * alternation inside them. Escaping uses a backslash before each metacharacter, which Java and JavaScript read the
 * same way. Paths are sorted so that the same set always gives the same text (no diff for order or duplicates).
 */
import { uniqueSorted } from "./values";

const META = /[\\^$.|?*+()[\]{}]/g;

export function escapeRegex(literal: string): string {
  return literal.replace(META, "\\$&");
}

export function controllersToPattern(controllers: readonly string[]): string {
  return `^(?:${uniqueSorted(controllers).map(escapeRegex).join("|")})$`;
}

/**
 * The controllers of a pattern in canonical form (any order of alternatives accepted), or undefined when the
 * pattern is any other regular expression.
 */
export function patternToControllers(pattern: string): string[] | undefined {
  const m = /^\^\(\?:([\s\S]*)\)\$$/.exec(pattern);
  if (!m) return undefined;
  const body = m[1]!;
  const out: string[] = [];
  let current = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === "\\") {
      const next = body[i + 1];
      // Only an escaped metacharacter is a literal; \d, \w and the like make it a real regex.
      if (next === undefined || !/[\\^$.|?*+()[\]{}]/.test(next)) return undefined;
      current += next;
      i++;
    } else if (c === "|") {
      out.push(current);
      current = "";
    } else if (/[\^$.?*+()[\]{}]/.test(c)) {
      return undefined;
    } else {
      current += c;
    }
  }
  out.push(current);
  if (out.some((p) => p === "")) return undefined;
  return out;
}

/** Why the operations center would refuse `regex`, or undefined (see provider/bundle/java-regex.ts). */
export { regexProblem } from "../../bundle/java-regex";
