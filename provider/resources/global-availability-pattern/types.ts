/** GlobalAvailabilityPattern: whether bundles without a pattern are available to every controller. */

export const TYPE_NAME = "GlobalAvailabilityPattern";

/** One setting per operations center. */
export const ID = "global-availability-pattern";

export interface GlobalAvailabilityPatternInputs {
  /** true: every bundle without a pattern may be used by any controller (flexible, less secure). */
  visibility: boolean;
}

export type GlobalAvailabilityPatternOutputs = GlobalAvailabilityPatternInputs;

/** The inputs a program gives (check fails on any other field). */
export const INPUT_KEYS = ["visibility"];
