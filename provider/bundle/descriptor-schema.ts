import { regexProblem } from "./java-regex";
import type { z as Zod } from "zod";
import { lazyZod } from "../http/lazy-zod";
import type { AllTrue, Same } from "../http/response-schema";
import type { BundleDescriptor, RemoveStrategy } from "./bundle-descriptor";
import {
  allowCapExceptionsProblem,
  apiVersionProblem,
  JCASC_MERGE_STRATEGIES,
  jcascMergeStrategyProblem,
  removeStrategyProblem,
  SectionKey,
  sectionListProblem,
} from "./descriptor";

// Loaded when the first schema is built, not with this module (lazy-zod.ts).
const z = lazyZod();

// A factory, never a module-scope schema: a zod schema captured by a serialized Pulumi provider breaks
// serialization. The rules and their texts come from descriptor.ts, shared with lintBundle and the emulator.

/** A check that passes when `problem` finds nothing, and reports its text otherwise. */
function rule(problem: (v: unknown) => string | undefined) {
  return (v: unknown, ctx: Zod.RefinementCtx) => {
    const text = problem(v);
    if (text !== undefined) ctx.addIssue({ code: "custom", message: text });
  };
}

/** id and version: text; real bundles write them quoted or not. */
function requiredText(key: "id" | "version") {
  const missing = `Missing ${key} property in the bundle.yaml file.`;
  return z
    .union([z.string(), z.number()], {
      error: (iss) => (iss.input === undefined || iss.input === null ? missing : `'${key}' property in the bundle.yaml file must be a string.`),
    })
    .transform(String)
    .refine((s) => s.trim() !== "", { error: missing });
}

function sectionList(key: SectionKey) {
  const error = sectionListProblem(key);
  return z
    .array(z.string({ error }).trim().min(1, { error }), { error })
    .nullish()
    .transform((v) => v ?? undefined)
    .optional();
}

/** bundle.yaml: the keys of the spec and of the vendor's reference; unknown keys are dropped. */
export function bundleDescriptorSchema() {
  const optionalText = (key: string) =>
    z.string({ error: `The '${key}' property in the bundle.yaml file must be a string.` }).optional();
  return z.object({
    apiVersion: z.unknown().superRefine(rule(apiVersionProblem)).transform((v) => Number(v)),
    id: requiredText("id"),
    description: optionalText("description"),
    version: requiredText("version"),
    parent: z
      .string({ error: "The 'parent' property in the bundle.yaml file must be a bundle folder name." })
      .trim()
      .min(1, { error: "The 'parent' property in the bundle.yaml file must be a bundle folder name." })
      .optional(),
    availabilityPattern: optionalText("availabilityPattern").superRefine(
      rule((v) => {
        if (typeof v !== "string") return undefined;
        const problem = regexProblem(v);
        return problem ? `Invalid availabilityPattern '${v}': ${problem}` : undefined;
      }),
    ),
    allowCapExceptions: z
      .unknown()
      .superRefine(rule(allowCapExceptionsProblem))
      .transform((v) => (typeof v === "boolean" ? v : undefined))
      .optional(),
    jcascMergeStrategy: z.enum(JCASC_MERGE_STRATEGIES, { error: (iss) => jcascMergeStrategyProblem(iss.input) }).optional(),
    itemRemoveStrategy: z
      .unknown()
      .superRefine(rule((v) => removeStrategyProblem(v, "itemRemoveStrategy")))
      .transform((v) => v as RemoveStrategy | undefined)
      .optional(),
    jcasc: sectionList("jcasc"),
    plugins: sectionList("plugins"),
    catalog: sectionList("catalog"),
    rbac: sectionList("rbac"),
    items: sectionList("items"),
    variables: sectionList("variables"),
  });
}

// The declared type (bundle-descriptor.ts) is exactly what the schema returns.
export type TypesMatchSchemas = AllTrue<[Same<Zod.output<ReturnType<typeof bundleDescriptorSchema>>, BundleDescriptor>]>;
