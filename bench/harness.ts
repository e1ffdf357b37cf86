// The real dynamic-provider host driver and the engine's stand-in (product code: pulumi-cloudbees/testing's parts),
// the one place the bench imports them from. Nothing from test/.
export { Lifecycle, type ManagedResource } from "../testing/engine/engine";
export { startProviderHost, type ProviderHost } from "../testing/processes/provider-host";
export { closeSerializerSession, serializeProvider } from "../testing/engine/serialize";
export { secret } from "../testing/engine/values";

/** The machine's own CLOUDBEES_* settings, blanked: they must not reach the hosts, programs or CLI the bench starts. */
export function blankCloudbeesEnv(): Record<string, string> {
  return Object.fromEntries(Object.keys(process.env).filter((k) => k.startsWith("CLOUDBEES_")).map((k) => [k, ""]));
}
