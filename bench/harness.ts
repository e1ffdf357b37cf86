// The real dynamic-provider host driver and the engine's stand-in (product code: pulumi-cloudbees/testing's parts),
// the one place the bench imports them from. Nothing from test/.
export { Lifecycle, type ManagedResource } from "../testing/engine";
export { startProviderHost, type ProviderHost } from "../testing/provider-host";
export { closeSerializerSession, serializeProvider } from "../testing/serialize";
export { secret } from "../testing/values";
