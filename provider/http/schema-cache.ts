import type { ResponseSchema } from "./response-schema";

/**
 * Each response schema built once per process, from its factory: building a zod schema costs more than checking a
 * response with it (about half a millisecond per call for the bundle information). The registry lives on globalThis,
 * created on first use, as throttle.ts's gates do: nothing at module scope for a serialized provider to capture.
 */
const REGISTRY_KEY = Symbol.for("pulumi-cloudbees.response-schemas");

export function builtOnce<T>(factory: () => ResponseSchema<T>): ResponseSchema<T> {
  const holder = globalThis as unknown as Record<symbol, WeakMap<() => ResponseSchema<unknown>, ResponseSchema<unknown>> | undefined>;
  const registry = (holder[REGISTRY_KEY] ??= new WeakMap());
  let schema = registry.get(factory) as ResponseSchema<T> | undefined;
  if (!schema) {
    schema = factory();
    registry.set(factory, schema);
  }
  return schema;
}
