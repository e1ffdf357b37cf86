import type { ReadableList, UnreadableItem } from "../clients/feature-flag-types";
import { bounded } from "../http/response-text";
import { printable, quoted } from "../text/printable";
import type { FunctionHost } from "./host";

/** Longest name kept in a warning: it is the server's text. */
const MAX_NAME = 200;

/**
 * The items of a list read item by item (provider/clients/readable-list.ts, as the resources read theirs): an item
 * this client cannot read is skipped, and said once through the host, named with why; the others are answered.
 * `what` names an item: `experiment`, `flag`, `target group`.
 */
export function readableItems<T>(host: FunctionHost, list: ReadableList<T>, what: string, operation: string): T[] {
  for (const item of list.unreadable) host.warn(skippedItemText(operation, what, item));
  return list.items;
}

/**
 * `getExperiments(...): skipped experiment "x" (item 3 of the answer): conditions[0]...: ...; the other items were
 * read`: the item by its name (quoted, escaped, bounded), or by its position when it has none.
 */
export function skippedItemText(operation: string, what: string, item: UnreadableItem): string {
  const name = item.name === undefined ? `an unnamed ${what}` : `${what} ${quoted(bounded(item.name, MAX_NAME))}`;
  return printable(
    `${operation}: skipped ${name} (item ${item.index + 1} of the answer), in a form this version of pulumi-cloudbees cannot read ` +
      `(${item.problem}); the other items were read`,
  );
}
