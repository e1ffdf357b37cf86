/**
 * The feature-flag guardrails: a flag reaches everyone in a protected environment only after an unprotected one, a
 * condition names only target groups the stack knows, and the hygiene advice (descriptions, flags ready to remove).
 */
import type { PolicyResource, StackValidationPolicy } from "@pulumi/policy";
import { identity, isKind, label, pick, quote, stringList, Unseen } from "./resources";
import type { FlagProtectedEnvironmentsSettings, FlagTargetGroupsSettings } from "./settings";

export const DEFAULT_PROTECTED = ["Production"];

const protectedSetting = {
  protectedEnvironments: {
    type: "array",
    items: { type: "string" },
    description: `Environments where a change must have passed through another environment first (default ${DEFAULT_PROTECTED.join(", ")}).`,
  },
} as const;

interface Configuration {
  resource: PolicyResource;
  /** Application and flag, as identity() gives them. */
  key: string;
  environment: string;
  flag: string;
  onForEveryone: boolean;
}

function isClauseless(condition: Record<string, unknown>): boolean {
  return !["dependency", "group", "version", "property"].some((k) => condition[k] !== undefined && condition[k] !== null);
}

/**
 * On for everyone: enabled with the value true and no rule that narrows it (no condition, or a first one without a
 * clause that gives true, the dashboard's "All users"; no platform rules).
 */
export function isOnForEveryone(props: Record<string, unknown>): boolean {
  if (props.enabled !== true) return false;
  const platforms = props.platforms as unknown[] | undefined;
  if (Array.isArray(platforms) && platforms.length > 0) return false;
  const conditions = (props.conditions as Array<Record<string, unknown>> | undefined | null) ?? [];
  if (conditions.length === 0) return props.value === true;
  return isClauseless(conditions[0]!) && conditions[0]!.value === true;
}

/** The stack's flag configurations it can read (the others noted as unseen). */
function configurations(resources: PolicyResource[], unseen: Unseen): Configuration[] {
  const found: Configuration[] = [];
  for (const r of resources) {
    if (!isKind(r.type, "FlagConfiguration")) continue;
    const application = identity(r, "applicationId", unseen);
    const read = unseen.read("environment, flag, enabled, value, conditions", r, () => ({
      environment: String(r.props.environment),
      flag: String(r.props.flag),
      onForEveryone: isOnForEveryone(pick(r.props, ["enabled", "value", "conditions", "platforms"])),
    }));
    if (application === undefined || !read) continue;
    found.push({ resource: r, key: `${application}\n${read.value.flag}`, ...read.value });
  }
  return found;
}

export const protectedEnvironments: StackValidationPolicy = {
  name: "cloudbees-flag-protected-environments",
  description:
    "A flag turned on for everyone in a protected environment must be configured in an unprotected environment of the same stack too, so that the change went through Staging (or the like) before it reaches every Production user.",
  enforcementLevel: "mandatory",
  configSchema: { properties: protectedSetting },
  validateStack: (args, report) => {
    const protectedNames = stringList(args.getConfig<FlagProtectedEnvironmentsSettings>().protectedEnvironments, DEFAULT_PROTECTED);
    const unseen = new Unseen();
    const all = configurations(args.resources, unseen);
    for (const c of all) {
      if (!protectedNames.includes(c.environment) || !c.onForEveryone) continue;
      if (!all.some((o) => o.key === c.key && !protectedNames.includes(o.environment))) {
        report(`${label(c.resource)} turns flag ${quote(c.flag)} on for everyone in protected environment ${quote(c.environment)}, and the stack configures it in no unprotected environment: configure it in one (Staging) in this stack first.`, c.resource.urn);
      }
    }
    unseen.finish();
  },
};

/** The target-group names of a configuration's conditions and platform rules. */
export function groupNames(props: Record<string, unknown>): string[] {
  const conditions = [...(((props.conditions as unknown[]) ?? []) as Array<Record<string, unknown>>)];
  for (const p of ((props.platforms as unknown[]) ?? []) as Array<Record<string, unknown>>) {
    conditions.push(...(((p?.conditions as unknown[]) ?? []) as Array<Record<string, unknown>>));
  }
  const names: string[] = [];
  for (const c of conditions) {
    const group = c?.group as { name?: unknown } | undefined;
    if (!group || group.name === undefined || group.name === null) continue;
    names.push(...(Array.isArray(group.name) ? group.name.map(String) : [String(group.name)]));
  }
  return names;
}

export const targetGroupsKnown: StackValidationPolicy = {
  name: "cloudbees-flag-target-groups",
  description:
    "A condition may name only target groups the stack declares or reads (a TargetGroup resource, or TargetGroup.get): the service accepts any name, and a group that does not exist quietly matches nobody.",
  enforcementLevel: "mandatory",
  configSchema: {
    properties: {
      externalGroups: { type: "array", items: { type: "string" }, description: "Target groups managed outside this stack that conditions may name." },
    },
  },
  validateStack: (args, report) => {
    const unseen = new Unseen();
    const known = new Set(stringList(args.getConfig<FlagTargetGroupsSettings>().externalGroups));
    for (const r of args.resources) {
      if (!isKind(r.type, "TargetGroup")) continue;
      const name = unseen.read("name", r, () => r.props.name as string);
      if (name) known.add(name.value);
    }
    for (const r of args.resources) {
      if (!isKind(r.type, "FlagConfiguration")) continue;
      const names = unseen.read("conditions, platforms", r, () => groupNames(pick(r.props, ["conditions", "platforms"])));
      const missing = [...new Set(names?.value.filter((n) => !known.has(n)) ?? [])];
      if (missing.length > 0) {
        report(`${label(r)} names target group${missing.length > 1 ? "s" : ""} ${missing.map(quote).join(", ")}, which the stack neither declares nor reads: declare it (TargetGroup), read it (TargetGroup.get), or list it in this policy's externalGroups.`, r.urn);
      }
    }
    unseen.finish();
  },
};

export const flagDescription: StackValidationPolicy = {
  name: "cloudbees-flag-description",
  description: "Hygiene: a flag configuration without a description leaves the next person to guess what the flag is for and when it can go.",
  enforcementLevel: "advisory",
  validateStack: (args, report) => {
    const unseen = new Unseen();
    for (const r of args.resources) {
      if (!isKind(r.type, "FlagConfiguration")) continue;
      const description = unseen.read("description", r, () => r.props.description as unknown);
      if (description && (typeof description.value !== "string" || description.value.trim() === "")) {
        report(`${label(r)} has no description: say what the flag is for and when it can be removed.`, r.urn);
      }
    }
    unseen.finish();
  },
};

export const flagOnEverywhere: StackValidationPolicy = {
  name: "cloudbees-flag-on-everywhere",
  description:
    "Hygiene: a flag on for everyone in every environment the stack configures no longer decides anything; it is ready to be removed from the code (and its configurations from the stack).",
  enforcementLevel: "advisory",
  validateStack: (args, report) => {
    const unseen = new Unseen();
    const all = configurations(args.resources, unseen);
    const environments = new Set(all.map((c) => c.environment));
    const done = new Set<string>();
    for (const c of all) {
      if (done.has(c.key)) continue;
      done.add(c.key);
      const same = all.filter((o) => o.key === c.key);
      const covered = new Set(same.filter((o) => o.onForEveryone).map((o) => o.environment));
      if (environments.size > 1 && same.every((o) => o.onForEveryone) && covered.size === environments.size) {
        report(`Flag ${quote(c.flag)} is on for everyone in every environment of the stack (${[...environments].map(quote).join(", ")}): remove it from the code, then its FlagConfigurations.`, c.resource.urn);
      }
    }
    unseen.finish();
  },
};
