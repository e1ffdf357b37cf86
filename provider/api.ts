// The public client API: the typed clients of both services, their errors, options and response types, and the
// setting names the functions share with the resources. The package root (sdk/index.ts) re-exports it.
export * from "./http";
export { FeatureManagementClient, DEFAULT_FEATURE_MANAGEMENT_URL, type FeatureManagementClientOptions } from "./clients/feature-management-client";
export type { Application } from "./clients/feature-management-types";
// Records are exported as <Name>Info: the SDK's resources Environment, Flag and TargetGroup take the plain names.
// The audit log's wire record (`_id`, `creation_date`) is AuditLogRecord; getAuditLogs returns camelCase AuditLogInfo.
export type { AuditLog as AuditLogRecord, Environment as EnvironmentInfo, Experiment as ExperimentInfo, Flag as FlagInfo, TargetGroup as TargetGroupInfo } from "./clients/feature-flag-types";
export type { Condition, DependencyClause, EnvironmentRequest, ExperimentRequest, FlagConfigurationRequest, FlagCreateRequest, FlagOption, FlagValue, GroupClause, GroupOperator, JsonPatchOperation, Platform, PropertyClause, PropertyOperator, ScheduledValue, SplitValue, TargetGroupCondition, TargetGroupOperator, TargetGroupRequest, TeamMemberApplications, TeamMemberRequest, EnvironmentPermission, VersionClause, VersionOperator } from "./clients/feature-flag-types";
export type { UnknownFields } from "./clients/feature-flag-types";
export type { ReadableList, UnreadableItem } from "./clients/readable-list-types";
export type { DailyImpressions, FlagsStatusRead, ImpressionsForm, ImpressionsRead, ImpressionsWindow, ServiceFlagStatus } from "./clients/impression-types";
export { PROPERTY_OPERATORS, VERSION_OPERATORS, GROUP_OPERATORS, TARGET_GROUP_OPERATORS, ENVIRONMENT_PERMISSIONS } from "./clients/feature-flag-types";
export type { CascClientOptions } from "./clients/casc-connection";
export { InstanceClient, type QuietOption } from "./clients/instance-client";
export type { ConfigHistoryEntry, ConfigHistoryOptions, ConfigHistoryRead } from "./clients/config-history-types";
export { OperationsCenterClient } from "./clients/operations-center-client";
// The CasC responses by the names the clients use (the record types inside them are the SDK functions' to name).
export type {
  BundleDownloadLink,
  BundleInfo,
  BundleUpdateCheck,
  CheckOutResult,
  CreateItemsResult,
  EffectiveBundleValidationLog,
  InstanceValidation,
  ListedBundle,
  PreValidationResult,
  RawBundleValidationLog,
  ReloadResult,
  UpdateLog,
  ValidationResult,
  // The entries of the lists the clients also read item by item (read... methods).
  ControllerValidationLogEntry,
  PreValidationEntry,
  RawValidationLogEntry,
  ReadableUpdateLog,
  UpdateLogVersion,
} from "./clients/casc-types";
export { SCHEMA_FILES, SECTION_FILES, type SchemaFile, type SectionFile } from "./clients/inputs";
export { SettingError, type SettingValues } from "./config";
