/**
 * The controllers' part of the program `pulumi-cloudbees import --bundle-tree <folder>` writes: for every controller
 * the bundle list shows as using a bundle, a ControllerConfiguration (this controller runs this bundle, compared with
 * the bundle in the local folder of bundle folders), whose create reads the controller and writes nothing when it runs
 * its bundle.
 *
 * The bundle list names controllers by full path only; no endpoint of the specs gives a controller's URL. So the URL
 * comes, in this order, from `--controller-url <path>=<url>`; from an instance of the connection's settings named
 * after the controller; from `--controller-url-pattern`; or from CloudBees CI's own layout, derived from the
 * operations center's URL (see derivedUrl). A controller whose URL none of them gives is not declared: a note says why.
 * Where the URL is one of the connection's instances, the program names the instance (`instance`), so that its own
 * credentials, when set, are used. Pure: the same installation and options give the same declarations.
 */
import { fullPathProblem } from "../provider/clients/inputs";
import type { BundleSummary } from "../provider/functions/results";
import { compare, Names, raw, statement } from "./code-text";
import { tsComment, tsString } from "./escape";

export interface ControllerOptions {
  /** The folder of bundle folders (--bundle-tree), as the program finds it from its own folder; as given. */
  bundleTree?: string;
  /** Controller full path -> its URL (--controller-url <path>=<url>). */
  controllerUrls?: Record<string, string>;
  /** A URL with `{path}` (the full path) and/or `{name}` (its last segment) in it (--controller-url-pattern). */
  controllerUrlPattern?: string;
}

/** What the import read for the controllers' part. */
export interface ControllerReadings {
  operationsCenterUrl: string;
  /** The default connection's instances, name -> URL (`cloudbees:connections.default.instances.<name>.url`). */
  instances?: Record<string, string>;
  /** The bundles of the list that have no folder (with a bundle.yaml) in the bundle tree. */
  missingFromBundleTree?: string[];
}

/** Where a controller's URL comes from, or why it is not known. */
export type ControllerUrl =
  | { instanceUrl: string; instance?: undefined; source: string }
  | { instance: string; instanceUrl?: undefined; source: string }
  | { unknown: string };

/** One controller's declaration: the controller, its bundle, and its URL (or why it has none). */
export interface ControllerPlan {
  controllerPath: string;
  bundleId: string;
  url: ControllerUrl;
}

/** CloudBees CI's default operations center path (its Helm chart's), beside which it serves the controllers. */
const OC_SEGMENT = "cjoc/";

const withSlash = (url: string): string => (url.endsWith("/") ? url : `${url}/`);
const encodedPath = (controllerPath: string): string => controllerPath.split("/").map(encodeURIComponent).join("/");
const nameOf = (controllerPath: string): string => controllerPath.slice(controllerPath.lastIndexOf("/") + 1);

/** The URL `--controller-url-pattern` gives a controller. */
export function patternUrl(pattern: string, controllerPath: string): string {
  return withSlash(pattern.replace(/\{path\}/g, encodedPath(controllerPath)).replace(/\{name\}/g, encodeURIComponent(nameOf(controllerPath))));
}

/**
 * A controller's URL in CloudBees CI's own layout: the operations center at `<base>/cjoc/` (the documented default)
 * serves each managed controller beside it, at `<base>/<controller name>/` (the controller's name is its default
 * domain; the "Controller URL Pattern" setting changes that, and then --controller-url-pattern says it). The
 * emulator places its controllers elsewhere (`<origin>/controllers/<full path>/`): give it as a pattern.
 */
function derivedUrl(operationsCenterUrl: string, controllerPath: string, sameName: number): ControllerUrl {
  let base: URL;
  try {
    base = new URL(withSlash(operationsCenterUrl));
  } catch {
    return { unknown: "the operations center's URL is not a URL to derive it from" };
  }
  if (!base.pathname.endsWith(`/${OC_SEGMENT}`)) {
    return { unknown: `the operations center's URL does not end in /${OC_SEGMENT}, so CloudBees CI's layout (controllers beside /${OC_SEGMENT}) cannot place it` };
  }
  if (sameName > 1) return { unknown: `${sameName} controllers are named ${tsString(nameOf(controllerPath))}, and CloudBees CI's layout would place them at one URL` };
  const url = `${base.origin}${base.pathname.slice(0, -OC_SEGMENT.length)}${encodeURIComponent(nameOf(controllerPath))}/`;
  return { instanceUrl: url, source: `derived from the operations center's URL (CloudBees CI serves a controller at <base>/<its name>/ beside <base>/${OC_SEGMENT}; check it)` };
}

/** The instance of the connection named after the controller: its full path with "-" for "/", or its name. */
function instanceNamed(instances: Record<string, string>, controllerPath: string, sameName: number): string | undefined {
  const candidates = [controllerPath.replace(/\//g, "-"), ...(sameName === 1 ? [nameOf(controllerPath)] : [])];
  return candidates.find((name) => Object.hasOwn(instances, name));
}

/** Where the controller's URL comes from (see the file's comment for the order), or why it is not known. */
export function controllerUrlOf(controllerPath: string, readings: ControllerReadings, options: ControllerOptions, sameName: number): ControllerUrl {
  const instances = readings.instances ?? {};
  const given = options.controllerUrls?.[controllerPath];
  const named = instanceNamed(instances, controllerPath, sameName);
  let found: ControllerUrl;
  if (given !== undefined) found = { instanceUrl: withSlash(given), source: "given with --controller-url" };
  else if (named !== undefined) return { instance: named, source: `instance ${tsString(named)} of the connection's settings` };
  else if (options.controllerUrlPattern !== undefined) found = { instanceUrl: patternUrl(options.controllerUrlPattern, controllerPath), source: "from --controller-url-pattern" };
  else found = derivedUrl(readings.operationsCenterUrl, controllerPath, sameName);
  if ("unknown" in found) return found;
  // The connection's instance at that URL: the program names it, so that its own credentials apply.
  const atUrl = Object.keys(instances).sort(compare).find((name) => withSlash(instances[name]!) === found.instanceUrl);
  return atUrl === undefined ? found : { instance: atUrl, source: `${found.source}: instance ${tsString(atUrl)} of the connection's settings` };
}

/**
 * The controllers to declare, sorted: those the selected bundles are assigned to (controllers filtered by
 * `selected`), each with its URL or why it has none. Controllers whose path the resources refuse are left out (the
 * program notes them with the assignments).
 */
export function planControllers(bundles: BundleSummary[], readings: ControllerReadings, options: ControllerOptions, selected: (controllerPath: string) => boolean): ControllerPlan[] {
  if (options.bundleTree === undefined) return [];
  const all = bundles.flatMap((b) => b.usedBy);
  const names = new Map<string, number>();
  for (const c of new Set(all)) names.set(nameOf(c), (names.get(nameOf(c)) ?? 0) + 1);
  const plans: ControllerPlan[] = [];
  for (const bundle of bundles) {
    for (const controllerPath of bundle.usedBy) {
      if (!selected(controllerPath) || fullPathProblem(controllerPath)) continue;
      plans.push({ controllerPath, bundleId: bundle.name, url: controllerUrlOf(controllerPath, readings, options, names.get(nameOf(controllerPath)) ?? 1) });
    }
  }
  return plans.sort((a, b) => compare(a.controllerPath, b.controllerPath));
}

/** Why the controller is not declared, or undefined: no URL, or its bundle is not in the bundle tree. */
export function notDeclaredWhy(plan: ControllerPlan, readings: ControllerReadings, options: ControllerOptions): string | undefined {
  if ((readings.missingFromBundleTree ?? []).includes(plan.bundleId)) {
    return `its bundle ${tsString(plan.bundleId)} has no folder with a bundle.yaml in --bundle-tree ${tsString(options.bundleTree ?? "")}`;
  }
  if ("unknown" in plan.url) return `its URL is not known: ${plan.url.unknown}; give it with --controller-url ${plan.controllerPath}=<url> or --controller-url-pattern`;
  return undefined;
}

/**
 * The declaration of one controller's configuration: `bundleId` is its assignment's output (`assignment` is the
 * variable), so that it follows the assignment; or the note that says why it is not declared.
 */
export function controllerStatements(plan: ControllerPlan, assignment: string, readings: ControllerReadings, options: ControllerOptions, names: Names): string[] {
  const why = notDeclaredWhy(plan, readings, options);
  if (why !== undefined) return [tsComment(`Not declared: the configuration of ${tsString(plan.controllerPath)}: ${why}.`)];
  const url = plan.url as Exclude<ControllerUrl, { unknown: string }>;
  const where: Record<string, string> = url.instance !== undefined ? { instance: url.instance } : { instanceUrl: url.instanceUrl };
  return [
    tsComment(`What ${tsString(plan.controllerPath)} runs, against its bundle; its URL ${url.source}.`),
    statement(undefined, "ControllerConfiguration", names.resource("ControllerConfiguration", `configuration-${plan.controllerPath}`), {
      controllerPath: plan.controllerPath,
      ...where,
      bundleTreePath: options.bundleTree!,
      bundleId: raw(`${assignment}.bundleId`),
    }),
  ];
}

/** The header's lines for the controllers' part. */
export function controllerHeader(options: ControllerOptions): string[] {
  if (options.bundleTree === undefined) return [];
  return [
    tsComment(`Each assigned controller's ControllerConfiguration compares what it runs with its bundle in ${tsString(options.bundleTree)}`),
    "// (relative to this program's folder); its create reads the controller, and writes nothing when the controller",
    "// runs its bundle (one that differs, or has an update waiting, is reloaded by the first up).",
  ];
}
