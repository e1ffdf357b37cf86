/** DefaultBundle: the bundle pre-selected for controllers that match its availability pattern. */

export const TYPE_NAME = "DefaultBundle";

/** One default per operations center: the id names the setting, not the bundle (a bundleId change updates). */
export const ID = "default-bundle";

export interface DefaultBundleInputs {
  bundleId: string;
}

export interface DefaultBundleOutputs {
  bundleId: string;
  /** Controllers for which the bundle is pre-selected (those its availability pattern allows). */
  preselectedFor: string[];
}

/** The inputs a program gives (check fails on any other field). */
export const INPUT_KEYS = ["bundleId"];
