/** BundleReload: applies an instance's bundle update without restart (check-bundle-update, then reload-bundle). */
import { instanceLabel } from "../shared/instance";

export const TYPE_NAME = "BundleReload";

export interface BundleReloadInputs {
  /** Base URL of the instance (a controller's, with its prefix). Default: the operations center. A change replaces. */
  instanceUrl?: string;
  /**
   * When the instance refuses to reload (the bundle is not hot reloadable, a reload is already running, the update
   * needs a restart): true reports it in the outputs (`reloaded: false`, `reason`) and goes on; false (default) fails.
   */
  allowRestartRequired?: boolean;
  /** Any values: a change checks and reloads again. */
  triggers?: unknown[];
}

export interface BundleReloadOutputs extends BundleReloadInputs {
  /** What check-bundle-update said. */
  updateAvailable: boolean;
  /** true when reload-bundle applied the update. */
  reloaded: boolean;
  /** Why nothing was reloaded (the server's words for a refusal); "" when reloaded. */
  reason: string;
  /** The bundle version in force after this run: the new one when reloaded, else the current one ("N/A": none). */
  version: string;
}

export const ID_PREFIX = "bundle-reload/";

/** `bundle-reload/operations-center`, or `bundle-reload/<instanceUrl>`. */
export function idOf(instanceUrl: string | undefined): string {
  return `${ID_PREFIX}${instanceLabel(instanceUrl)}`;
}

export const INPUT_KEYS = ["instanceUrl", "allowRestartRequired", "triggers"];
