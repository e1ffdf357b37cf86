/** DefaultBundle: the bundle pre-selected for controllers that match its availability pattern. */

export const TYPE_NAME = "DefaultBundle";

/** One default per operations center: the id names the setting, not the bundle (a bundleId change updates). */
export const ID = "default-bundle";

export interface DefaultBundleInputs {
  bundleId: string;
}

export type DefaultBundleOutputs = DefaultBundleInputs;

/** The inputs a program gives (check fails on any other field). */
export const INPUT_KEYS = ["bundleId"];
