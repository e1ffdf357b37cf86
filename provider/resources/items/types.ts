/** Items: creates the items of an items.yaml text on an instance (POST casc-items/create-items). */
import { instanceLabel } from "../shared/instance";

export const TYPE_NAME = "Items";

export interface ItemsInputs {
  /** The items.yaml text: a mapping with an `items` list of `{kind, name, ...}`. A change creates them again (update). */
  yaml: string;
  /** Full path of the folder to create them in (`team-a/jobs`); it must exist. Default: the instance's root. A change re-runs. */
  path?: string;
  /** Base URL of the instance (a controller's, with its prefix). Default: the operations center. A change replaces. */
  instanceUrl?: string;
  /** Any values: a change creates the items again. */
  triggers?: unknown[];
}

export interface ItemsOutputs extends ItemsInputs {
  /** The folder's full name as the instance answered it ("" for the root). */
  basePath: string;
}

export const ID_PREFIX = "items/";

/** `items/operations-center/<path>` or `items/<instanceUrl>/<path>` (no trailing part at the root). */
export function idOf(instanceUrl: string | undefined, path: string | undefined): string {
  return `${ID_PREFIX}${instanceLabel(instanceUrl)}${path ? `/${path}` : ""}`;
}

export const INPUT_KEYS = ["yaml", "path", "instanceUrl", "triggers"];
