/* istanbul ignore file */
// (Coverage counters would be serialized into the provider text: keep this file uninstrumented.)
import type * as pulumi from "@pulumi/pulumi";
import type { ActionKind, ResourceKind } from "../../provider/resources";
import { providerShell } from "./provider-shell";

/**
 * The provider shell of an action resource: the same thin shell as the setting resources' (provider-shell.ts), whose
 * methods call `require("pulumi-cloudbees/provider").resources[kind]` in the host, where every kind is registered.
 * providerShell's parameter names the five setting kinds only (the tests of test/resources enumerate that type), so
 * the kind is passed through it unchanged; the text is the same shape, capturing nothing but `kind`.
 */
export function actionShell(kind: ActionKind): pulumi.dynamic.ResourceProvider {
  return providerShell(kind as unknown as ResourceKind);
}
