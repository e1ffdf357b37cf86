import { lazyZod } from "../http/lazy-zod";
import {
  controllerJobSchema,
  controllerValidationLogSchema,
  listedBundleSchema,
  preValidationEntrySchema,
  rawValidationLogEntrySchema,
  updateLogStatusShape,
  updateLogVersionSchema,
} from "./casc-schemas";
import { readableListSchema } from "./readable-list";

// Loaded when the first schema is built, not with this module (lazy-zod.ts).
const z = lazyZod();

// The CasC API's lists read item by item (readable-list.ts), for the functions and the resources: one entry in a
// form this version cannot read is set apart, named, and the others are read. Each entry is its list's own schema
// (casc-schemas.ts), tolerant: fields this package has no name for are kept (`loose`), a null list is empty.
// Factories, never module-scope schemas (a serialized provider would capture them), named so that each is built
// once (schema-cache.ts keys on the factory).

const looseBundle = () => listedBundleSchema().loose();
const looseJob = () => controllerJobSchema().loose();
const looseRawEntry = () => rawValidationLogEntrySchema().loose();
const looseControllerEntry = () => controllerValidationLogSchema().loose();
const looseVersion = () => updateLogVersionSchema().loose();
const looseVerdict = () => preValidationEntrySchema().loose();

/** `casc-bundle/list`, bundle by bundle, each named by its `name`. */
export function readableBundleListSchema() {
  return z.object({ bundles: readableListSchema(looseBundle, "name") });
}

/** The Controllers view, item by item, each named by its full name, else its name. */
export function readableControllersViewSchema() {
  return z.object({ jobs: readableListSchema(looseJob, ["fullName", "name"]) });
}

/** The raw validation log, bundle by bundle (`bundle-id`). */
export function readableRawValidationLogSchema() {
  return z.object({ "validation-log": readableListSchema(looseRawEntry, "bundle-id") });
}

/** The effective validation log, controller by controller. */
export function readableEffectiveValidationLogSchema() {
  return z.object({ "validation-log": readableListSchema(looseControllerEntry, "controller") });
}

/** An update log, version by version. */
export function readableUpdateLogSchema() {
  return z.object({ ...updateLogStatusShape(), versions: readableListSchema(looseVersion, "version") });
}

/** A pre-validation, verdict by verdict, each named by its bundle. */
export function readablePreValidationSchema() {
  return z.object({ validations: readableListSchema(looseVerdict, "bundle") });
}
