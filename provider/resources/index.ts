import { guarded } from "./shared/guard";
import { loadedOnFirstUse as lazy } from "./shared/loaded-on-first-use";
import type { ResourceController } from "./shared/types";
import { keepingDeclaredInputs } from "./shared/declared-inputs";
import { withConnection, type ConnectionInputsSpec } from "./shared/with-connection";
import { withSecretInputs } from "./shared/secret-inputs";
import { withProgramSecrets } from "./controller-configuration/program-secrets";

// Each controller's module loads at its kind's first call (shared/loaded-on-first-use.ts): a host loads only what its
// program uses. (`require`, not `import`: an import would load them all with this module.)
const application = lazy(() => (require("./application/controller") as typeof import("./application/controller")).application);
const bundleAvailability = lazy(() => (require("./bundle-availability/controller") as typeof import("./bundle-availability/controller")).bundleAvailability);
const controllerBundleAssignment = lazy(() => (require("./controller-bundle-assignment/controller") as typeof import("./controller-bundle-assignment/controller")).controllerBundleAssignment);
const defaultBundle = lazy(() => (require("./default-bundle/controller") as typeof import("./default-bundle/controller")).defaultBundle);
const globalAvailabilityPattern = lazy(() => (require("./global-availability-pattern/controller") as typeof import("./global-availability-pattern/controller")).globalAvailabilityPattern);
const environment = lazy(() => (require("./environment/controller") as typeof import("./environment/controller")).environment);
const flag = lazy(() => (require("./flag/controller") as typeof import("./flag/controller")).flag);
const flagConfiguration = lazy(() => (require("./flag-configuration/controller") as typeof import("./flag-configuration/controller")).flagConfiguration);
const targetGroup = lazy(() => (require("./target-group/controller") as typeof import("./target-group/controller")).targetGroup);
const teamMember = lazy(() => (require("./team-member/controller") as typeof import("./team-member/controller")).teamMember);
const bundleCheckout = lazy(() => (require("./bundle-checkout/controller") as typeof import("./bundle-checkout/controller")).bundleCheckout);
const controllerBundleToken = lazy(() => (require("./controller-bundle-token/controller") as typeof import("./controller-bundle-token/controller")).controllerBundleToken);
const bundleReload = lazy(() => (require("./bundle-reload/controller") as typeof import("./bundle-reload/controller")).bundleReload);
const items = lazy(() => (require("./items/controller") as typeof import("./items/controller")).items);
const controllerConfiguration = lazy(() => (require("./controller-configuration/controller") as typeof import("./controller-configuration/controller")).controllerConfiguration);
const bundleValidation = lazy(() => (require("./bundle-validation/controller") as typeof import("./bundle-validation/controller")).bundleValidation);

// Every controller is wrapped once here: withSecretInputs (outermost) tells check which inputs the program marked
// secret and keeps their values out of every failure, the net's too; guarded makes check never throw and bounds
// every error message; withConnection adds the `connection` input (and `instance`, for the resources that talk to an instance)
// and runs each method for that connection (see shared/with-connection.ts).
const served = (controller: ResourceController, spec?: ConnectionInputsSpec): ResourceController => withSecretInputs(guarded(withConnection(controller, spec)));
const INSTANCE_LEVEL = { instanceLevel: true };
/**
 * The feature-flag resources' reads fill the optional inputs from the service's object, which holds every field:
 * keepingDeclaredInputs cuts them to those the program declared (shared/declared-inputs.ts). The other reads return
 * their inputs' own keys, or another form of the same setting on drift (BundleAvailability's regex for controllers).
 */
const servedAsDeclared = (controller: ResourceController): ResourceController => withSecretInputs(guarded(keepingDeclaredInputs(withConnection(controller))));

/** The resources that own a setting on the server (read back on refresh, undone or kept on delete). */
const settingResources = {
  application: served(application),
  bundleAvailability: served(bundleAvailability),
  controllerBundleAssignment: served(controllerBundleAssignment),
  defaultBundle: served(defaultBundle),
  globalAvailabilityPattern: served(globalAvailabilityPattern),
} satisfies Record<string, ResourceController>;

/**
 * The feature-flag service's settings beyond applications (issue 15): environments, flags, their configuration per
 * environment, target groups, and the account's team members (issue 29). They share one set of lists per deployment
 * (feature-flags/lists.ts) and one audit-log read per application environment when a refresh finds drift
 * (feature-flags/audit-trail.ts).
 */
const featureFlagResources = {
  environment: servedAsDeclared(environment),
  flag: servedAsDeclared(flag),
  flagConfiguration: servedAsDeclared(flagConfiguration),
  targetGroup: servedAsDeclared(targetGroup),
  teamMember: servedAsDeclared(teamMember),
} satisfies Record<string, ResourceController>;

/**
 * What a controller really runs, compared with the bundle it should run (issue 44): on the controller itself, named by
 * instanceUrl or instance.
 */
const controllerResources = {
  // Told which of its value inputs the program marks secret (controller-configuration/secret-values.ts).
  controllerConfiguration: withProgramSecrets(served(controllerConfiguration, { instanceLevel: true, instanceRequired: true })),
} satisfies Record<string, ResourceController>;

/**
 * The action resources, in the style of pulumi-command: they run on create and again when `triggers` changes
 * (see shared/actions.ts).
 */
export const actionResources = {
  bundleCheckout: served(bundleCheckout),
  controllerBundleToken: served(controllerBundleToken),
  bundleReload: served(bundleReload, INSTANCE_LEVEL),
  items: served(items, INSTANCE_LEVEL),
  // pre-validate-bundle (bundleTreePath) runs on the operations center only, as with instanceUrl.
  bundleValidation: served(bundleValidation, { ...INSTANCE_LEVEL, instanceConflicts: ["bundleTreePath"] }),
} satisfies Record<string, ResourceController>;

/**
 * Every resource controller, by the key the SDK's provider shells use:
 * `require("pulumi-cloudbees/provider").resources[<key>].create(inputs)`.
 */
export const resources = { ...settingResources, ...featureFlagResources, ...controllerResources, ...actionResources } satisfies Record<string, ResourceController>;

/** The kinds whose outputs keep the names of the inputs the program declared (shared/declared-inputs.ts). */
export const KEEPS_DECLARED_INPUTS: ReadonlySet<string> = new Set(Object.keys(featureFlagResources));

/** Kinds of the setting resources (the tests of test/resources enumerate exactly these). */
export type ResourceKind = keyof typeof settingResources;
/** Kinds of the feature-flag resources of issue 15 (test/resources/feature-flag-helpers.ts enumerates these). */
export type FeatureFlagKind = keyof typeof featureFlagResources;
/** Kinds of the action resources. */
export type ActionKind = keyof typeof actionResources;
/** Every kind a provider shell can name. */
export type ProviderKind = keyof typeof resources;

export type { ResourceController, CheckResult, CheckFailure, DiffResult, CreateResult, ReadResult, UpdateResult } from "./shared/types";
export type { ApplicationInputs, ApplicationOutputs } from "./application/types";
export type { BundleAvailabilityInputs, BundleAvailabilityOutputs } from "./bundle-availability/types";
export type { ControllerConfigurationInputs, ControllerConfigurationOutputs } from "./controller-configuration/types";
export type { ControllerBundleAssignmentInputs, ControllerBundleAssignmentOutputs } from "./controller-bundle-assignment/types";
export type { DefaultBundleInputs, DefaultBundleOutputs } from "./default-bundle/types";
export type { GlobalAvailabilityPatternInputs, GlobalAvailabilityPatternOutputs } from "./global-availability-pattern/types";
export type { EnvironmentInputs, EnvironmentOutputs } from "./environment/types";
export type { FlagInputs, FlagOutputs } from "./flag/types";
export type { FlagConfigurationInputs, FlagConfigurationOutputs } from "./flag-configuration/types";
export type { TargetGroupInputs, TargetGroupOutputs } from "./target-group/types";
export type { TeamMemberInputs, TeamMemberOutputs } from "./team-member/types";
export type { BundleCheckoutInputs, BundleCheckoutOutputs, CheckedOutRemote } from "./bundle-checkout/types";
export type { ControllerBundleTokenInputs, ControllerBundleTokenOutputs } from "./controller-bundle-token/types";
export type { BundleReloadInputs, BundleReloadOutputs } from "./bundle-reload/types";
export type { ItemsInputs, ItemsOutputs } from "./items/types";
export type { BundleValidationInputs, BundleValidationOutputs } from "./bundle-validation/types";
export { controllersToPattern, patternToControllers, escapeRegex, regexProblem } from "./shared/pattern";
