import * as pulumi from "@pulumi/pulumi";
import type { ProviderKind } from "../../provider/resources";
import { SECRET_INPUTS_KEY } from "../../provider/resources/shared/secret-inputs";
import { TYPE_MODULE } from "./provider-shell";
import { providerText } from "./provider-text";

/**
 * What `pulumi.dynamic.Resource` is (a custom resource of the `pulumi-nodejs:dynamic` package whose `__provider`
 * input is its provider's text, which the Node.js dynamic-provider host runs), with the text written out
 * (provider-text.ts) rather than serialized in every program run.
 *
 * The host receives every input without its secret mark, so the names of the inputs the program marked secret go
 * along as the internal input `__secretInputs` (never their values; left out when there is none): check then tells
 * a failure about one without its value (provider/resources/shared/secret-inputs.ts), and keeps the name out of
 * what it returns, so it never reaches the state or a diff.
 */
export abstract class DynamicResource extends pulumi.CustomResource {
  protected constructor(kind: ProviderKind, type: string, name: string, props: pulumi.Inputs, opts?: pulumi.CustomResourceOptions) {
    super(`pulumi-nodejs:dynamic/${TYPE_MODULE}:${type}`, name, { ...props, [SECRET_INPUTS_KEY]: secretInputNames(props), __provider: providerText(kind) }, opts);
  }
}

/** The names of the inputs that hold a secret anywhere inside (a secret item of a list too); undefined for none. */
async function secretInputNames(props: pulumi.Inputs): Promise<string[] | undefined> {
  const marks = await Promise.all(
    Object.entries(props).map(async ([key, value]) => (value !== undefined && (await pulumi.isSecret(pulumi.output(value))) ? key : undefined)),
  );
  const names = marks.filter((k): k is string => k !== undefined);
  return names.length ? names : undefined;
}
