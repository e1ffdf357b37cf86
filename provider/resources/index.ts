import { application } from "./application/controller";
import { bundleAvailability } from "./bundle-availability/controller";
import { controllerBundleAssignment } from "./controller-bundle-assignment/controller";
import { defaultBundle } from "./default-bundle/controller";
import { globalAvailabilityPattern } from "./global-availability-pattern/controller";
import type { ResourceController } from "./shared/types";

/**
 * The five resource controllers, by the key the SDK's provider shells use:
 * `require("pulumi-cloudbees/provider").resources[<key>].create(inputs)`.
 */
export const resources = {
  application,
  bundleAvailability,
  controllerBundleAssignment,
  defaultBundle,
  globalAvailabilityPattern,
} satisfies Record<string, ResourceController>;

export type ResourceKind = keyof typeof resources;

export type { ResourceController, CheckResult, CheckFailure, DiffResult, CreateResult, ReadResult, UpdateResult } from "./shared/types";
export type { ApplicationInputs, ApplicationOutputs } from "./application/types";
export type { BundleAvailabilityInputs, BundleAvailabilityOutputs } from "./bundle-availability/types";
export type { ControllerBundleAssignmentInputs, ControllerBundleAssignmentOutputs } from "./controller-bundle-assignment/types";
export type { DefaultBundleInputs, DefaultBundleOutputs } from "./default-bundle/types";
export type { GlobalAvailabilityPatternInputs, GlobalAvailabilityPatternOutputs } from "./global-availability-pattern/types";
export { controllersToPattern, patternToControllers, escapeRegex, regexProblem } from "./shared/pattern";
