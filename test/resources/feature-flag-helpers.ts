/* istanbul ignore file */
/**
 * Set-up of the feature-flag resource tests (issue 15): test/resources/helpers.ts's world (one emulator, with the
 * service's one-request-per-second limit on, and one real provider host per test file) plus the feature-flag kinds'
 * provider texts, a client for changes made "in the UI", and request counting.
 *
 * The provider's client spaces its requests one second apart (machine-wide, per service URL), and the test's own
 * client below shares that spacing (same URL, same lock), so neither trips the emulator's 555. Each request costs
 * about a second: tests keep them few and share one deployment where they do not interfere.
 */
import type { FeatureFlagKind } from "../../provider/resources";
import { FeatureManagementClient } from "../../provider";
import { providerShell } from "../../sdk/resources/provider-shell";
import { dynamicType, secret, serializeProvider, type JsonObject, type ManagedResource } from "../harness";
import { adminConfig, startWorld, type World } from "./helpers";

export const FF_TYPES: Record<FeatureFlagKind, string> = {
  environment: dynamicType("cloudbees", "Environment"),
  flag: dynamicType("cloudbees", "Flag"),
  flagConfiguration: dynamicType("cloudbees", "FlagConfiguration"),
  targetGroup: dynamicType("cloudbees", "TargetGroup"),
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

export async function startFlagWorld(options: Parameters<typeof startWorld>[0] = {}): Promise<FlagWorld> {
  const w = await startWorld({
    emulator: { featureManagementRateLimit: true },
    // `same`: another connection to the same account, to replace resources by a connection change.
    config: (emu) => ({
      ...adminConfig(emu),
      "cloudbees:connections": secret({ same: { featureManagementUrl: emu.featureManagementUrl, featureManagementToken: emu.credentials.featureManagementToken, maxRetries: 0 } }),
    }),
    ...options,
  });
  const texts = {} as Record<FeatureFlagKind, string>;
  for (const kind of FF_KINDS) texts[kind] = await serializeProvider(providerShell(kind));
  const fm = new FeatureManagementClient({ baseUrl: w.emu.featureManagementUrl, token: w.emu.credentials.featureManagementToken, timeoutMs: 5000, maxRetries: 1 });
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
