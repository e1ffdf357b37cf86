/**
 * How a report's stacks were checked, as its Markdown and its page say it: the mode of each (one line for the run,
 * and per stack where the run mixes them, merged shards say) and the tries a stack took past one. Our own words and
 * numbers only: no server text, so nothing here needs escaping.
 */
import { noun } from "../report/noun";
import { CHECK_MODES, type StackReport } from "./report";

const COMMAND = { preview: "pulumi preview --refresh", refresh: "pulumi refresh --preview-only" } as const;

/** "checked by pulumi refresh --preview-only (mode refresh) · 1 stack checked again after a passing fault (2 more checks)". */
export function checksLine(stacks: StackReport[]): string {
  const modes = CHECK_MODES.map((m) => [m, stacks.filter((s) => s.mode === m).length] as const).filter(([, n]) => n > 0);
  const parts: string[] = [];
  if (modes.length === 1) parts.push(`checked by ${COMMAND[modes[0]![0]]} (mode ${modes[0]![0]})`);
  else if (modes.length > 1) parts.push(`checked in ${modes.map(([m, n]) => `mode ${m} (${n} ${noun(n, "stack")}, ${COMMAND[m]})`).join(" and ")}`);
  const retried = stacks.filter((s) => triesOf(s) > 1);
  if (retried.length > 0) {
    const more = retried.reduce((n, s) => n + triesOf(s) - 1, 0);
    parts.push(`${retried.length} ${noun(retried.length, "stack")} checked again after a passing fault (${more} more ${noun(more, "check")})`);
  }
  return parts.join(" · ");
}

/** Whether the stacks were checked in more than one mode: then each stack's line names its own. */
export function mixedModes(stacks: StackReport[]): boolean {
  return new Set(stacks.map((s) => s.mode).filter((m) => m !== undefined && CHECK_MODES.includes(m))).size > 1;
}

/** A stack's mode (where the run mixes them) and its tries past one, each with its " · " before it. */
export function stackChecks(stack: StackReport, mixed: boolean): string {
  const mode = mixed && stack.mode !== undefined && CHECK_MODES.includes(stack.mode) ? ` · mode ${stack.mode}` : "";
  const tries = triesOf(stack) > 1 ? ` · ${triesOf(stack)} tries` : "";
  return mode + tries;
}

/** A stack's tries as a whole number (1 where a report, hand-edited or of an earlier version, says nothing usable). */
function triesOf(stack: StackReport): number {
  return Number.isInteger(stack.tries) && stack.tries! > 1 ? stack.tries! : 1;
}
