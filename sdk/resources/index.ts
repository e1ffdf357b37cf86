export { Application, type ApplicationArgs } from "./application";
export { BundleAvailability, type BundleAvailabilityArgs } from "./bundle-availability";
export { ControllerBundleAssignment, type ControllerBundleAssignmentArgs } from "./controller-bundle-assignment";
export { DefaultBundle, type DefaultBundleArgs } from "./default-bundle";
export { GlobalAvailabilityPattern, type GlobalAvailabilityPatternArgs } from "./global-availability-pattern";
export { providerShell } from "./provider-shell";
