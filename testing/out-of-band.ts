/**
 * Changes made outside the program, as a person makes them: what a drift job must notice. The emulator gives the
 * person an API token of their own, so its audit log records the change under their email and name, as the service
 * records a change made in its UI or with that person's token.
 */
import type { Emulator } from "../emulator";
import { FeatureManagementClient } from "../provider/clients/feature-management-client";

export interface OutOfBandPerson {
  email: string;
  /** Default: the part of the email before `@`. */
  name?: string;
  /** The emulator's feature-flag account (default: its first). */
  account?: string;
}

/**
 * A typed client of the emulator's feature-flag service acting as `person` (a new API token of theirs; they become a
 * team member of the account if they are not one). Spaced one second apart while the emulator's rate limit is on.
 * close() it when done.
 */
export function featureManagementClientAs(emu: Emulator, person: OutOfBandPerson): FeatureManagementClient {
  const token = emu.addFeatureManagementUser(person);
  return new FeatureManagementClient({
    baseUrl: emu.featureManagementUrl,
    token,
    minRequestIntervalMs: emu.state.featureManagementRateLimit() ? 1000 : 0,
  });
}
