// The real dynamic-provider host driver and the engine's stand-in: the one place the bench imports them from.
export { closeSerializerSession, Lifecycle, secret, serializeProvider, startProviderHost, type ManagedResource, type ProviderHost } from "../test/harness";
