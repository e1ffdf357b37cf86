/**
 * `pulumi-cloudbees import`: reads a live operations center (and, when one is configured, the feature-flag account
 * and its team members)
 * with the functions' settings, and writes a Pulumi program declaring what is there (see program-text.ts). Dynamic
 * providers cannot `pulumi import` (pulumi/pulumi#3550): a program whose creates find every value in place is the
 * way to adopt an installation.
 *
 * Lists are read item by item, as the resources read theirs: an item that cannot be read (an experiment in a form
 * this version cannot parse) is skipped, named in `skipped` and in a note of the program, and the others imported.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { instanceSettings, resolveConnection } from "../provider/config/connections";
import { resolveSettings, type RawConfig, type SettingValues } from "../provider/config/settings";
import { inferVisibility } from "../provider/resources/global-availability-pattern/controller";
import { getApplications } from "../provider/functions/applications";
import { getEnvironments, getExperiments, getFlags, getTargetGroups } from "../provider/functions/feature-flags";
import type { FunctionHost } from "../provider/functions/host";
import { getBundles } from "../provider/functions/operations-center";
import { getTeamMembers } from "../provider/functions/team-members";
import { quoted } from "../provider/text/printable";
import { notDeclaredWhy, planControllers } from "./controller-text";
import { matchesWhole, pathNameProblemOf, programText, uniquelyNamed, type ApplicationFlags, type Installation, type ProgramOptions } from "./program-text";

export interface ImportOptions extends ProgramOptions {
  /** Only the flags side (environments, target groups, flags, configurations) of applications whose whole name matches. */
  applications?: RegExp;
  /**
   * Settings from a stack config file (`Pulumi.<stack>.yaml`), over the `CLOUDBEES_*` environment variables, as a
   * program's stack config is. Encrypted (`secure:`) values cannot be read: give those in the environment.
   */
  settings?: RawConfig;
  /** The folder the program runs in (--out's folder, or the current one): --bundle-tree is relative to it. */
  programFolder?: string;
}

/**
 * The functions' host for the command: no stack config (the settings come as the functions' `settings`), and each
 * item skipped said once, in `skipped`.
 */
function commandHost(skipped: string[]): FunctionHost {
  return { stackConfig: () => ({}), userAgent: "pulumi-cloudbees-import", warn: (message) => skipped.push(message) };
}

/**
 * Reads the installation and returns the program's text, and the items it skipped (each a sentence naming the item
 * and why), which the program notes too.
 */
export async function importProgram(
  options: ImportOptions = {},
): Promise<{ text: string; installation: Installation; skipped: string[]; controllers: { declared: number; notDeclared: string[] } }> {
  // The connections (their instances) serve --bundle-tree only: the functions take the default connection's settings.
  const { connections: _connections, ...raw } = options.settings ?? {};
  const settings = { settings: raw as Partial<SettingValues> };
  const skipped: string[] = [];
  const host = commandHost(skipped);
  if (options.defaultBundle !== undefined && options.defaultBundle.trim() === "") throw new Error("--default-bundle must name a bundle");
  const bundles = await getBundles(host, settings);
  if (options.defaultBundle !== undefined && !bundles.some((b) => b.name === options.defaultBundle)) {
    throw new Error(
      `--default-bundle ${quoted(options.defaultBundle)} names no bundle of the operations center (bundles: ${bundles.map((b) => b.name).sort().map(quoted).join(", ") || "none"})`,
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
    installation.applications = await getApplications(host, settings);
    installation.featureManagementUrl = resolved.featureManagementUrl ?? "https://x-api.rollout.io";
    installation.flags = await readFlags(host, installation.applications, options.applications, settings);
    installation.teamMembers = await getTeamMembers(host, settings);
  }
  if (options.bundleTree !== undefined) {
    const root = path.resolve(options.programFolder ?? process.cwd(), options.bundleTree);
    installation.instances = instanceUrls(options.settings ?? {});
    installation.missingFromBundleTree = bundles.map((b) => b.name).filter((name) => !fs.existsSync(path.join(root, name, "bundle.yaml")));
  }
  if (skipped.length) installation.skipped = skipped;
  return { text: programText(installation, options), installation, skipped, controllers: controllerCounts(installation, options) };
}

/**
 * The default connection's instances, name -> URL (`cloudbees:connections.default.instances.<name>.url`): where a
 * controller's URL may be found. An instance whose entry is unusable is left out (the program then uses the URL).
 */
function instanceUrls(raw: RawConfig): Record<string, string> {
  const out: Record<string, string> = {};
  try {
    const connection = resolveConnection(raw, undefined, process.env);
    for (const name of Object.keys(connection.instances)) {
      try {
        out[name] = instanceSettings(connection, name).url;
      } catch {
        // Not usable as an instance: the program does not name it.
      }
    }
  } catch {
    // No usable connections: no instances.
  }
  return out;
}

/** The controllers the program declares a configuration of, and a sentence for each it could not. */
function controllerCounts(installation: Installation, options: ImportOptions): { declared: number; notDeclared: string[] } {
  const bundles = installation.bundles.filter((b) => matchesWhole(options.bundles, b.name));
  const plans = planControllers(bundles, installation, options, (c) => matchesWhole(options.controllers, c));
  const notDeclared = plans.flatMap((p) => {
    const why = notDeclaredWhy(p, installation, options);
    return why === undefined ? [] : [`the configuration of ${quoted(p.controllerPath)} is not declared: ${why}`];
  });
  return { declared: plans.length - notDeclared.length, notDeclared };
}

/**
 * The environments, target groups, flags and configurations of each application whose whole name matches `only`
 * (every application without it), one application at a time: the service allows one request per second, and an
 * application costs 3 requests plus one per environment. Applications whose name is not unique are skipped: the
 * program cannot adopt them by name.
 */
async function readFlags(
  host: FunctionHost,
  applications: { id: string; name: string }[],
  only: RegExp | undefined,
  settings: { settings: Partial<SettingValues> },
): Promise<ApplicationFlags[]> {
  const out: ApplicationFlags[] = [];
  for (const app of uniquelyNamed(applications).filter((a) => matchesWhole(only, a.name))) {
    const environments = await getEnvironments(host, app.id, settings);
    // An environment whose name the API cannot carry in a path is not read (nor declared: the program says so).
    const readable = environments.filter((e) => !pathNameProblemOf(e.name));
    const targetGroups = await getTargetGroups(host, app.id, settings);
    // Flags are application-wide: any environment's list has them all.
    const flags = readable.length ? await getFlags(host, app.id, readable[0]!.name, settings) : [];
    const configurations: ApplicationFlags["configurations"] = {};
    for (const env of readable) configurations[env.name] = await getExperiments(host, app.id, env.name, settings);
    out.push({ application: app, environments, targetGroups, flags, configurations });
  }
  return out;
}
