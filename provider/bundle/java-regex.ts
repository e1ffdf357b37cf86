// Availability patterns are java.util.regex patterns: the operations center compiles them. This is the one check of
// them on this side (lint, loadBundle, the resources' check); the emulator's matching is compileAnchored.

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
