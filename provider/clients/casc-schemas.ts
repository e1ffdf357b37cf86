import type { z as Zod } from "zod";
import { lazyZod } from "../http/lazy-zod";
import { listOrNull } from "./readable-list";
import type { AllTrue, Same } from "../http/response-schema";
import type {
  BundleInfo,
  ListedBundle,
  RawBundleValidationLog,
  EffectiveBundleValidationLog,
  BundleDownloadLink,
  CheckOutResult,
  ValidationResult,
  PreValidationResult,
  UpdateLog,
  BundleUpdateCheck,
  ReloadResult,
  CreateItemsResult,
  InstanceValidation,
} from "./casc-types";

// Loaded when the first schema is built, not with this module (lazy-zod.ts).
const z = lazyZod();

// Shapes of the CasC bundle API's JSON responses, as the spec and the public sources give them. Factories, not
// module-scope schemas: a zod schema captured by a serialized Pulumi provider breaks serialization. Unknown keys are
// stripped; keys the public sources add beyond the spec are optional. A list's items have schemas of their own, which
// the lists read item by item reuse (casc-readable-schemas.ts); a list inside an item may be null, read as empty.

const level = () => z.enum(["INFO", "WARNING", "ERROR"]);

/** Bundle information object. `usedBy` and `availableFor` come only in list results. */
export function bundleInfoSchema() {
  return z.object({
    name: z.string(),
    linkFileContent: z.string(),
    url: z.string(),
    token: z.string(),
    regex: z.string(),
    availabilityPatternFromYaml: z.boolean(),
    usedBy: z.array(z.string()).optional(),
    availableFor: z.array(z.string()).optional(),
  });
}

/** A bundle as the list gives it: with the controllers using it and those it is available for. */
export function listedBundleSchema() {
  return bundleInfoSchema().extend({ usedBy: listOrNull(z.string()), availableFor: listOrNull(z.string()) });
}

export function bundleListSchema() {
  return z.object({ bundles: z.array(listedBundleSchema()) });
}

export function validationLogRecordSchema() {
  return z.object({
    version: z.string(),
    errors: z.number().int(),
    warnings: z.number().int(),
    info: z.number().int().optional(),
    messages: z.array(z.string()).optional(),
    folder: z.string(),
    date: z.string(),
  });
}

export function effectiveValidationLogRecordSchema() {
  return validationLogRecordSchema().extend({ bundle: z.string(), assigned: z.boolean().optional() });
}

/** A controller's entry of a validation log: the records of its effective bundle. */
export function controllerValidationLogSchema() {
  return z.object({ controller: z.string(), records: listOrNull(effectiveValidationLogRecordSchema()) });
}

/** A bundle's entry of the raw validation log. */
export function rawValidationLogEntrySchema() {
  return z.object({
    "bundle-id": z.string(),
    records: listOrNull(validationLogRecordSchema()),
    controllers: listOrNull(controllerValidationLogSchema()).optional(),
  });
}

export function rawBundleValidationLogSchema() {
  return z.object({ "validation-log": z.array(rawValidationLogEntrySchema()) });
}

export function effectiveBundleValidationLogSchema() {
  return z.object({ "validation-log": z.array(controllerValidationLogSchema()) });
}

export function bundleDownloadLinkSchema() {
  return z.object({ url: z.string(), token: z.string() });
}

export function checkOutResultSchema() {
  return z.object({
    remotes: z.array(
      z.object({
        name: z.string(),
        bundles: z.array(z.object({ bundleName: z.string(), localText: z.string() })),
      }),
    ),
  });
}

/**
 * `GET view/Controllers/api/json`: the operations center's Controllers view. The samples read only `jobs[].name` and
 * `jobs[].url` (cb-ci/ci-casc-api-samples getConnectedControllers.sh); `fullName` is Jenkins' item field.
 */
export function controllersViewSchema() {
  return z.object({ jobs: z.array(controllerJobSchema()) });
}

/** An item of the Controllers view. */
export function controllerJobSchema() {
  return z.object({ name: z.string(), url: z.string(), fullName: z.string().optional() }).passthrough();
}

export function controllersSchema() {
  return z.object({ controllers: z.array(z.string()) });
}

export function visibilitySchema() {
  return z.object({ visibility: z.boolean() });
}

function structureValidationSchema() {
  return z.object({ level: level(), validationCode: z.string(), message: z.string() });
}

export function validationResultSchema() {
  return z.object({
    valid: z.boolean(),
    errorCount: z.number().int().optional(),
    structureValidations: z.array(structureValidationSchema()),
    controllerValidations: z.array(
      z.object({
        controller: z.string(),
        controllerStatus: z.string().optional(),
        validations: z.array(structureValidationSchema()).optional(),
      }),
    ),
  });
}

/** One bundle's verdict in a pre-validation. */
export function preValidationEntrySchema() {
  return z.object({ bundle: z.string(), result: validationResultSchema() });
}

export function preValidationResultSchema() {
  return z.object({ validations: z.array(preValidationEntrySchema()) });
}

/** The fields of an update log beside its versions. */
export function updateLogStatusShape() {
  return { "update-log-status": z.string(), "retention-policy": z.number().int() };
}

/** A version an instance received, as its update log records it. */
export function updateLogVersionSchema() {
  return z.object({ version: z.string(), date: z.string(), errors: z.number().int(), warnings: z.number().int(), folder: z.string() });
}

export function updateLogSchema() {
  return z.object({ ...updateLogStatusShape(), versions: z.array(updateLogVersionSchema()) });
}

export function bundleUpdateCheckSchema() {
  return z.object({
    "update-available": z.boolean(),
    // Every label the CasC plugin writes (UpdateType.java), and any newer one: kept as text.
    "update-type": z.string().optional(),
    versions: z.object({
      "current-bundle": z.object({ version: z.string(), validations: z.array(z.string()) }),
      "new-version": z
        .object({ version: z.string(), valid: z.boolean().optional(), validations: z.array(z.string()) })
        .optional(),
    }),
    items: z.object({ deletions: z.array(z.unknown()) }),
  });
}

export function reloadResultSchema() {
  return z.object({ reloaded: z.boolean(), completed: z.boolean().optional(), reason: z.string().optional() });
}

export function createItemsResultSchema() {
  return z.object({ basePath: z.string() });
}

export function instanceValidationSchema() {
  return z.object({ valid: z.boolean(), "validation-messages": z.array(z.string()).optional() });
}

export function jsonDocumentSchema() {
  return z.record(z.string(), z.unknown());
}

// Each declared type (casc-types.ts) is exactly what its schema returns.
export type TypesMatchSchemas = AllTrue<
  [
    Same<Zod.infer<ReturnType<typeof bundleInfoSchema>>, BundleInfo>,
    Same<Zod.infer<ReturnType<typeof bundleListSchema>>["bundles"][number], ListedBundle>,
    Same<Zod.infer<ReturnType<typeof rawBundleValidationLogSchema>>, RawBundleValidationLog>,
    Same<Zod.infer<ReturnType<typeof effectiveBundleValidationLogSchema>>, EffectiveBundleValidationLog>,
    Same<Zod.infer<ReturnType<typeof bundleDownloadLinkSchema>>, BundleDownloadLink>,
    Same<Zod.infer<ReturnType<typeof checkOutResultSchema>>, CheckOutResult>,
    Same<Zod.infer<ReturnType<typeof validationResultSchema>>, ValidationResult>,
    Same<Zod.infer<ReturnType<typeof preValidationResultSchema>>, PreValidationResult>,
    Same<Zod.infer<ReturnType<typeof updateLogSchema>>, UpdateLog>,
    Same<Zod.infer<ReturnType<typeof bundleUpdateCheckSchema>>, BundleUpdateCheck>,
    Same<Zod.infer<ReturnType<typeof reloadResultSchema>>, ReloadResult>,
    Same<Zod.infer<ReturnType<typeof createItemsResultSchema>>, CreateItemsResult>,
    Same<Zod.infer<ReturnType<typeof instanceValidationSchema>>, InstanceValidation>,
  ]
>;
