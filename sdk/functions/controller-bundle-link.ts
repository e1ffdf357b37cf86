import { inspect } from "node:util";
import * as pulumi from "@pulumi/pulumi";
import { readControllerBundleLink, type ControllerBundleLinkOptions } from "../../provider/functions/operations-center";
import { programHost } from "./host";

// A controller's bundle link, its token a `pulumi.secret` (or revealed on request): TypeScript only, as the plugin
// serves no invoke for it (the ControllerBundleToken resource keeps the token as a secret).

/**
 * A controller's bundle link (GET `config-bundle-download-link?id=<controllerPath>`), with the token as a secret:
 * `token` and `linkFileContent` (`<url>\n<token>`, the link file a controller reads) are `pulumi.secret` Outputs,
 * in a program and in a script alike, so the same code works in both and a stack output keeps them encrypted.
 */
export interface ControllerBundleLink {
  /** Full path of the controller, as asked for. */
  controllerPath: string;
  /** Where the operations center serves the controller's bundle. */
  url: string;
  /** The controller's bundle token (secret). */
  token: pulumi.Output<string>;
  /** The link file a controller reads, `<url>\n<token>` (secret). */
  linkFileContent: pulumi.Output<string>;
}

/**
 * The same link with the token in clear, for scripts that must write the link file (`reveal: true`). Printing it
 * (`console.log`, `util.inspect`, `JSON.stringify`) shows `[secret]` instead of the token; the properties hold
 * the real values. Do not use it in a program: a plain string in a stack output is stored in clear.
 */
export class RevealedControllerBundleLink {
  constructor(
    /** Full path of the controller, as asked for. */
    readonly controllerPath: string,
    /** Where the operations center serves the controller's bundle. */
    readonly url: string,
    /** The controller's bundle token, in clear. */
    readonly token: string,
    /** The link file a controller reads, `<url>\n<token>`, in clear. */
    readonly linkFileContent: string,
  ) {}

  toJSON(): Record<string, string> {
    return { controllerPath: this.controllerPath, url: this.url, token: "[secret]", linkFileContent: "[secret]" };
  }

  [inspect.custom](): string {
    return `RevealedControllerBundleLink ${inspect(this.toJSON())}`;
  }
}

/**
 * The bundle link of a controller (full path, e.g. `team-a/controller-a`): GET `config-bundle-download-link`. A
 * controller without an assigned bundle has no link (NotFoundError). Reads only; the token does not change (the
 * ControllerBundleToken resource regenerates it). Under `setMocks`: token `cloudbees:index:getControllerBundleLink`,
 * inputs `{ controllerPath }`; the mock answers `{ controllerPath, url, token }`.
 */
export async function getControllerBundleLink(
  controllerPath: string,
  options: ControllerBundleLinkOptions & { reveal: true },
): Promise<RevealedControllerBundleLink>;
export async function getControllerBundleLink(
  controllerPath: string,
  options?: ControllerBundleLinkOptions & { reveal?: false },
): Promise<ControllerBundleLink>;
export async function getControllerBundleLink(
  controllerPath: string,
  options?: ControllerBundleLinkOptions,
): Promise<ControllerBundleLink | RevealedControllerBundleLink>;
export async function getControllerBundleLink(
  controllerPath: string,
  options?: ControllerBundleLinkOptions,
): Promise<ControllerBundleLink | RevealedControllerBundleLink> {
  const link = await readControllerBundleLink(programHost, controllerPath, options);
  const linkFileContent = `${link.url}\n${link.token}`;
  if (options?.reveal === true) return new RevealedControllerBundleLink(link.controllerPath, link.url, link.token, linkFileContent);
  return { controllerPath: link.controllerPath, url: link.url, token: pulumi.secret(link.token), linkFileContent: pulumi.secret(linkFileContent) };
}
