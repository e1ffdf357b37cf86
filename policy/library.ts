/**
 * `pulumi-cloudbees/policy`: the pack's policies for a user's own PolicyPack (docs/policy.md#your-own-pack), as
 * Pulumi's AWSGuard offers its own. Each policy `cloudbees-<words>` is a function named in camelCase after its words
 * that gives the policy with the level and settings chosen; called with nothing, it is the policy as the pack ships it.
 * Importing this module starts no pack (policy/index.ts does).
 */
// The types from @pulumi/policy's policy module, not its index (policy/settings.ts says why).
import type { EnforcementLevel, ResourceValidationArgs, ResourceValidationPolicy, StackValidationArgs, StackValidationPolicy } from "@pulumi/policy/policy";
import * as access from "./access";
import * as bundles from "./bundles";
import * as controllers from "./controllers";
import * as flags from "./flags";
import { noteSecrets } from "./secrets";
import type { AvailabilityNarrowSettings, ControllerIgnoreSecuritySettings, FlagProtectedEnvironmentsSettings, FlagTargetGroupsSettings, TeamAdminsSettings } from "./settings";

export type { EnforcementLevel };
export type { AvailabilityNarrowSettings, ControllerIgnoreSecuritySettings, FlagProtectedEnvironmentsSettings, FlagTargetGroupsSettings, TeamAdminsSettings };

/** A level alone, or settings with the level (absent: the policy's own, docs/policy.md's table). */
export type PolicyArgs<Settings extends object = object> = EnforcementLevel | (Settings & { enforcementLevel?: EnforcementLevel });

/**
 * The policy with `args` applied: the level replaces its default; the settings are what it reads, and a
 * `--policy-pack-config` file (or Pulumi Cloud's) still overrides them one by one, as it overrides a pack's defaults.
 */
export function configure<P extends ResourceValidationPolicy | StackValidationPolicy>(policy: P, args?: PolicyArgs): P {
  const { enforcementLevel, ...settings } = typeof args === "string" ? { enforcementLevel: args } : (args ?? {});
  const withSettings = <A extends ResourceValidationArgs | StackValidationArgs>(a: A): A => ({ ...a, getConfig: <T extends object>() => ({ ...settings, ...a.getConfig() }) as T });
  const copy = { ...policy, enforcementLevel: enforcementLevel ?? policy.enforcementLevel };
  if ("validateStack" in copy) {
    const validate = copy.validateStack;
    copy.validateStack = (a, report) => validate(withSettings(a), report);
  } else if (copy.validateResource) {
    const each = Array.isArray(copy.validateResource) ? copy.validateResource : [copy.validateResource];
    copy.validateResource = each.map((validate) => (a: ResourceValidationArgs, report: Parameters<typeof validate>[1]) => validate(withSettings(a), report));
  }
  return copy;
}

/** One policy's function: `availabilityNarrow({ allowedBundles: ["base"] })`, `teamAdmins("advisory")`. */
export type PolicyFactory<P extends ResourceValidationPolicy | StackValidationPolicy, Settings extends object = object> = (args?: PolicyArgs<Settings>) => P;

function factory<P extends ResourceValidationPolicy | StackValidationPolicy, Settings extends object = object>(policy: P): PolicyFactory<P, Settings> {
  return (args) => configure(policy, args);
}

export const bundleValidated: PolicyFactory<StackValidationPolicy> = factory(bundles.bundleValidated);
export const availabilityNarrow: PolicyFactory<ResourceValidationPolicy, AvailabilityNarrowSettings> = factory(bundles.availabilityNarrow);
export const assignmentFallback: PolicyFactory<ResourceValidationPolicy> = factory(bundles.assignmentFallback);
export const controllerIgnoreSecurity: PolicyFactory<ResourceValidationPolicy, ControllerIgnoreSecuritySettings> = factory(controllers.controllerIgnoreSecurity);
export const flagProtectedEnvironments: PolicyFactory<StackValidationPolicy, FlagProtectedEnvironmentsSettings> = factory(flags.protectedEnvironments);
export const flagTargetGroups: PolicyFactory<StackValidationPolicy, FlagTargetGroupsSettings> = factory(flags.targetGroupsKnown);
export const teamAdmins: PolicyFactory<ResourceValidationPolicy, TeamAdminsSettings> = factory(access.teamAdmins);
// The policy reads the engine's secret marks, which the shipped pack notes when it starts (policy/index.ts).
export const providerTokenSecret: PolicyFactory<ResourceValidationPolicy> = (args) => {
  noteSecrets();
  return configure(access.providerTokenSecret, args);
};
export const flagDescription: PolicyFactory<StackValidationPolicy> = factory(flags.flagDescription);
export const flagOnEverywhere: PolicyFactory<StackValidationPolicy> = factory(flags.flagOnEverywhere);
