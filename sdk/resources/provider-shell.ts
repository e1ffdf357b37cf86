/* istanbul ignore file */
// (Coverage counters would be serialized into the provider text: keep this file uninstrumented.)
import type * as pulumi from "@pulumi/pulumi";
import type { ProviderKind } from "../../provider/resources";

/**
 * A kind's provider: what its `__provider` text is the serialization of. The provider host rebuilds it from that
 * text, so it must capture nothing but `kind`: no client, schema, agent or credential. Each method loads the real
 * implementation *by package name* when it runs, from the host's working directory (the program's folder), so the
 * text stays about 2 KB and code upgrades never break old states. Resources store the text written out
 * (provider-text.ts); test/resources/sdk.test.ts serializes these shells and compares.
 */
export function providerShell(kind: ProviderKind): pulumi.dynamic.ResourceProvider {
  // Arrow functions returning the implementation's promise: the host awaits them, and the text stays short.
  return {
    configure: (req) => require("pulumi-cloudbees/provider").configure(req),
    check: (olds, news) => require("pulumi-cloudbees/provider").resources[kind].check(olds, news),
    diff: (id, olds, news) => require("pulumi-cloudbees/provider").resources[kind].diff(id, olds, news),
    create: (inputs) => require("pulumi-cloudbees/provider").resources[kind].create(inputs),
    read: (id, props) => require("pulumi-cloudbees/provider").resources[kind].read(id, props),
    update: (id, olds, news) => require("pulumi-cloudbees/provider").resources[kind].update(id, olds, news),
    delete: (id, props) => require("pulumi-cloudbees/provider").resources[kind].delete(id, props),
  };
}

/** The module name for type tokens: `pulumi-nodejs:dynamic/cloudbees:<Type>`. */
export const TYPE_MODULE = "cloudbees";
