/** The `__provider` text of a dynamic provider, as a program's `new pulumi.dynamic.Resource` serializes it. */
import type * as inspector from "inspector";
import type * as pulumiTypes from "@pulumi/pulumi";

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
    // Loaded here, not at the top: the SDK is about a second of CPU to load, and a test file that imports the
    // testing kit without serializing (most of them: they read the texts serialized once, test/harness) skips it.
    const pulumi = require("@pulumi/pulumi") as typeof pulumiTypes;
    const sf = await pulumi.runtime.serializeFunction(/* istanbul ignore next */ () => provider, { allowSecrets: true });
    return { text: sf.text, containsSecrets: sf.containsSecrets };
}

export async function serializeProvider(provider: object): Promise<string> {
    return (await serializeProviderDetailed(provider)).text;
}

/**
 * The SDK's closure serializer (`@pulumi/pulumi/runtime/closure/v8Hooks`), on its first use, connects an inspector
 * session with the Debugger enabled, and never disconnects it. In a program that is once per process; under jest
 * each test file loads its own copy of the SDK, so each file that serializes (serializeProvider() here, or a
 * `new pulumi.dynamic.Resource` under mocks) leaves one more session on the worker's shared inspector. Its
 * `Debugger.scriptParsed` listener keeps that file's whole module registry (vm context) alive, and every script
 * compiled later in the worker is reported to all of them: a worker ends the full suite holding ~20 dead test files
 * (1.5-2 GB RSS) and then needs more than jest's 500 ms to exit ("A worker process has failed to exit gracefully").
 *
 * Closes the session this file's copy of the SDK opened, if it opened one. test/harness registers it as an afterAll
 * for every test file that imports the harness.
 */
export async function closeSerializerSession(): Promise<void> {
    // v8Hooks is loaded (by runtime/closure/v8.js) only when something serialized a function with this file's SDK;
    // require.cache is jest's view of this file's module registry, so other files' copies are not touched.
    const hooksPath = require.resolve("@pulumi/pulumi/runtime/closure/v8Hooks");
    if (!(hooksPath in require.cache)) return;
    const hooks = require(hooksPath) as { getSessionAsync(): Promise<inspector.Session> };
    const session = await hooks.getSessionAsync();
    session.disconnect();
}
