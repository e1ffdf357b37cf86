import type { ReadableList, UnreadableItem } from "../../clients/readable-list-types";
import { itemName, skippedItemText } from "../../clients/readable-items";
import { currentScope } from "../../config/scope";
import { providerState } from "../../config/state";
import { operationFailed, ResourceError, warn } from "./errors";

/**
 * The resources' side of the lists read item by item (clients/readable-list.ts): an entry the client cannot read is
 * skipped and said in a warning naming it, in the functions' words (readable-items.ts), once per deployment. A list
 * read again in the same deployment (after a write) holds the same entry again: saying it at every answer would
 * repeat one line as often as resources write.
 */
export function readableEntries<T>(list: ReadableList<T>, what: string, operation: string): T[] {
  const said = (providerState().saidUnreadable ??= new Set());
  const { connection } = currentScope();
  for (const item of list.unreadable) {
    // Its position is left out: the same entry moves when a write adds or removes others.
    const key = [connection, operation, what, item.name ?? `#${item.index}`, item.problem].join("\n");
    if (said.has(key)) continue;
    said.add(key);
    warn(skippedItemText(operation, what, item));
  }
  return list.items;
}

/** The unreadable entry of this name (`same` compares two names: a service may ignore their case). */
export function unreadableNamed(items: readonly UnreadableItem[], name: string, same: (a: string, b: string) => boolean = (a, b) => a === b): UnreadableItem | undefined {
  return items.find((u) => u.name !== undefined && same(u.name, name));
}

/** The first unreadable entry that could be the object of this name: one of that name, else one whose name cannot be read. */
export function couldBeNamed(items: readonly UnreadableItem[], name: string): UnreadableItem | undefined {
  return unreadableNamed(items, name) ?? items.find((u) => u.name === undefined);
}

/**
 * A create stopped before its write: an entry the client cannot read could be the very object it looks for, and the
 * write (a POST the service does not deduplicate) would then make a second one. Typed, so that a caller can tell it
 * from a failure worth retrying; `entry` is the entry, the message names it and the ways out.
 */
export class UnreadableEntryError extends ResourceError {
  constructor(
    message: string,
    readonly entry: UnreadableItem,
  ) {
    super(message);
    this.name = "UnreadableEntryError";
  }
}

/**
 * `<operation>: the service lists application "x" (item 3 of the answer) in a form ... (<problem>); it may be the one
 * this create looks for, and creating another would make a second one (<why>). Fix: <wayOut>`.
 */
export function mayDuplicate(operation: string, id: string | undefined, what: string, entry: UnreadableItem, why: string, wayOut: string): UnreadableEntryError {
  const cause =
    `the service lists ${itemName(what, entry)} (item ${entry.index + 1} of the answer) in a form this version of pulumi-cloudbees ` +
    `cannot read (${entry.problem}); it may be the one this create looks for, and creating another would make a second one (${why}). ` +
    `Fix: report the form (with the field above); meanwhile ${wayOut}`;
  return new UnreadableEntryError(operationFailed(operation, id, cause).message, entry);
}
