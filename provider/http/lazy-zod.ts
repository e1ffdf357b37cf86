import type { z as Zod } from "zod";

/**
 * zod's `z`, loaded on its first use: zod is two thirds of what loading the provider costs (95 modules, about 30 ms),
 * and a `check` never parses a response, so every resource kind's first `check` in a new host (each `pulumi
 * preview`) no longer pays for it (issue 30). Schemas are built inside factories (schema-cache.ts), so the first
 * property read happens when the first response is parsed.
 */
export function lazyZod(): typeof Zod {
  let loaded: typeof Zod | undefined;
  const real = (): typeof Zod => (loaded ??= (require("zod") as typeof import("zod")).z);
  return new Proxy({} as typeof Zod, { get: (_target, key) => Reflect.get(real(), key) });
}
