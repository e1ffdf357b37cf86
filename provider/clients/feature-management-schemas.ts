import { z } from "zod";

// Factories, not module-scope schemas: a zod schema captured by a serialized Pulumi provider breaks serialization.

export function applicationSchema() {
  return z.object({ name: z.string(), id: z.string().min(1) });
}

export function applicationListSchema() {
  return z.array(applicationSchema());
}

export type Application = z.infer<ReturnType<typeof applicationSchema>>;
