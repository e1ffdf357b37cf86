// The program functions' logic, which both faces serve: the TypeScript face (sdk/functions) to programs, the
// plugin (provider/plugin/invokes.ts) as invokes. Each takes the face's host first (host.ts).
export { getApplications, getApplication } from "./applications";
export { getEnvironments, getFlags, getFlag, getExperiments, getTargetGroups, getAuditLogs } from "./feature-flags";
export { getTeamMembers, getTeamMember } from "./team-members";
export { getBundles, getBundle, getRawBundleValidationLog, getEffectiveBundleValidationLog, readControllerBundleLink, validateUploadedBundle } from "./operations-center";
export { getControllers, getControllerItems } from "./controllers";
export { validateBundle, preValidateBundles, getEffectiveBundle } from "./bundle-checks";
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
export { defineFunction, type FunctionHost, type FunctionSpec } from "./host";
