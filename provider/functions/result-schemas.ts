import type { ZodType } from "zod";
import { lazyZod } from "../http/lazy-zod";
import {
  effectiveValidationLogRecordSchema,
  preValidationResultSchema,
  validationLogRecordSchema,
  validationResultSchema,
} from "../clients/casc-schemas";
import { applicationSchema } from "../clients/feature-management-schemas";
import type { ControllerItem, ControllerSummary } from "./controllers";
import type {
  ApplicationInfo,
  BundlePreValidation,
  BundleSummary,
  BundleUpdateCheckResult,
  BundleValidationResult,
  EffectiveBundleValidationLogResult,
  InstanceValidationResult,
  RawBundleValidationLogResult,
  UpdateLogResult,
} from "./results";

// Loaded when the first schema is built, not with this module (lazy-zod.ts).
const z = lazyZod();

// The functions' results as zod schemas, for what a mock returns under `pulumi.runtime.setMocks` (mocks.ts). Each
// is typed against the documented interface (results.ts), so the two cannot drift apart. Factories, as everywhere:
// no module-scope schema for a serialized provider to capture.

export function applicationInfoSchema(): ZodType<ApplicationInfo> {
  return applicationSchema();
}

export function bundleSummarySchema(): ZodType<BundleSummary> {
  return z.object({
    name: z.string(),
    url: z.string(),
    regex: z.string(),
    availabilityPatternFromYaml: z.boolean(),
    usedBy: z.array(z.string()),
    availableFor: z.array(z.string()),
  });
}

export function controllerSummarySchema(): ZodType<ControllerSummary> {
  return z.object({ controllerPath: z.string(), bundleId: z.string().nullable(), availableBundles: z.array(z.string()) });
}

export function controllerItemSchema(): ZodType<ControllerItem> {
  return z.object({ name: z.string(), fullPath: z.string(), url: z.string() });
}

function controllerValidationLogSchema() {
  return z.object({ controller: z.string(), records: z.array(effectiveValidationLogRecordSchema()) });
}

export function rawValidationLogResultSchema(): ZodType<RawBundleValidationLogResult> {
  return z.object({
    validationLog: z.array(
      z.object({
        bundleId: z.string(),
        records: z.array(validationLogRecordSchema()),
        controllers: z.array(controllerValidationLogSchema()).optional(),
      }),
    ),
  });
}

export function effectiveValidationLogResultSchema(): ZodType<EffectiveBundleValidationLogResult> {
  return z.object({ validationLog: z.array(controllerValidationLogSchema()) });
}

/** The same shape as the wire's. */
export function bundleValidationResultSchema(): ZodType<BundleValidationResult> {
  return validationResultSchema();
}

/** The same shape as the wire's. */
export function bundlePreValidationSchema(): ZodType<BundlePreValidation> {
  return preValidationResultSchema();
}

export function instanceValidationResultSchema(): ZodType<InstanceValidationResult> {
  return z.object({ valid: z.boolean(), validationMessages: z.array(z.string()) });
}

export function updateLogResultSchema(): ZodType<UpdateLogResult> {
  return z.object({
    updateLogStatus: z.string(),
    retentionPolicy: z.number().int(),
    versions: z.array(
      z.object({ version: z.string(), date: z.string(), errors: z.number().int(), warnings: z.number().int(), folder: z.string() }),
    ),
  });
}

export function bundleUpdateCheckResultSchema(): ZodType<BundleUpdateCheckResult> {
  return z.object({
    updateAvailable: z.boolean(),
    updateType: z.enum(["RELOAD", "RESTART"]).optional(),
    versions: z.object({
      currentBundle: z.object({ version: z.string(), validations: z.array(z.string()) }),
      newVersion: z.object({ version: z.string(), valid: z.boolean().optional(), validations: z.array(z.string()) }).optional(),
    }),
    items: z.object({ deletions: z.array(z.unknown()) }),
  });
}

/** Bytes: a Buffer or any Uint8Array (returned as a Buffer). */
export function bufferSchema(): ZodType<Buffer> {
  return z
    .custom<Uint8Array>((v) => v instanceof Uint8Array, { message: "expected a Buffer" })
    .transform((v) => (Buffer.isBuffer(v) ? v : Buffer.from(v.buffer, v.byteOffset, v.byteLength)));
}

/** A BundleFiles (zips.ts): path -> text, their hash, and the zip when asked for. */
export function bundleFilesSchema() {
  return z.object({ files: z.record(z.string(), z.string()), hash: z.string(), zip: bufferSchema().optional() });
}
