// Functions a program (or any script) calls to read, validate and export through both APIs, with the resources'
// configuration. Documented in docs/functions.md.
export { getApplications, getApplication } from "./applications";
export { getEnvironments, getFlags, getFlag, getExperiments, getTargetGroups, getAuditLogs, type AuditLogInfo } from "./feature-flags";
export { getTeamMembers, getTeamMember, type TeamMemberInfo } from "./team-members";
export {
  getBundles,
  getBundle,
  getRawBundleValidationLog,
  getEffectiveBundleValidationLog,
  getControllerBundleLink,
  validateUploadedBundle,
  RevealedControllerBundleLink,
  type ControllerBundleLink,
  type ControllerBundleLinkOptions,
  type RawBundleValidationLogOptions,
  type EffectiveBundleValidationLogOptions,
} from "./operations-center";
export { getControllers, getControllerItems, type ControllerSummary, type ControllerItem } from "./controllers";
export {
  validateBundle,
  preValidateBundles,
  getEffectiveBundle,
  type BundleSource,
  type BundleTreeOptions,
  type PreValidateBundlesOptions,
  type EffectiveBundleOptions,
  type EffectiveBundle,
} from "./bundle-checks";
export {
  getUpdateLog,
  checkBundleUpdate,
  exportConfiguration,
  exportConfigurationZip,
  exportEffectiveBundle,
  downloadEffectiveBundleFile,
  exportItem,
  downloadSchema,
  type ExportEffectiveBundleOptions,
  type ExportItemOptions,
} from "./instances";
export type { BundleFiles } from "./zips";
export type {
  ApplicationInfo,
  BundlePreValidation,
  BundleSummary,
  BundleUpdateCheckResult,
  BundleValidationResult,
  ControllerValidationLog,
  EffectiveBundleValidationLogResult,
  EffectiveValidationLogRecord,
  InstanceValidationResult,
  RawBundleValidationLogResult,
  StructureValidation,
  UpdateLogResult,
  ValidationLogRecord,
} from "./results";
export { type FunctionOptions, type InstanceOptions, type QuietOptions } from "./context";
export type { SettingValues } from "../../provider/config";

/**
 * Closes the HTTP clients the functions (and, in the same process, the providers) opened. Never needed for a
 * script to exit: idle connections do not hold the event loop. For tests, and long-running processes.
 */
export { closeClients } from "../../provider/config";
