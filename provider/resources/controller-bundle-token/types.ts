/** ControllerBundleToken: a new bundle token for a controller (POST casc-bundle/regenerate-token), and its link. */

export const TYPE_NAME = "ControllerBundleToken";

export interface ControllerBundleTokenInputs {
  /** Full path of the controller item (`folder1/controller1`). A change replaces the resource. */
  controllerPath: string;
  /** Any values: a change regenerates the token again. */
  triggers?: unknown[];
}

export interface ControllerBundleTokenOutputs extends ControllerBundleTokenInputs {
  /** URL where the operations center exposes the controller's bundle. */
  url: string;
  /** The controller's bundle token. Secret (additionalSecretOutputs of the SDK class). */
  token: string;
  /** The link file's content, `<url>\n<token>`. Secret. */
  linkFileContent: string;
}

export const ID_PREFIX = "bundle-token/";

export function idOf(controllerPath: string): string {
  return `${ID_PREFIX}${controllerPath}`;
}

export function controllerPathOf(id: string): string {
  return id.startsWith(ID_PREFIX) ? id.slice(ID_PREFIX.length) : id;
}

export const INPUT_KEYS = ["controllerPath", "triggers"];

/** Outputs the SDK class marks secret. */
export const SECRET_OUTPUTS = ["token", "linkFileContent"];
