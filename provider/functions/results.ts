import type {
  BundleUpdateCheck,
  ControllerValidationLogEntry,
  EffectiveValidationLogRecord,
  InstanceValidation,
  ListedBundle,
  PreValidationEntry,
  RawValidationLogEntry,
  StructureValidation,
  UpdateLog,
  ValidationLogRecord,
  ValidationResult,
  UpdateType,
} from "../clients/casc-types";
import type { Application } from "../clients/feature-management-types";

// The records as the API writes them, shared with the clients' responses.
export type { EffectiveValidationLogRecord, StructureValidation, ValidationLogRecord };

// What the functions return: camelCase, documented types. The clients keep the wire shapes the specs name
// (`{"validation-log": [{"bundle-id": ...}]}`); the functions translate them here, one function per shape. The
// entries of the lists read item by item keep fields this package has no name for: only the documented ones go on.

/** A feature-flag application as the service lists it. */
export interface ApplicationInfo {
  /** The application's id (the service's). */
  id: string;
  /** The application's name. */
  name: string;
}

/**
 * A bundle as the operations center lists it: availability and assignments. The list's `token` and
 * `linkFileContent` are left out: they are empty in list results (a token belongs to a controller's link), and
 * leaving them out means no token can reach a stack output in clear. A controller's token comes from
 * getControllerBundleLink, as a secret.
 */
export interface BundleSummary {
  /** The bundle's id: its folder path in the bundle location (`team-a`, `teams/platform`). */
  name: string;
  /** Where the operations center serves the bundle. */
  url: string;
  /** The availability pattern in force (a Java regular expression on controller full paths); "" for none. */
  regex: string;
  /** true when `regex` comes from the bundle's bundle.yaml (`availabilityPattern`), not from the API. */
  availabilityPatternFromYaml: boolean;
  /** Full paths of the controllers the bundle is assigned to. */
  usedBy: string[];
  /** Full paths of the controllers the bundle is available to (its pattern and the global visibility applied). */
  availableFor: string[];
}

/** The effective-bundle validations of one controller. */
export interface ControllerValidationLog {
  /** Full path of the controller. */
  controller: string;
  /** Its validations, as the server orders them. */
  records: EffectiveValidationLogRecord[];
}

/** The raw bundle validation log (getRawBundleValidationLog). */
export interface RawBundleValidationLogResult {
  /** One entry per bundle. */
  validationLog: Array<{
    /** The bundle's id. */
    bundleId: string;
    /** Its validations, as the server orders them. */
    records: ValidationLogRecord[];
    /** With `controller: true`: the effective-bundle validations of the controllers that use the bundle. */
    controllers?: ControllerValidationLog[];
  }>;
}

/** The effective bundle validation log (getEffectiveBundleValidationLog): one entry per controller. */
export interface EffectiveBundleValidationLogResult {
  /** One entry per controller (those the `controller` filter matches). */
  validationLog: ControllerValidationLog[];
}

/** A bundle validation on the operations center (validateUploadedBundle, preValidateBundles): a verdict. */
export interface BundleValidationResult {
  /** false when any message is an ERROR. */
  valid: boolean;
  /** Number of ERROR messages, when the server counts them. */
  errorCount?: number;
  /** Messages about the bundle itself (its files, descriptor, plugins, ...). */
  structureValidations: StructureValidation[];
  /** Per controller the bundle is available to: how it validates there. */
  controllerValidations: Array<{
    /** Full path of the controller. */
    controller: string;
    /** The controller's state as the server reports it, when it does. */
    controllerStatus?: string;
    /** The messages for that controller, when there are any. */
    validations?: StructureValidation[];
  }>;
}

/** The pre-validation of raw bundles (preValidateBundles): one verdict per bundle sent. */
export interface BundlePreValidation {
  /** One verdict per bundle of the zip, parents included. */
  validations: Array<{
    /** The bundle, with its branch folder (`main/team-a`). */
    bundle: string;
    /** Its verdict. */
    result: BundleValidationResult;
  }>;
}

/** A bundle validated by an instance (validateBundle): a verdict, not an error. */
export interface InstanceValidationResult {
  /** false when any message is an ERROR. */
  valid: boolean;
  /** The messages, `<LEVEL> - [<CODE>] - <text>`; [] when the server sent none. */
  validationMessages: string[];
}

/** An instance's bundle update log (getUpdateLog). */
export interface UpdateLogResult {
  /** Whether the instance keeps an update log (`ENABLED`, `DISABLED`). */
  updateLogStatus: string;
  /** How many versions the log keeps. */
  retentionPolicy: number;
  /** The versions the instance received, as the server orders them. */
  versions: Array<{
    /** The bundle version. */
    version: string;
    /** When it was received, as the server writes it. */
    date: string;
    /** Number of ERROR messages of its validation. */
    errors: number;
    /** Number of WARNING messages of its validation. */
    warnings: number;
    /** The folder holding that version on the instance. */
    folder: string;
  }>;
}

/** Whether a newer bundle is available to an instance (checkBundleUpdate). */
export interface BundleUpdateCheckResult {
  /** true when a newer bundle version is available to the instance. */
  updateAvailable: boolean;
  /** How the update would apply: `RELOAD` (without restart) or `RESTART`; only with an update. */
  /** As the instance labels it: RELOAD, RESTART, or a label of Bundle Update Timing ("RESTART/SKIP", ...). */
  updateType?: UpdateType;
  /** The version in force and, with an update, the new one. */
  versions: {
    /** The bundle version in force, and its validation messages. */
    currentBundle: { version: string; validations: string[] };
    /** The newer version, when there is one: whether it is valid, and its validation messages. */
    newVersion?: { version: string; valid?: boolean; validations: string[] };
  };
  /** Items the update would delete (the server's objects, unchanged). */
  items: { deletions: unknown[] };
}

export function applicationInfoOf(app: Application): ApplicationInfo {
  return { id: app.id, name: app.name };
}

export function bundleSummaryOf(bundle: ListedBundle): BundleSummary {
  const { name, url, regex, availabilityPatternFromYaml, usedBy, availableFor } = bundle;
  return { name, url, regex, availabilityPatternFromYaml, usedBy, availableFor };
}

/** The raw log's entries (RawBundleValidationLog["validation-log"], or those of them that could be read). */
export function rawValidationLogOf(entries: RawValidationLogEntry[]): RawBundleValidationLogResult {
  return {
    validationLog: entries.map((entry) => ({
      bundleId: entry["bundle-id"],
      records: entry.records,
      ...(entry.controllers ? { controllers: entry.controllers.map(controllerLogOf) } : {}),
    })),
  };
}

/** The effective log's entries (EffectiveBundleValidationLog["validation-log"], or those that could be read). */
export function effectiveValidationLogOf(entries: ControllerValidationLogEntry[]): EffectiveBundleValidationLogResult {
  return { validationLog: entries.map(controllerLogOf) };
}

function controllerLogOf({ controller, records }: ControllerValidationLogEntry): ControllerValidationLog {
  return { controller, records };
}

export function validationResultOf(result: ValidationResult): BundleValidationResult {
  return result;
}

/** The verdicts (PreValidationResult["validations"], or those of them that could be read). */
export function preValidationResultOf(validations: PreValidationEntry[]): BundlePreValidation {
  return { validations: validations.map(({ bundle, result }) => ({ bundle, result })) };
}

export function instanceValidationOf(result: InstanceValidation): InstanceValidationResult {
  return { valid: result.valid, validationMessages: result["validation-messages"] ?? [] };
}

export function updateLogOf(log: UpdateLog): UpdateLogResult {
  const versions = log.versions.map(({ version, date, errors, warnings, folder }) => ({ version, date, errors, warnings, folder }));
  return { updateLogStatus: log["update-log-status"], retentionPolicy: log["retention-policy"], versions };
}

export function bundleUpdateCheckOf(check: BundleUpdateCheck): BundleUpdateCheckResult {
  const newVersion = check.versions["new-version"];
  return {
    updateAvailable: check["update-available"],
    ...(check["update-type"] ? { updateType: check["update-type"] } : {}),
    versions: { currentBundle: check.versions["current-bundle"], ...(newVersion ? { newVersion } : {}) },
    items: check.items,
  };
}
