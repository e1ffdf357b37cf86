/**
 * rox-node@6.0.16, unmodified, set up in self-managed mode against the emulator (`emulator.selfManaged`) behind the
 * loopback guard of pulumi-cloudbees/testing: for the impression tests (test/hygiene/) and the main job's hygiene
 * report (examples/main-job.ts), which make impressions with the real SDK. What the options do, read from its
 * dist/rox-node.js:
 * - `selfManaged: {serverURL, analyticsURL}`: configuration and state go to serverURL, impressions to analyticsURL,
 *   the push listener is off without `pushUpdateURL` (Client.handleOptions, SELFMANAGEDMODE_CONFIGURATION);
 * - `fetchIntervalInSec: 0`: setup fetches nothing (Client.fetchPeriodically); each fetch is `fetch()` here, awaited
 *   through `configurationFetchedHandler` (Rox.fetch returns nothing);
 * - `analytics.flushInterval`: the queue's timer (Analytics.enqueue: 10 s by default) is shortened so that no timer
 *   outlives a test; the first impression still goes at once and then every 20 (`flushAt`, kept at its default);
 * - the guard as `networkApi` and `eventSourceImpl`: the configuration fetcher, the state sender, the analytics and
 *   the Bugsnag reporter self-managed mode installs all take `networkApi` (Client.setup), so nothing leaves loopback.
 * rox-node's Rox is one per process (and self-managed mode leaves its analytics set for good): one client per file.
 */
import type { SelfManagedUrls } from "../../emulator";
import { LoopbackGuard, type LoopbackGuardStats } from "../loopback-guard";
import type { RoxContext, RoxFetchResult, RoxSdk } from "./rox-sdk";

export interface SelfManagedRox {
  readonly rox: RoxSdk;
  fetch(): Promise<RoxFetchResult>;
  isEnabled(flag: string, context?: RoxContext): boolean;
  getString(flag: string, defaultValue: string, context?: RoxContext): string;
  guard(): LoopbackGuardStats;
  /**
   * Sets the SDK up once more, which cancels its debounced state report (Client._sendState) by sending it now:
   * resolves once `sent()` says the emulator received it, so that nothing of the SDK is still on its way.
   */
  close(sent: () => boolean): Promise<void>;
}

export async function startSelfManagedRox(selfManaged: SelfManagedUrls, appKey: string, flushIntervalMs = 100): Promise<SelfManagedRox> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const rox = require("rox-node") as RoxSdk;
  const guard = new LoopbackGuard();
  let pending: ((result: RoxFetchResult) => void) | undefined;
  const options = {
    selfManaged,
    fetchIntervalInSec: 0,
    analytics: { flushInterval: flushIntervalMs },
    networkApi: guard.networkApi(),
    eventSourceImpl: guard.eventSourceClass(),
    configurationFetchedHandler: (result: RoxFetchResult) => {
      const resolve = pending;
      pending = undefined;
      resolve?.(result);
    },
  };
  await rox.setup(appKey, options);
  const fetch = () =>
    new Promise<RoxFetchResult>((resolve, reject) => {
      pending = (result) => (result.fetcherStatus === "ERROR_FETCH_FAILED" ? reject(new Error(`rox-node could not fetch: ${String(result.errorDetails)}`)) : resolve(result));
      rox.fetch();
    });
  return {
    rox,
    fetch,
    isEnabled: (flag, context) => rox.dynamicApi.isEnabled(flag, false, context),
    getString: (flag, defaultValue, context) => rox.dynamicApi.value(flag, defaultValue, context),
    guard: () => guard.stats(),
    close: async (sent) => {
      await rox.setup(appKey, options);
      await until(sent);
    },
  };
}

/** Resolves once `done()` holds, checking every 20 ms; rejects after `timeoutMs` (a deadline, never a measure). */
export async function until(done: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`not done within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
