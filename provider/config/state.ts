import type { FeatureManagementClient } from "../clients/feature-management-client";
import type { InstanceClient } from "../clients/instance-client";
import type { OperationsCenterClient } from "../clients/operations-center-client";
import type { RawConfig } from "./settings";

/**
 * Everything the provider keeps between calls, once per process: the stack config handed to `configure`, the
 * clients built from it and the shared bundle lists. It lives on globalThis under a registered symbol, created on
 * first use: never at module scope (a serialized provider would capture it) and never in a closure or the state.
 * Every copy of this module loaded in the process (the host may load the package more than once) shares it.
 */
export interface ProviderState {
  /** Set by configure(); undefined until then (environment variables still apply). */
  stackConfig: RawConfig | undefined;
  operationsCenterClients: Map<string, OperationsCenterClient>;
  featureManagementClients: Map<string, FeatureManagementClient>;
  /**
   * Clients of instances reached by their own URL (controllers), for the program functions. Optional: a state
   * created by an older copy of this module in the same process lacks it (see instanceFor).
   */
  instanceClients?: Map<string, InstanceClient>;
  /** Bundle-list caches, keyed by operations-center URL and user. Typed loosely: see shared/bundle-list-cache.ts. */
  bundleLists: Map<string, unknown>;
  /** The feature-flag accounts' application lists, per client (see resources/application/account-snapshot.ts). */
  accountSnapshots?: WeakMap<object, unknown>;
  /** The feature-flag lists (environments, flags, experiments, target groups), per client (resources/feature-flags/lists.ts). */
  featureFlagLists?: Map<object, unknown>;
  /** The audit-log reads of drift reports, per client (resources/feature-flags/audit-trail.ts). */
  auditTrails?: Map<object, unknown>;
  /** What each watched controller runs, read once per deployment (resources/controller-configuration/running.ts). */
  controllerReads?: Map<string, unknown>;
  /** Each drifted controller's configuration history, read once per deployment (controller-configuration/who-changed.ts). */
  controllerHistoryReads?: Map<string, unknown>;
  /** The program's bundle trees and the views made of them, read once per process (controller-configuration/expected.ts). */
  bundleTrees?: Map<string, unknown>;
  expectedViews?: Map<string, unknown>;
  /** The list entries this deployment has warned of as unreadable (resources/shared/unreadable-entries.ts). */
  saidUnreadable?: Set<string>;
}

const STATE_KEY = Symbol.for("pulumi-cloudbees.provider-state");

export function providerState(): ProviderState {
  const holder = globalThis as unknown as Record<symbol, ProviderState | undefined>;
  return (holder[STATE_KEY] ??= {
    stackConfig: undefined,
    operationsCenterClients: new Map(),
    featureManagementClients: new Map(),
    instanceClients: new Map(),
    bundleLists: new Map(),
  });
}

/** Forgets the configuration and closes every client (tests; a provider process never needs it). */
export async function resetProviderState(): Promise<void> {
  const holder = globalThis as unknown as Record<symbol, ProviderState | undefined>;
  const state = holder[STATE_KEY];
  holder[STATE_KEY] = undefined;
  if (!state) return;
  await Promise.all([
    ...[...state.operationsCenterClients.values()].map((c) => c.close()),
    ...[...state.featureManagementClients.values()].map((c) => c.close()),
    ...[...(state.instanceClients?.values() ?? [])].map((c) => c.close()),
  ]);
}

/**
 * What a new deployment starts with in a process that served one before: the stack config kept, every client closed
 * and every read forgotten. The engine starts a provider host per deployment, so a provider process never needs it;
 * the testing kit's hosts do, when a suite runs several deployments through one host (startProviderHost's
 * newDeployment()).
 */
export async function newDeployment(): Promise<void> {
  const holder = globalThis as unknown as Record<symbol, ProviderState | undefined>;
  const stackConfig = holder[STATE_KEY]?.stackConfig;
  await resetProviderState();
  providerState().stackConfig = stackConfig;
}
