import type { z as Zod } from "zod";
import { lazyZod } from "../http/lazy-zod";
import type { ResponseSchema } from "../http/response-schema";
import { bounded, formatZodIssue } from "../http/response-text";
import { printable } from "../text/printable";
import { builtOnce } from "../http/schema-cache";
import type { ReadableList } from "./readable-list-types";

// Loaded when the first schema is built, not with this module (lazy-zod.ts).
const z = lazyZod();

/** Longest problem kept: it is quoted in errors. */
const MAX_TEXT = 300;

/**
 * The schema of a list of `item`s read one by one (ReadableList); `nameKey` is the field that names an item (the
 * first of them that is a string, when several may). A null list is an empty one. zod stays in this module: the
 * types it answers live in readable-list-types.ts, which the published declarations reach.
 */
export function readableListSchema<T>(item: () => ResponseSchema<T>, nameKey: string | readonly string[]) {
  const keys = typeof nameKey === "string" ? [nameKey] : nameKey;
  return z
    .array(z.unknown())
    .nullable()
    .transform((list): ReadableList<T> => {
      const schema = builtOnce(item);
      const out: ReadableList<T> = { items: [], unreadable: [] };
      (list ?? []).forEach((value, index) => {
        const parsed = schema.safeParse(value);
        if (parsed.success) {
          out.items.push(parsed.data);
          return;
        }
        const { field, message } = formatZodIssue(parsed.error.issues[0]);
        const record = value as Record<string, unknown> | null;
        const name = keys.map((k) => record?.[k]).find((v) => typeof v === "string");
        out.unreadable.push({
          index,
          ...(typeof name === "string" ? { name } : {}),
          problem: bounded(printable(field ? `${field}: ${message}` : message), MAX_TEXT),
        });
      });
      return out;
    });
}

/** A list inside an item that the server may send as null: read as empty. */
export function listOrNull<T extends Zod.ZodType>(item: T) {
  return z
    .array(item)
    .nullable()
    .transform((list) => list ?? []);
}
