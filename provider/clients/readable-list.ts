import { lazyZod } from "../http/lazy-zod";
import type { ResponseSchema } from "../http/response-schema";
import { bounded, formatZodIssue } from "../http/response-text";
import { printable } from "../text/printable";
import { builtOnce } from "../http/schema-cache";
import type { ReadableList } from "./feature-flag-types";

// Loaded when the first schema is built, not with this module (lazy-zod.ts).
const z = lazyZod();

/** Longest problem kept: it is quoted in errors. */
const MAX_TEXT = 300;

/**
 * The schema of a list of `item`s read one by one (ReadableList); `nameKey` is the field that names an item. zod
 * stays in this module: the types it answers live in feature-flag-types.ts, which the published declarations reach.
 */
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
