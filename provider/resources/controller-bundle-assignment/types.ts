/** ControllerBundleAssignment: the CasC bundle a controller uses. */

export const TYPE_NAME = "ControllerBundleAssignment";

export interface ControllerBundleAssignmentInputs {
  /** Full path of the controller item (`folder1/controller1`): no leading or trailing "/". */
  controllerPath: string;
  bundleId: string;
  /** Bundle assigned on delete (the API cannot unassign). Without it, delete leaves the controller as it is. */
  fallbackBundleId?: string;
}

export type ControllerBundleAssignmentOutputs = ControllerBundleAssignmentInputs;

export const ID_PREFIX = "assignment/";

export function idOf(controllerPath: string): string {
  return `${ID_PREFIX}${controllerPath}`;
}

export function controllerPathOf(id: string): string {
  return id.startsWith(ID_PREFIX) ? id.slice(ID_PREFIX.length) : id;
}

/** The inputs a program gives (check fails on any other field). */
export const INPUT_KEYS = ["controllerPath", "bundleId", "fallbackBundleId"];
