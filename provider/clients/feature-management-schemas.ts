import type { z as Zod } from "zod";
import { lazyZod } from "../http/lazy-zod";
import type { AllTrue, Same } from "../http/response-schema";
import type { Application } from "./feature-management-types";
import { readableListSchema } from "./readable-list";

// Loaded when the first schema is built, not with this module (lazy-zod.ts).
const z = lazyZod();

// Factories, not module-scope schemas: a zod schema captured by a serialized Pulumi provider breaks serialization.

export function applicationSchema() {
  return z.object({ name: z.string(), id: z.string().min(1) });
}

export function applicationListSchema() {
  return z.array(applicationSchema());
}

/** The application list, one application at a time (the functions' reads). */
export function readableApplicationListSchema() {
  return readableListSchema(applicationSchema, "name");
}

// The declared type (feature-management-types.ts) is exactly what the schema returns.
export type TypesMatchSchemas = AllTrue<[Same<Zod.infer<ReturnType<typeof applicationSchema>>, Application>]>;
