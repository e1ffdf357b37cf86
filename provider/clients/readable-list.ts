import { lazyZod } from "../http/lazy-zod";
import type { ResponseSchema } from "../http/response-schema";
import { bounded, formatZodIssue, printable } from "../http/response-text";
import { builtOnce } from "../http/schema-cache";

// Loaded when the first schema is built, not with this module (lazy-zod.ts).
const z = lazyZod();

/**
 * A list answer read one item at a time: one record the parser does not understand never hides the others (the
 * flag configurations of an environment share one experiment list, so one unreadable experiment would otherwise stop
 * the refresh of every configuration there).
 */
export interface ReadableList<T> {
  /** The items that were read, in the server's order. */
  items: T[];
  /** The items that were not, each with its position, its name when it has one, and why. */
  unreadable: UnreadableItem[];
}

export interface UnreadableItem {
  /** Its position in the answer. */
  index: number;
  /** Its name (an experiment's `flag`, a flag's or a target group's `name`), when that field is a string. */
  name?: string;
  /** What is wrong, with the field: `conditions[0].group.operator: Invalid option: ...`. */
  problem: string;
}

/** Longest problem kept: it is quoted in errors. */
const MAX_TEXT = 300;

/** The schema of a list of `item`s read one by one; `nameKey` is the field that names an item. */
export function readableListSchema<T>(item: () => ResponseSchema<T>, nameKey: string) {
  return z.array(z.unknown()).transform((list): ReadableList<T> => {
    const schema = builtOnce(item);
    const out: ReadableList<T> = { items: [], unreadable: [] };
    list.forEach((value, index) => {
      const parsed = schema.safeParse(value);
      if (parsed.success) {
        out.items.push(parsed.data);
        return;
      }
      const { field, message } = formatZodIssue(parsed.error.issues[0]);
      const name = (value as Record<string, unknown> | null)?.[nameKey];
      out.unreadable.push({
        index,
        ...(typeof name === "string" ? { name } : {}),
        problem: bounded(printable(field ? `${field}: ${message}` : message), MAX_TEXT),
      });
    });
    return out;
  });
}
