// The policy pack's tier program (test/real-engine/policy.test.ts), on the dynamic providers: with `guard:mode`
// violating, one resource breaking each policy of policy/ (docs/policy.md); with compliant, their twins that keep it.
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as cloudbees from "pulumi-cloudbees";

const config = new pulumi.Config("guard");
const violating = config.require("mode") === "violating";
const bundles = config.require("bundlesDir");

const shop = new cloudbees.Application("shop", { name: "guard-shop" });
const configuration = (name: string, args: Omit<cloudbees.FlagConfigurationArgs, "applicationId">, opts?: pulumi.CustomResourceOptions) =>
  new cloudbees.FlagConfiguration(name, { applicationId: shop.id, ...args }, opts);
// What controller-a runs, watched with paths ignored (its check reads the bundles only: preview contacts nothing).
const watch = (name: string, ignore: string[]) =>
  new cloudbees.ControllerConfiguration(name, { controllerPath: "team-a/controller-a", instanceUrl: "http://127.0.0.1:9/team-a/controller-a/", bundleTreePath: bundles, bundleId: "team-a", ignore });

if (violating) {
  // cloudbees-bundle-validated and cloudbees-assignment-fallback.
  new cloudbees.ControllerBundleAssignment("unvalidated-assignment", { controllerPath: "team-a/controller-a", bundleId: "team-a" });
  new cloudbees.BundleReload("unvalidated-reload", {});
  // A bundle id a preview cannot know (an id, known once the application exists): the policy says so, once.
  new cloudbees.ControllerBundleAssignment("unknown-bundle", { controllerPath: "team-b/controller-b", bundleId: shop.id, fallbackBundleId: "base" });
  // cloudbees-availability-narrow, both forms.
  new cloudbees.BundleAvailability("everyone-availability", { bundleId: "team-a", regex: ".*" });
  new cloudbees.GlobalAvailabilityPattern("global-switch", { visibility: true });
  // cloudbees-flag-protected-environments and cloudbees-flag-description.
  configuration("straight-to-production", { environment: "Production", flag: "checkout", enabled: true, value: true });
  // cloudbees-flag-target-groups.
  configuration("ghost-group", { environment: "Staging", flag: "banner", enabled: true, conditions: [{ group: { name: "ghosts" }, value: true }], description: "The new banner" });
  // cloudbees-team-admins.
  new cloudbees.TeamMember("developer-admin", { email: "dev@example.com", teamAdmin: true });
  // cloudbees-controller-ignore-security: the agent protocols and the credentials hidden from the comparison.
  watch("open-controller", ["jenkins.yaml: jenkins.agentProtocols", "jenkins.yaml: credentials", "jenkins.yaml: jenkins.systemMessage"]);
  // cloudbees-flag-on-everywhere.
  for (const environment of ["Staging", "Production"]) {
    configuration(`old-${environment}`, { environment, flag: "old-search", enabled: true, value: true, description: "The search rewrite" });
  }
} else {
  const validation = new cloudbees.BundleValidation("team-a-validation", { bundlePath: path.join(bundles, "team-a") });
  const availability = new cloudbees.BundleAvailability("team-a-availability", { bundleId: "team-a", controllers: ["team-a/controller-a"] });
  const base = new cloudbees.BundleAvailability("base-availability", { bundleId: "base", regex: "team-a/.*" });
  new cloudbees.ControllerBundleAssignment(
    "validated-assignment",
    { controllerPath: "team-a/controller-a", bundleId: "team-a", fallbackBundleId: "base" },
    { dependsOn: [validation, availability, base] },
  );
  new cloudbees.BundleReload("validated-reload", {}, { dependsOn: [validation] });
  const beta = new cloudbees.TargetGroup("beta", { applicationId: shop.id, name: "beta-testers" });
  configuration("checkout-staging", { environment: "Staging", flag: "checkout", enabled: true, conditions: [{ group: { name: beta.name }, value: true }], description: "The new checkout" });
  configuration("checkout-production", { environment: "Production", flag: "checkout", enabled: true, value: true, description: "The new checkout" });
  watch("watched-controller", ["jenkins.yaml: jenkins.systemMessage"]);
  new cloudbees.TeamMember("developer", { email: "dev@example.com", applications: { "guard-shop": { environments: { Production: "read", Staging: "write" } } } });
}
