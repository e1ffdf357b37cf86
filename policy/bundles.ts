/**
 * The CasC guardrails: no bundle reaches a controller unvalidated, availability stays narrow, and every assignment
 * names the bundle it falls back to.
 */
import * as path from "node:path";
import type { PolicyResource, ResourceValidationPolicy, StackValidationPolicy } from "@pulumi/policy";
import { dependenciesOf, isKind, label, quote, stringList, Unseen } from "./resources";
import type { AvailabilityNarrowSettings } from "./settings";

/** Whether a BundleValidation's inputs cover the bundle `bundleId` (undefined: it cannot tell in this preview). */
function covers(validation: PolicyResource, bundleId: string, unseen: Unseen): boolean | undefined {
  const form = unseen.read("bundlePath, bundles", validation, () => ({
    bundlePath: validation.props.bundlePath as string | undefined,
    bundles: validation.props.bundles as string[] | undefined,
    tree: validation.props.bundleTreePath as string | undefined,
  }));
  if (!form) return undefined;
  const { bundlePath, bundles, tree } = form.value;
  if (bundlePath) return path.basename(bundlePath.replace(/[\\/]+$/, "")) === bundleId || bundlePath.replace(/\\/g, "/").endsWith(`/${bundleId}`);
  if (tree) return !bundles || bundles.length === 0 || bundles.includes(bundleId);
  return false;
}

export const bundleValidated: StackValidationPolicy = {
  name: "cloudbees-bundle-validated",
  description:
    "No bundle reaches a controller unvalidated: a ControllerBundleAssignment must depend on a BundleValidation of the stack that covers its bundle, and a BundleReload on one, so that a bundle the server would refuse stops the deployment before it is assigned or reloaded.",
  enforcementLevel: "mandatory",
  validateStack: (args, report) => {
    const unseen = new Unseen();
    const validations = args.resources.filter((r) => isKind(r.type, "BundleValidation"));
    for (const r of args.resources) {
      if (isKind(r.type, "BundleReload")) {
        const deps = dependenciesOf(r);
        if (!validations.some((v) => deps.has(v))) {
          report(`${label(r)} reloads a bundle that no BundleValidation checks first: declare one for the bundle and give it in this resource's dependsOn.`, r.urn);
        }
      }
      if (!isKind(r.type, "ControllerBundleAssignment")) continue;
      const bundle = unseen.read("bundleId", r, () => r.props.bundleId as string);
      if (!bundle) continue;
      const covering = validations.filter((v) => covers(v, bundle.value, unseen) === true);
      const deps = dependenciesOf(r);
      if (covering.length === 0) {
        report(`${label(r)} assigns bundle ${quote(bundle.value)}, which no BundleValidation of the stack covers: declare a BundleValidation of that bundle (bundlePath, or bundleTreePath with it in bundles) and give it in this resource's dependsOn.`, r.urn);
      } else if (!covering.some((v) => deps.has(v))) {
        report(`${label(r)} assigns bundle ${quote(bundle.value)} without waiting for its validation: add ${covering.map((v) => quote(v.name)).join(" or ")} to this resource's dependsOn.`, r.urn);
      }
    }
    unseen.finish();
  },
};

/** Paths unlike each other: a pattern that matches them all matches every controller. */
const PROBE_PATHS = ["a", "controller-1", "team-x/controller-1", "Z9/_.~/q w", "ÿ/ø/Ω", "0"];

function matchesEveryController(regex: string): boolean {
  let compiled: RegExp;
  try {
    compiled = new RegExp(`^(?:${regex})$`, "u");
  } catch {
    return false;
  }
  return PROBE_PATHS.every((p) => compiled.test(p));
}

export const availabilityNarrow: ResourceValidationPolicy = {
  name: "cloudbees-availability-narrow",
  description:
    "Availability stays narrow: a bundle available to every controller (a BundleAvailability pattern that matches any path), or every bundle without a pattern available to all (GlobalAvailabilityPattern visibility true), lets any team's controller run another team's configuration.",
  enforcementLevel: "mandatory",
  configSchema: {
    properties: {
      allowedBundles: { type: "array", items: { type: "string" }, description: "Bundles that may be available to every controller (a shared base bundle)." },
    },
  },
  validateResource: (args, report) => {
    if (isKind(args.type, "GlobalAvailabilityPattern") && args.props.visibility === true) {
      report(`${label(args)} makes every bundle without a pattern available to every controller: set visibility to false and give each bundle a BundleAvailability.`);
    }
    if (!isKind(args.type, "BundleAvailability") || typeof args.props.regex !== "string") return;
    const allowed = stringList(args.getConfig<AvailabilityNarrowSettings>().allowedBundles);
    const bundleId = args.props.bundleId as string;
    if (matchesEveryController(args.props.regex) && !allowed.includes(bundleId)) {
      report(`${label(args)} makes bundle ${quote(bundleId)} available to every controller (regex ${quote(args.props.regex)}): list its controllers, or a pattern of their folder, or allow the bundle in this policy's allowedBundles.`);
    }
  },
};

export const assignmentFallback: ResourceValidationPolicy = {
  name: "cloudbees-assignment-fallback",
  description:
    "Every assignment names its fallback bundle: the API cannot unassign, so without fallbackBundleId a destroy leaves the controller on a bundle nobody manages any more.",
  enforcementLevel: "mandatory",
  validateResource: (args, report) => {
    if (!isKind(args.type, "ControllerBundleAssignment")) return;
    if (args.props.fallbackBundleId === undefined || args.props.fallbackBundleId === null || args.props.fallbackBundleId === "") {
      report(`${label(args)} names no fallbackBundleId: give the bundle the controller gets back on destroy (available to it, its BundleAvailability in dependsOn).`);
    }
  },
};
