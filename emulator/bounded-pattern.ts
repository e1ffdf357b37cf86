/**
 * Availability patterns run in JavaScript here, and a pattern that backtracks without end (`(a+)+$` against
 * `aaaa…-x`) would hold the emulator's one thread on every list. A pattern that may backtrack so (a quantified group
 * holding a quantifier or an alternation, a back-reference, or three unbounded quantifiers) is run under a time
 * budget (node:vm's timeout stops a running RegExp); the others run directly (a vm call costs ~0.2 ms: too much for
 * a list of thousands of bundles). Past the budget, the request fails as a stalled operations center's would: a 500
 * naming the bundle, and every later evaluation of that pattern fails at once, until the pattern changes.
 */
import * as vm from "node:vm";

/** Time one pattern may take over the controllers of one request. */
export const PATTERN_BUDGET_MS = 100;

export class PatternStalledError extends Error {
  constructor(bundle: string) {
    super(
      `the availability pattern of bundle "${bundle}" took too long to evaluate (more than ${PATTERN_BUDGET_MS} ms): ` +
        "it backtracks without end against a controller's path; the operations center stalls on it (the emulator answers 500)",
    );
    this.name = "PatternStalledError";
  }
}

const context = vm.createContext({});
const script = new vm.Script("run()");

/**
 * The controllers `regex` matches whole, within the budget when the pattern may backtrack without end. `stalled`
 * holds the patterns that went past it (one set per operations center).
 */
export function matchingControllers(bundle: string, regex: RegExp, controllers: string[], stalled: Set<string>): string[] {
  const key = `${regex.flags}/${regex.source}`;
  if (stalled.has(key)) throw new PatternStalledError(bundle);
  const run = () => controllers.filter((c) => regex.test(c));
  if (!mayBacktrack(regex.source)) return run();
  (context as { run?: () => string[] }).run = run;
  try {
    return script.runInContext(context, { timeout: PATTERN_BUDGET_MS }) as string[];
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ERR_SCRIPT_EXECUTION_TIMEOUT") throw e;
    stalled.add(key);
    throw new PatternStalledError(bundle);
  } finally {
    (context as { run?: unknown }).run = undefined;
  }
}

/**
 * Whether a pattern may take exponential (or high polynomial) time: a quantified group that holds a quantifier or an
 * alternation, a back-reference, or three or more unbounded quantifiers. One pass over the source.
 */
export function mayBacktrack(source: string): boolean {
  const groups: boolean[] = []; // per open group: holds a quantifier or an alternation
  let unbounded = 0;
  let closedRisky = false; // the group just closed holds a quantifier or an alternation
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === "\\") {
      if (/[1-9k]/.test(source[i + 1] ?? "")) return true;
      i++;
      closedRisky = false;
      continue;
    }
    if (c === "[") {
      // A class: skip to its end.
      for (i++; i < source.length && source[i] !== "]"; i++) if (source[i] === "\\") i++;
      closedRisky = false;
      continue;
    }
    const quantifier = c === "*" || c === "+" || c === "?" || c === "{";
    if (quantifier) {
      if (c === "*" || c === "+" || /^\{\d*,\}/.test(source.slice(i, i + 12))) unbounded++;
      if (closedRisky && c !== "?") return true;
      if (groups.length) groups[groups.length - 1] = true;
      if (unbounded >= 3) return true;
      closedRisky = false;
      continue;
    }
    if (c === "(") {
      groups.push(false);
      // Group syntax, not quantifiers: (?: (?= (?! (?<= (?<! (?<name>
      if (source[i + 1] === "?") {
        if (source[i + 2] === "<" && source[i + 3] !== "=" && source[i + 3] !== "!") i = Math.max(i + 2, source.indexOf(">", i));
        else i += source[i + 2] === "<" ? 3 : 2;
      }
    } else if (c === ")") {
      closedRisky = groups.pop() ?? false;
      if (closedRisky && groups.length) groups[groups.length - 1] = true;
      continue;
    } else if (c === "|" && groups.length) groups[groups.length - 1] = true;
    closedRisky = false;
  }
  return false;
}
