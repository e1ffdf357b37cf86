import type { ReadableList } from "./readable-list-types";

// The CasC bundle API's JSON responses as the clients return them (../shared/specs/casc-bundle-api.md). Plain
// types, no zod: these reach the published declarations, and zod's own do not compile in a project without
// esModuleInterop (Pulumi's template). casc-schemas.ts checks each against its schema at compile time.

/** A message's level in a validation result. */
export type ValidationLevel = "INFO" | "WARNING" | "ERROR";

/** A bundle's information object. `usedBy` and `availableFor` come only in list results. */
export interface BundleInfo {
  name: string;
  linkFileContent: string;
  url: string;
  token: string;
  regex: string;
  availabilityPatternFromYaml: boolean;
  usedBy?: string[];
  availableFor?: string[];
}

/** A bundle as `GET casc-items/list-bundles` lists it: with the controllers using it and those it is available for. */
export interface ListedBundle extends BundleInfo {
  usedBy: string[];
  availableFor: string[];
}

/** One validation of a bundle version, as a validation log records it. */
export interface ValidationLogRecord {
  /** The bundle version validated. */
  version: string;
  /** Number of ERROR messages. */
  errors: number;
  /** Number of WARNING messages. */
  warnings: number;
  /** Number of INFO messages, when the server counts them. */
  info?: number;
  /** The messages (`<LEVEL> - [<CODE>] - <text>`), when the server lists them. */
  messages?: string[];
  /** The folder the validated version was read from. */
  folder: string;
  /** When the validation ran, as the server writes it. */
  date: string;
}

/** A validation of a controller's effective bundle. */
export interface EffectiveValidationLogRecord extends ValidationLogRecord {
  /** The bundle the controller's effective bundle was built from. */
  bundle: string;
  /** Whether the bundle is assigned to the controller, when the server says. */
  assigned?: boolean;
}

/** The raw validation log: per bundle, its records and, where given, each controller's effective records. */
export interface RawBundleValidationLog {
  "validation-log": {
    "bundle-id": string;
    records: ValidationLogRecord[];
    controllers?: { controller: string; records: EffectiveValidationLogRecord[] }[];
  }[];
}

/** The effective validation log: per controller, the records of the bundle it would get. */
export interface EffectiveBundleValidationLog {
  "validation-log": { controller: string; records: EffectiveValidationLogRecord[] }[];
}

/** Where to download a bundle, and the token that authorizes it. */
export interface BundleDownloadLink {
  url: string;
  token: string;
}

/** What a check-out from the bundles' remotes brought. */
export interface CheckOutResult {
  remotes: { name: string; bundles: { bundleName: string; localText: string }[] }[];
}

/** One message of a bundle validation on the operations center. */
export interface StructureValidation {
  /** How serious: an ERROR makes the bundle invalid. */
  level: ValidationLevel;
  /** The validator's code, e.g. `VERSIONVAL`. */
  validationCode: string;
  /** The validator's text. */
  message: string;
}

/** A bundle's validation result: structure validations and, per controller, the effective bundle's. */
export interface ValidationResult {
  valid: boolean;
  errorCount?: number;
  structureValidations: StructureValidation[];
  controllerValidations: { controller: string; controllerStatus?: string; validations?: StructureValidation[] }[];
}

/** The result of validating bundles before they are pushed: one validation per bundle. */
export interface PreValidationResult {
  validations: { bundle: string; result: ValidationResult }[];
}

/** A controller's bundle update log. */
export interface UpdateLog {
  "update-log-status": string;
  "retention-policy": number;
  versions: { version: string; date: string; errors: number; warnings: number; folder: string }[];
}

/**
 * How an instance will apply a new version, as the CasC plugin labels it (pankajy-dev/cloudbees-casc-client-workshop
 * UpdateType.java): the two the spec shows, and those of Bundle Update Timing. Any other text a server writes is kept.
 */
export type UpdateType =
  | "RELOAD"
  | "RESTART"
  | "AUTOMATIC RELOAD"
  | "AUTOMATIC RESTART"
  | "SKIPPED"
  | "RELOAD/RESTART/SKIP"
  | "RESTART/SKIP"
  | "UNKNOWN"
  | (string & {});

/** Whether an update of this type cannot be applied by reload-bundle (the instance must restart). */
export function needsRestart(updateType: UpdateType | undefined): boolean {
  return updateType === "RESTART" || updateType === "RESTART/SKIP" || updateType === "AUTOMATIC RESTART";
}

/** Whether a controller has a new bundle version, and whether applying it needs a reload or a restart. */
export interface BundleUpdateCheck {
  "update-available": boolean;
  "update-type"?: UpdateType;
  versions: {
    "current-bundle": { version: string; validations: string[] };
    "new-version"?: { version: string; valid?: boolean; validations: string[] };
  };
  items: { deletions: unknown[] };
}

/** The answer to a reload request. */
export interface ReloadResult {
  reloaded: boolean;
  completed?: boolean;
  reason?: string;
}

/** The answer to an items creation. */
export interface CreateItemsResult {
  basePath: string;
}

/** A controller's validation of a bundle it was sent. */
export interface InstanceValidation {
  valid: boolean;
  "validation-messages"?: string[];
}

// The entries of the lists the clients also read item by item (casc-readable-schemas.ts).

/** A bundle's entry of the raw validation log. */
export type RawValidationLogEntry = RawBundleValidationLog["validation-log"][number];

/** A controller's entry of a validation log. */
export type ControllerValidationLogEntry = EffectiveBundleValidationLog["validation-log"][number];

/** A version of an update log. */
export type UpdateLogVersion = UpdateLog["versions"][number];

/** One bundle's verdict in a pre-validation. */
export type PreValidationEntry = PreValidationResult["validations"][number];

/** An update log whose versions were read one by one. */
export interface ReadableUpdateLog extends Omit<UpdateLog, "versions"> {
  versions: ReadableList<UpdateLogVersion>;
}
