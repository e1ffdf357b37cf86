/**
 * `startRoxClient`: the vendor's Node SDK (`rox-node`, an optional peer of this package) set up against one
 * environment of the emulator, so a test sees the flag values its application would see after `pulumi up`.
 *
 * What keeps every connection on loopback, read from rox-node@6.0.16 dist/rox-node.js:
 * - `roxy`: the configuration is a GET of exactly that URL (ConfigurationFetcher.fetchFromNetwork,
 *   fetchRemoteConfigurationWithRoxy), and no state sender nor impression analytics exist (Client.setup creates them
 *   only without roxyUrl);
 * - `fetchIntervalInSec: 0`: no periodic fetch (Client.fetchPeriodically returns at once), so setup fetches nothing
 *   and each fetch is ours;
 * - `disablePushUpdateListener: true`: roxy does not turn off the Server-Sent-Events listener to push.rollout.io
 *   (Client.startOrStopPushUpdatesListener);
 * - the guard (loopback-guard.ts) as `networkApi` and `eventSourceImpl`: whatever the SDK still tries goes through
 *   it, and it refuses, before any connection, every address that is not loopback.
 */
import { DEFAULT_TIMEOUT_MS, LoopbackGuard, type LoopbackGuardStats } from "../loopback-guard";
import type { RoxContext, RoxFetchResult, RoxSdk } from "./rox-sdk";

export interface RoxClientOptions {
  /** `emulator.roxyUrl(environmentKey)`: the environment whose flags the SDK reads. */
  roxyUrl: string;
  /**
   * The SDK key rox-node is set up with (it must look like one: 24 hex digits or a UUID; rox-node: Client.setKey).
   * Roxy mode does not compare it with the configuration. Default: the key at the end of `roxyUrl`.
   */
  appKey?: string;
  /** rox-node's `version` option: the application's release, `rox.app_release`, what `version` clauses compare. */
  version?: string;
  /** rox-node's `platform` option (default "NodeJS"): `rox.platform`, what a configuration's `platforms` match. */
  platform?: string;
  /** rox-node's `distinctId` option: `rox.distinct_id`, the default stickiness property, for this whole process. */
  distinctId?: string;
  /** rox-node's `impressionHandler` option. */
  impressionHandler?: (reporting: { name: string; value: unknown; targeting: boolean }, context?: RoxContext) => void;
  /** rox-node's `dynamicPropertyRuleHandler` option (default: unregistered properties are read from the context). */
  dynamicPropertyRuleHandler?: (propertyName: string, context?: RoxContext) => unknown;
  /** The rox-node module to drive; default `require("rox-node")` from this package's location. */
  rox?: RoxSdk;
  /** A fetch that gets no answer within this fails. Default 10 000 ms. */
  timeoutMs?: number;
  /** Fetch once before returning (default true); a failed first fetch then fails startRoxClient. */
  fetchOnStart?: boolean;
}

export interface RoxClient {
  /** The rox-node module (its process-wide Rox), for what this helper does not wrap: register, custom properties. */
  readonly rox: RoxSdk;
  readonly roxyUrl: string;
  /** `Rox.fetch()`, awaited: resolves once the SDK applied the configuration, rejects when the fetch failed. */
  fetch(): Promise<RoxFetchResult>;
  /** The SDK's value of a boolean flag; `defaultValue` (default false) is the default in code. */
  isEnabled(flag: string, context?: RoxContext, defaultValue?: boolean): boolean;
  /** The SDK's value of a string flag, `defaultValue` being the default in code. */
  getString(flag: string, defaultValue: string, context?: RoxContext): string;
  /** The SDK's value of a number flag, `defaultValue` being the default in code. */
  getNumber(flag: string, defaultValue: number, context?: RoxContext): number;
  /** What the loopback guard allowed and refused for this client. */
  guard(): LoopbackGuardStats;
  /** Ends this client, so that another can start (rox-node has one Rox per process). */
  close(): Promise<void>;
}

/** Which client owns the process-wide Rox of each rox-node module instance. */
const owners = new WeakMap<RoxSdk, string>();

/**
 * Sets rox-node up against the emulator environment of `roxyUrl`, behind the loopback guard, and fetches its
 * configuration once (unless `fetchOnStart` is false). rox-node's Rox is one per process: one client at a time (close it before the next).
 */
export async function startRoxClient(options: RoxClientOptions): Promise<RoxClient> {
  const rox = options.rox ?? loadRoxNode();
  const owner = owners.get(rox);
  if (owner !== undefined) {
    throw new Error(`startRoxClient: rox-node's Rox is one per process and already serves ${owner}: close() that client first`);
  }
  const appKey = options.appKey ?? keyOf(options.roxyUrl);
  const guard = new LoopbackGuard(options.timeoutMs);
  const waiters: { resolve: (r: RoxFetchResult) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }[] = [];
  const setupOptions: Record<string, unknown> = {
    roxy: options.roxyUrl,
    fetchIntervalInSec: 0,
    disablePushUpdateListener: true,
    networkApi: guard.networkApi(),
    eventSourceImpl: guard.eventSourceClass(),
    configurationFetchedHandler: (result: RoxFetchResult) => {
      const waiter = waiters.shift();
      if (!waiter) return;
      clearTimeout(waiter.timer);
      if (result.fetcherStatus === "ERROR_FETCH_FAILED") waiter.reject(fetchError(options.roxyUrl, result.errorDetails));
      else waiter.resolve(result);
    },
    ...(options.version !== undefined ? { version: options.version } : {}),
    ...(options.platform !== undefined ? { platform: options.platform } : {}),
    ...(options.distinctId !== undefined ? { distinctId: options.distinctId } : {}),
    ...(options.impressionHandler ? { impressionHandler: options.impressionHandler } : {}),
    ...(options.dynamicPropertyRuleHandler ? { dynamicPropertyRuleHandler: options.dynamicPropertyRuleHandler } : {}),
  };
  owners.set(rox, options.roxyUrl);
  let closed = false;
  // rox-node reports results without saying which fetch they answer: once one is late, none can be told apart.
  let lateFetch: string | undefined;

  const fetch = (): Promise<RoxFetchResult> => {
    if (closed) return Promise.reject(new Error("startRoxClient: this client is closed"));
    if (lateFetch) return Promise.reject(new Error(`startRoxClient: ${lateFetch}; its result may still come and would answer this fetch: close this client and start another`));
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const done = new Promise<RoxFetchResult>((resolve, reject) => {
      const timer = setTimeout(() => {
        const i = waiters.findIndex((w) => w.timer === timer);
        if (i >= 0) waiters.splice(i, 1);
        lateFetch = `rox-node fetched nothing from ${options.roxyUrl} within ${timeoutMs} ms`;
        reject(new Error(lateFetch));
      }, timeoutMs);
      waiters.push({ resolve, reject, timer });
    });
    rox.fetch();
    return done;
  };

  try {
    await rox.setup(appKey, setupOptions);
    if (options.fetchOnStart ?? true) await fetch();
  } catch (e) {
    owners.delete(rox);
    throw e;
  }

  return {
    rox,
    roxyUrl: options.roxyUrl,
    fetch,
    isEnabled: (flag, context, defaultValue = false) => rox.dynamicApi.isEnabled(flag, defaultValue, context),
    getString: (flag, defaultValue, context) => rox.dynamicApi.value(flag, defaultValue, context),
    getNumber: (flag, defaultValue, context) => rox.dynamicApi.getNumber(flag, defaultValue, context),
    guard: () => guard.stats(),
    close: async () => {
      if (closed) return;
      closed = true;
      for (const w of waiters.splice(0)) {
        clearTimeout(w.timer);
        w.reject(new Error("startRoxClient: closed before the fetch ended"));
      }
      // rox-node reports flags and properties it meets with a 5 s debounce (Client.sendStateDebounced) whose timer
      // keeps the process alive; its only public cancel is setup, whose sendState() cancels it (Client._sendState).
      // Same options: roxy mode, no fetch, nothing sent.
      await rox.setup(appKey, setupOptions);
      owners.delete(rox);
    },
  };
}

/** The last path segment of the roxy URL when it looks like an SDK key, else a placeholder key of the right form. */
function keyOf(roxyUrl: string): string {
  let last = "";
  try {
    last = decodeURIComponent(new URL(roxyUrl).pathname.split("/").filter(Boolean).pop() ?? "");
  } catch {
    // Not a URL: rox-node will fail the fetch with its own message.
  }
  return /^[a-f\d]{24}$/i.test(last) ? last : "000000000000000000000000";
}

function fetchError(roxyUrl: string, details: unknown): Error {
  const status = (details as { response?: { status?: number } } | undefined)?.response?.status;
  const cause = details instanceof Error ? details.message.replace(/^Unable to fetch rox configuration!\n/, "") : String(details);
  const hint = status === 404 ? " (no environment has this key: is it the Environment's `key` output, after `up`?)" : "";
  return new Error(`rox-node could not fetch its configuration from ${roxyUrl}${hint}: ${cause}`);
}

/** rox-node is an optional peer: loaded here, at the first call, so the package works without it. */
function loadRoxNode(): RoxSdk {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require("rox-node") as RoxSdk;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "MODULE_NOT_FOUND" && /'rox-node'/.test((e as Error).message)) {
      throw new Error("startRoxClient needs rox-node, an optional peer of pulumi-cloudbees/testing: npm install --save-dev rox-node@^6.0.16");
    }
    throw e;
  }
}
