import * as pulumi from "@pulumi/pulumi";
import type { ProviderKind } from "../../provider/resources";
import { TYPE_MODULE } from "./provider-shell";
import { providerText } from "./provider-text";

/**
 * What `pulumi.dynamic.Resource` is (a custom resource of the `pulumi-nodejs:dynamic` package whose `__provider`
 * input is its provider's text, which the Node.js dynamic-provider host runs), with the text written out
 * (provider-text.ts) rather than serialized in every program run.
 */
export abstract class DynamicResource extends pulumi.CustomResource {
  protected constructor(kind: ProviderKind, type: string, name: string, props: pulumi.Inputs, opts?: pulumi.CustomResourceOptions) {
    super(`pulumi-nodejs:dynamic/${TYPE_MODULE}:${type}`, name, { ...props, __provider: providerText(kind) }, opts);
  }
}
