// Functions a program (or any script) calls to read, validate and export through both APIs, with the resources'
// configuration. Documented in docs/functions.md. Their logic is the core's (provider/functions), which the plugin
// serves as invokes too; these are its TypeScript face, with the program's settings (host.ts) and mocks (mocks.ts).
export { getApplications, getApplication } from "./applications";
export { getEnvironments, getFlags, getFlag, getExperiments, getTargetGroups, getAuditLogs } from "./feature-flags";
export type { AuditLogInfo } from "../../provider/functions/feature-flags";
export { getTeamMembers, getTeamMember } from "./team-members";
export type { TeamMemberInfo } from "../../provider/functions/team-members";
export {
  getBundles,
  getBundle,
  getRawBundleValidationLog,
  getEffectiveBundleValidationLog,
  validateUploadedBundle,
} from "./operations-center";
export type {
  ControllerBundleLinkOptions,
  RawBundleValidationLogOptions,
  EffectiveBundleValidationLogOptions,
} from "../../provider/functions/operations-center";
export { getControllerBundleLink, RevealedControllerBundleLink, type ControllerBundleLink } from "./controller-bundle-link";
export { getControllers, getControllerItems } from "./controllers";
export type { ControllerSummary, ControllerItem } from "../../provider/functions/controllers";
export { validateBundle, preValidateBundles, getEffectiveBundle } from "./bundle-checks";
export type { BundleSource } from "../../provider/functions/bundle-sources";
export type {
  BundleTreeOptions,
  PreValidateBundlesOptions,
  EffectiveBundleOptions,
  EffectiveBundle,
} from "../../provider/functions/bundle-checks";
export {
  getUpdateLog,
  checkBundleUpdate,
  exportConfiguration,
  exportConfigurationZip,
  exportEffectiveBundle,
  downloadEffectiveBundleFile,
  exportItem,
  downloadSchema,
} from "./instances";
export type { ExportEffectiveBundleOptions, ExportItemOptions } from "../../provider/functions/instances";
export type { BundleFiles } from "../../provider/functions/zips";
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
} from "../../provider/functions/results";
export type { FunctionOptions, InstanceOptions, QuietOptions } from "../../provider/functions/calls";
export type { SettingValues } from "../../provider/config";

/**
 * Closes the HTTP clients the functions (and, in the same process, the providers) opened. Never needed for a
 * script to exit: idle connections do not hold the event loop. For tests, and long-running processes.
 */
export { closeClients } from "../../provider/config";
