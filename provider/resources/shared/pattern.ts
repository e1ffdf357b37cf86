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

/**
 * Why the operations center would refuse `regex`, or undefined when it compiles. The server is Java: a pattern is
 * tried as JavaScript first, then with the Java-only syntax real patterns use (inline flags `(?i)`, possessive
 * quantifiers, atomic groups, `\A` `\Z` `\z`) translated, so that a valid Java pattern is not refused here. The
 * reason is the JavaScript engine's, which names the same faults (unclosed group, nothing to repeat, ...).
 */
export function regexProblem(regex: string): string | undefined {
  try {
    new RegExp(regex);
    return undefined;
  } catch (e) {
    try {
      new RegExp(javaOnlySyntaxRemoved(regex));
      return undefined;
    } catch {
      return (e as Error).message;
    }
  }
}

function javaOnlySyntaxRemoved(regex: string): string {
  return regex
    .replace(/\(\?[idmsux-]+\)/g, "") // inline flags (?i)
    .replace(/\(\?[idmsux-]+:/g, "(?:") // scoped flags (?i:...)
    .replace(/\(\?>/g, "(?:") // atomic group
    .replace(/([*+?}])\+/g, "$1") // possessive quantifiers
    .replace(/\\[AZz]/g, "") // input anchors
    .replace(/\\[pP]\{\w+\}/g, "."); // character classes by name
}
