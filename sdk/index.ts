// What programs import from "pulumi-cloudbees": the resources, the functions, the bundle toolkit, the typed clients
// and their errors. The providers' implementation is not part of it: the shells load it as "pulumi-cloudbees/provider".
export * from "../provider/api";
// Explicit exports win over the star export above (the provider exports a client type named Application).
export {
  Application,
  BundleAvailability,
  ControllerBundleAssignment,
  ControllerConfiguration,
  DefaultBundle,
  GlobalAvailabilityPattern,
  type ApplicationArgs,
  type BundleAvailabilityArgs,
  type ControllerBundleAssignmentArgs,
  type ControllerConfigurationArgs,
  type DefaultBundleArgs,
  type GlobalAvailabilityPatternArgs,
  type ConnectionArgs,
  type InstanceArgs,
} from "./resources";
// The feature-flag resources of issue 15 (explicit: the client API exports types named Environment, Flag and
// TargetGroup, the records the service answers).
export {
  Environment,
  Flag,
  FlagConfiguration,
  TargetGroup,
  TeamMember,
  type EnvironmentArgs,
  type FlagArgs,
  type FlagConfigurationArgs,
  type TargetGroupArgs,
  type TeamMemberArgs,
  type TeamMemberApplicationInput,
  type ConditionInput,
  type DependencyClauseInput,
  type FlagValueInput,
  type GroupClauseInput,
  type PlatformInput,
  type PropertyClauseInput,
  type ScheduledValueInput,
  type SplitValueInput,
  type TargetGroupConditionInput,
  type VersionClauseInput,
} from "./resources";
// The action resources (issue 4), in the style of pulumi-command.
export {
  BundleCheckout,
  BundleReload,
  BundleValidation,
  ControllerBundleToken,
  Items,
  type BundleCheckoutArgs,
  type BundleReloadArgs,
  type BundleValidationArgs,
  type CheckedOutBundleSource,
  type ControllerBundleTokenArgs,
  type ItemsArgs,
} from "./resources";
export * from "./functions";
// The local bundle toolkit: lint, zip and unzip bundles offline.
export * from "../provider/bundle";
