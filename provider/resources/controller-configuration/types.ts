/** ControllerConfiguration: "this controller runs this bundle", and what it really runs. */

export const TYPE_NAME = "ControllerConfiguration";

export interface ControllerConfigurationInputs {
  /** Full path of the controller item (`team-a/controller-a`). A change replaces. */
  controllerPath: string;
  /** The controller's base URL (or the connection's instance named by `instance`). A change replaces. */
  instanceUrl?: string;
  /** Local folder of bundle folders, as the operations center checks them out (parents are found there). */
  bundleTreePath: string;
  /** The bundle the controller runs: its name in bundleTreePath (its parents come with it). */
  bundleId: string;
  /** Paths left out of the comparison, `<file>: <path>` (`jenkins.yaml: jenkins.systemMessage`): it and all below. */
  ignore?: string[];
}

export interface ControllerConfigurationOutputs extends ControllerConfigurationInputs {
  /**
   * A value per compared path (`jenkins.yaml: unclassified.location.adminAddress`, `plugins.yaml: ssh-agent`,
   * `items.yaml: item "deploy"`): computed from the bundle by check (what the controller should run), read from the
   * controller's export by refresh (what it runs). Each is the value as it is (quoted, bounded), or where it can hold
   * a secret its digest and why (provider/configuration/shown.ts); an encrypted value counts by its presence only.
   */
  configuration: Record<string, string>;
  /** "none", or the update the controller has not applied: `<version in force> -> <waiting version> (<type>)`. */
  pendingUpdate: string;
  /** The bundle version the controller has in force ("N/A": none). */
  bundleVersion: string;
  /** What differs from the bundle, one line a path (`plugins.yaml: +ssh-agent`); empty when it runs its bundle. */
  drift: string[];
}

/** pendingUpdate when the controller has applied every update. */
export const NO_PENDING_UPDATE = "none";

export const ID_PREFIX = "controller-configuration/";

export function idOf(controllerPath: string): string {
  return `${ID_PREFIX}${controllerPath}`;
}

export function controllerPathOf(id: string): string {
  return id.startsWith(ID_PREFIX) ? id.slice(ID_PREFIX.length) : id;
}

/** The inputs a program gives (check fails on any other field). */
export const INPUT_KEYS = ["controllerPath", "instanceUrl", "bundleTreePath", "bundleId", "ignore"];
/** What check computes into the inputs: the expected side of the comparison. */
export const COMPUTED_KEYS = ["configuration", "pendingUpdate"];
