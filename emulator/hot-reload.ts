import type { EffectiveBundle } from "./effective-bundle";
import { bundlePluginVersion, bundleSections, catalogVersions, type RunningConfiguration } from "./running-configuration";

/**
 * reload-bundle's answer when a bundle needs a restart: BundleReloadAction.executeReload in the CasC plugin's public
 * copy (pankajy-dev/cloudbees-casc-client-workshop, src/main/java/com/cloudbees/opscenter/client/casc/
 * BundleReloadAction.java: `accumulate("reason", "Bundle is not hot reloadable")`).
 */
export const NOT_HOT_RELOADABLE = "Bundle is not hot reloadable";

/**
 * Whether a bundle can be applied without a restart, as ConfigurationBundleService.isHotReloadable decides (same
 * source): a bundle without plugins always; otherwise not when its plugin catalog includes, at another version, a
 * plugin it lists that is installed (pluginCatalogIsHotReloadable), nor, with apiVersion 2, when plugins.yaml asks
 * another version of an installed plugin (pluginsConfigAreHotReloadable; apiVersion 1 plugin configs always reload).
 * Plugins not installed yet do not stop a reload: the reload installs them.
 */
export function isHotReloadable(running: RunningConfiguration, bundle: EffectiveBundle): boolean {
  const sections = bundleSections(bundle);
  if (sections.plugins.length === 0) return true;
  const inCatalog = catalogVersions(sections.catalog);
  for (const entry of sections.plugins) {
    if (!running.plugins.has(entry.id)) continue;
    const installed = running.plugins.get(entry.id) ?? null;
    const fromCatalog = inCatalog.get(entry.id);
    if (fromCatalog !== undefined && fromCatalog !== installed) return false;
    if (sections.apiVersion === "2" && entry.version !== undefined && bundlePluginVersion(sections, entry) !== installed) return false;
  }
  return true;
}
