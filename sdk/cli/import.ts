/**
 * `pulumi-cloudbees import`: reads a live operations center (and, when one is configured, the feature-flag account)
 * with the functions' settings, and writes a Pulumi program declaring what is there (see program-text.ts). Dynamic
 * providers cannot `pulumi import` (pulumi/pulumi#3550): a program whose creates find every value in place is the
 * way to adopt an installation.
 */
import { resolveSettings, type RawConfig, type SettingValues } from "../../provider/config/settings";
import { inferVisibility } from "../../provider/resources/global-availability-pattern/controller";
import { getApplications } from "../functions/applications";
import { getBundles } from "../functions/operations-center";
import { programText, type Installation, type ProgramOptions } from "./program-text";

export interface ImportOptions extends ProgramOptions {
  /**
   * Settings from a stack config file (`Pulumi.<stack>.yaml`), over the `CLOUDBEES_*` environment variables, as a
   * program's stack config is. Encrypted (`secure:`) values cannot be read: give those in the environment.
   */
  settings?: RawConfig;
}

/** Reads the installation and returns the program's text. */
export async function importProgram(options: ImportOptions = {}): Promise<{ text: string; installation: Installation }> {
  const raw = options.settings ?? {};
  const settings = { settings: raw as Partial<SettingValues> };
  if (options.defaultBundle !== undefined && options.defaultBundle.trim() === "") throw new Error("--default-bundle must name a bundle");
  const bundles = await getBundles(settings);
  if (options.defaultBundle !== undefined && !bundles.some((b) => b.name === options.defaultBundle)) {
    throw new Error(
      `--default-bundle "${options.defaultBundle}" names no bundle of the operations center (bundles: ${bundles.map((b) => b.name).sort().join(", ") || "none"})`,
    );
  }
  const resolved = resolveSettings(raw, process.env);
  const installation: Installation = {
    operationsCenterUrl: resolved.operationsCenterUrl ?? "",
    bundles,
    globalVisibility: inferVisibility(bundles),
  };
  // The feature-flag account only when configured: an operations-center-only installation is the common case.
  if (resolved.featureManagementToken !== undefined) {
    installation.applications = await getApplications(settings);
    installation.featureManagementUrl = resolved.featureManagementUrl ?? "https://x-api.rollout.io";
  }
  return { text: programText(installation, options), installation };
}
