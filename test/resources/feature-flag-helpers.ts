/* istanbul ignore file */
/**
 * Set-up of the feature-flag resource tests (issue 15): test/resources/helpers.ts's world (one emulator and one real
 * provider host per test file) plus the feature-flag kinds' provider texts, a client for changes made "in the UI",
 * and request counting.
 *
 * By default the emulator's rate limit is off and nobody waits between requests (emulatorStackConfig sets
 * cloudbees:featureManagementRequestIntervalMs to 0). With `rateLimit: true` the service's one request per second
 * holds: the provider's client spaces its requests one second apart (machine-wide, per service URL), and the test's
 * own client shares that spacing (same URL, same lock), so neither trips the emulator's 555.
 */
import type { FeatureFlagKind } from "../../provider/resources";
import { FeatureManagementClient } from "../../provider";
import { dynamicType, secret, type JsonObject, type ManagedResource } from "../harness";
import { providerTextsOf } from "../harness/provider-texts";
import { adminConfig, startWorld, type World } from "./helpers";

export const FF_TYPES: Record<FeatureFlagKind, string> = {
  environment: dynamicType("cloudbees", "Environment"),
  flag: dynamicType("cloudbees", "Flag"),
  flagConfiguration: dynamicType("cloudbees", "FlagConfiguration"),
  targetGroup: dynamicType("cloudbees", "TargetGroup"),
  teamMember: dynamicType("cloudbees", "TeamMember"),
};

export const FF_KINDS = Object.keys(FF_TYPES) as FeatureFlagKind[];

export const FM_PREFIX = "/feature-management/public-api/";

export interface FlagWorld extends World {
  ffTexts: Record<FeatureFlagKind, string>;
  /** The service as a person in the UI changes it (the emulator's API), spaced as the provider is. */
  fm: FeatureManagementClient;
  /** A resource of a feature-flag kind, as `new cloudbees.<Type>(name, inputs)` declares it. */
  ff(kind: FeatureFlagKind, name: string, inputs: JsonObject): ManagedResource;
  /** Feature-flag requests journaled since the mark (see mark()). */
  since(mark: number): { method: string; path: string; status: number }[];
  mark(): number;
}

export async function startFlagWorld(options: Parameters<typeof startWorld>[0] & { rateLimit?: boolean } = {}): Promise<FlagWorld> {
  const { rateLimit = false, ...worldOptions } = options;
  const interval = rateLimit ? 1000 : 0;
  const w = await startWorld({
    emulator: { featureManagementRateLimit: rateLimit },
    // `same`: another connection to the same account, to replace resources by a connection change.
    config: (emu) => ({
      ...adminConfig(emu),
      "cloudbees:connections": secret({
        same: { featureManagementUrl: emu.featureManagementUrl, featureManagementToken: emu.credentials.featureManagementToken, maxRetries: 0, featureManagementRequestIntervalMs: interval },
      }),
    }),
    ...worldOptions,
  });
  const texts = await providerTextsOf(FF_KINDS);
  const fm = new FeatureManagementClient({ baseUrl: w.emu.featureManagementUrl, token: w.emu.credentials.featureManagementToken, timeoutMs: 5000, maxRetries: 1, minRequestIntervalMs: interval });
  const close = w.close.bind(w);
  const fmEntries = () => w.emu.journal.entries().filter((e) => e.path.startsWith(FM_PREFIX));
  return Object.assign(w, {
    ffTexts: texts,
    fm,
    ff: (kind: FeatureFlagKind, name: string, inputs: JsonObject) => w.lc.resource(FF_TYPES[kind], name, texts[kind], inputs),
    mark: () => fmEntries().length,
    since: (mark: number) => fmEntries().slice(mark).map((e) => ({ method: e.method, path: e.path.slice(FM_PREFIX.length - 1), status: e.status })),
    close: async () => {
      await fm.close();
      await close();
    },
  });
}

/** The requests as "METHOD /path" lines (below /public-api). */
export function lines(entries: { method: string; path: string }[]): string[] {
  return entries.map((e) => `${e.method} ${e.path}`);
}

/** The writes among them. */
export function writes(entries: { method: string; path: string }[]): string[] {
  return lines(entries.filter((e) => e.method !== "GET"));
}
