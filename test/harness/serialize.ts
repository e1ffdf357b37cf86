import * as pulumi from "@pulumi/pulumi";

export interface SerializedProvider {
    text: string;
    /** True when the closure captured a secret Output: the SDK then marks `__provider` itself as secret. */
    containsSecrets: boolean;
}

/**
 * The `__provider` text exactly as `new pulumi.dynamic.Resource(provider, ...)` stores it: @pulumi/pulumi/dynamic
 * calls `serializeFunction(() => provider, { allowSecrets: true })` and keeps `.text`. Not a factory function: the
 * text exports `handler = () => provider`, and the host rebuilds the provider with
 * `requireFromString(text).handler()`.
 *
 * Rejects with the serializer's message when something captured cannot be serialized (module-scope agents,
 * native classes, ...), where a real program under mocks would just hang.
 */
export async function serializeProviderDetailed(provider: object): Promise<SerializedProvider> {
    // Under `jest --coverage` istanbul would put counters into this arrow (and capture its coverage map), so the
    // text would differ from the SDK's: keep the arrow uninstrumented.
    const sf = await pulumi.runtime.serializeFunction(/* istanbul ignore next */ () => provider, { allowSecrets: true });
    return { text: sf.text, containsSecrets: sf.containsSecrets };
}

export async function serializeProvider(provider: object): Promise<string> {
    return (await serializeProviderDetailed(provider)).text;
}
