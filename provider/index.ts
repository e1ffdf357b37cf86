export * from "./http";
export { FeatureManagementClient, DEFAULT_FEATURE_MANAGEMENT_URL, type FeatureManagementClientOptions } from "./clients/feature-management-client";
export type { Application } from "./clients/feature-management-schemas";
export type { CascClientOptions } from "./clients/casc-connection";
export { InstanceClient, type QuietOption } from "./clients/instance-client";
export { OperationsCenterClient } from "./clients/operations-center-client";
export type * from "./clients/casc-schemas";
export { SCHEMA_FILES, SECTION_FILES, type SchemaFile, type SectionFile } from "./clients/inputs";
// The dynamic providers' implementation: the SDK's provider shells require this module by package name in the
// host and call `configure` and `resources.<kind>.<method>`.
export * from "./resources";
export { configure, SETTINGS, SettingError } from "./config";
