/** BundleAvailability: which controllers may use a bundle (the bundle's availability pattern, set through the API). */

export const TYPE_NAME = "BundleAvailability";

export interface BundleAvailabilityInputs {
  /** Bundle folder name, as the operations center lists it (`team-a`, `main/controller-base`). */
  bundleId: string;
  /** A regular expression matched against whole full controller paths. Exactly one of regex and controllers. */
  regex?: string;
  /** Full controller paths (`folder1/controller1`), compared as a set. Exactly one of regex and controllers. */
  controllers?: string[];
}

export interface BundleAvailabilityOutputs {
  bundleId: string;
  /** Present when the inputs give controllers (or when a refresh found a pattern of that form). */
  controllers?: string[];
  /** The pattern in force: the input regex, or the one built from controllers (`^(?:a|b)$`). */
  regex: string;
}

export const ID_PREFIX = "bundle-availability/";

export function idOf(bundleId: string): string {
  return `${ID_PREFIX}${bundleId}`;
}

export function bundleIdOf(id: string): string {
  return id.startsWith(ID_PREFIX) ? id.slice(ID_PREFIX.length) : id;
}

/** The inputs a program gives (check fails on any other field). */
export const INPUT_KEYS = ["bundleId", "regex", "controllers"];
