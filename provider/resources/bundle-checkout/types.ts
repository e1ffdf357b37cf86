/** BundleCheckout: the operations center re-reads its bundle locations (POST casc-bundle/check-out). */

export const TYPE_NAME = "BundleCheckout";

/** One check-out per operations center: the id names the action. */
export const ID = "bundle-checkout";

export interface BundleCheckoutInputs {
  /** Server-side timeout of the check-out in seconds (the operations center's default: 600). */
  timeoutSeconds?: number;
  /** Any values: a change runs the check-out again. */
  triggers?: unknown[];
}

export interface CheckedOutRemote {
  name: string;
  bundles: { bundleName: string; localText: string }[];
}

export interface BundleCheckoutOutputs extends BundleCheckoutInputs {
  /** Each bundle source with its bundles, as the check-out answered. */
  remotes: CheckedOutRemote[];
  /** Names of the bundles checked out, from every remote, sorted. */
  bundles: string[];
}

/** The inputs the outputs repeat. */
export const INPUT_KEYS = ["timeoutSeconds", "triggers"];
