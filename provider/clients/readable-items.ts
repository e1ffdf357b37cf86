import { UnexpectedResponseError } from "../http/errors";
import { bounded } from "../http/response-text";
import { printable, quoted } from "../text/printable";
import type { ReadableList, UnreadableItem } from "./readable-list-types";

/** Longest name kept in a warning: it is the server's text. */
const MAX_NAME = 200;

/** Where a skipped item is said: a function's host (provider/functions/host.ts), or the resources' warn(). */
export interface WarningSink {
  warn(message: string): void;
}

/**
 * The items of a list read item by item (readable-list.ts): an item this client cannot read is skipped, and said
 * once through `sink`, named with why; the others are answered. `what` names an item: `experiment`, `bundle`.
 * Both faces and the resources use this one text, so a skipped item reads the same wherever it is met.
 */
export function readableItems<T>(sink: WarningSink, list: ReadableList<T>, what: string, operation: string): T[] {
  for (const item of list.unreadable) sink.warn(skippedItemText(operation, what, item));
  return list.items;
}

/**
 * `getExperiments(...): skipped experiment "x" (item 3 of the answer): conditions[0]...: ...; the other items were
 * read`: the item by its name (quoted, escaped, bounded), or by its position when it has none.
 */
export function skippedItemText(operation: string, what: string, item: UnreadableItem): string {
  return printable(
    `${operation}: skipped ${itemName(what, item)} (item ${item.index + 1} of the answer), in a form this version of pulumi-cloudbees cannot read ` +
      `(${item.problem}); the other items were read`,
  );
}

/**
 * The error of a call that needs the one item it cannot read (a bundle looked up by name): that item is not
 * missing, and must not be taken for missing (a refresh would drop it from the state). `context` says why it is
 * needed, when its name does not.
 */
export function unreadableItemError(operation: string, what: string, item: UnreadableItem, context?: string): UnexpectedResponseError {
  return new UnexpectedResponseError(
    `${context ? `${context}: ` : ""}${itemName(what, item)} (item ${item.index + 1} of the answer) is in a form this version of pulumi-cloudbees cannot read (${item.problem})`,
    { operation, field: "", hint: "The other items of that list were read. Fix: report the form (with the field above)." },
  );
}

/** `bundle "team-b"`, or `an unnamed bundle` when its name cannot be read. */
export function itemName(what: string, item: UnreadableItem): string {
  return item.name === undefined ? `an unnamed ${what}` : `${what} ${quoted(bounded(item.name, MAX_NAME))}`;
}
