/**
 * One canonical form for each value the feature-flag service may echo in another shape than the program wrote it,
 * so that diffs compare what a person means:
 * - an option is matched to the flag's available values (`"true"` is `true` on a boolean flag, `"3"` is `3` on a
 *   number flag);
 * - a percentage split `[{option, percentage}]` is a set by option, percentage default 100; a schedule
 *   `[{from, percentage, option}]` is ordered by time, dates compared as instants, option default true; `[]` is null
 *   (no value: the code's default);
 * - a condition chain is ordered (if / else-if: the first match wins); inside a condition, a group's operator
 *   defaults to "or" and its name (a string or a list) is a set of names; an `in-array` operand is a set;
 * - labels and available values are sets; platforms are a set by name;
 * - a target group's operator defaults to "and" and its conditions are a set.
 * Values the server fills in (description "", enabled true, ...) are compared only when the program declares them.
 */
import { isBooleanFlag as isBooleanFlagOf, SERVICE_DEFAULTS, type FlagOption } from "../../clients/feature-flag-types";
import { UNKNOWN } from "../shared/values";

export type Options = readonly FlagOption[] | undefined;

export const DEFAULT_AVAILABLE_VALUES: FlagOption[] = [...SERVICE_DEFAULTS.availableValues];
export const DEFAULT_STICKINESS_PROPERTY = SERVICE_DEFAULTS.stickinessProperty;

/** A boolean flag (unknown values: the service's default, a boolean flag): the API's one rule. */
export function isBooleanFlag(options: Options): boolean {
  return isBooleanFlagOf(options ?? DEFAULT_AVAILABLE_VALUES);
}

/** The option as the flag names it: `"true"` on a boolean flag is `true`; `"3"` on a number flag is `3`. */
export function canonicalOption(value: unknown, options: Options): unknown {
  if (value === UNKNOWN) return value;
  if (isBooleanFlag(options) && (value === "true" || value === "false")) return value === "true";
  if (options && (typeof value === "string" || typeof value === "number" || typeof value === "boolean")) {
    const same = options.find((o) => String(o) === String(value));
    if (same !== undefined) return same;
  }
  return value;
}

function canonicalPercentage(value: unknown): unknown {
  return value === undefined || value === null ? SERVICE_DEFAULTS.percentage : value;
}

/** An ISO date as an instant (`2026-01-01` and `2026-01-01T00:00:00.000Z` are the same), else as given. */
function canonicalDate(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const t = Date.parse(value);
  return Number.isNaN(t) ? value : new Date(t).toISOString();
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** A flag value: an option, a split, a schedule, or null. */
export function canonicalValue(value: unknown, options: Options): unknown {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) return canonicalOption(value, options);
  if (value.length === 0) return null;
  if (value.every((v) => isRecord(v) && "from" in v)) {
    return value
      .map((v) => {
        const entry = v as Record<string, unknown>;
        // A schedule's option is true when absent (every schedule the service wrote says `option: true`).
        return { from: canonicalDate(entry.from), percentage: canonicalPercentage(entry.percentage), option: canonicalOption(entry.option ?? true, options) };
      })
      .sort((a, b) => String(a.from).localeCompare(String(b.from)));
  }
  // A split entry without option (the service kept `[{percentage: 52}]`) stays without one.
  const optionText = (v: unknown) => JSON.stringify(isRecord(v) ? v.option : v) ?? "";
  return value
    .map((v) => (isRecord(v) ? { option: canonicalOption(v.option, options), percentage: canonicalPercentage(v.percentage) } : v))
    .sort((a, b) => optionText(a).localeCompare(optionText(b)));
}

/** Sorted, without duplicates, by JSON text (so that `1` and `"1"` stay apart). */
export function canonicalSet(values: readonly unknown[]): unknown[] {
  const byText = new Map(values.map((v) => [JSON.stringify(v), v]));
  return [...byText.keys()].sort().map((k) => byText.get(k));
}

/** Two lists of available values are the same flag type: the same set. */
export function sameAvailableValues(a: readonly FlagOption[], b: readonly FlagOption[]): boolean {
  return JSON.stringify(canonicalSet(a)) === JSON.stringify(canonicalSet(b));
}

/** Labels: a string or a list, as a set. */
export function canonicalLabels(value: unknown): unknown {
  if (value === undefined || value === null) return [];
  if (typeof value === "string") return [value];
  return Array.isArray(value) ? canonicalSet(value) : value;
}

function canonicalOperand(operator: unknown, operand: unknown): unknown {
  if (operand === undefined || operand === null) return null;
  return operator === "in-array" && Array.isArray(operand) ? canonicalSet(operand) : operand;
}

/** The available values of other flags, for a dependency's value. */
export type OptionsOf = (flag: string) => Options;

/** One condition of a configuration's chain. */
export function canonicalCondition(condition: unknown, options: Options, optionsOf: OptionsOf): unknown {
  if (!isRecord(condition)) return condition;
  const out: Record<string, unknown> = {};
  const { dependency, group, version, property } = condition;
  if (isRecord(dependency)) {
    const flag = dependency.flag;
    out.dependency = { flag, value: canonicalOption(dependency.value, typeof flag === "string" ? optionsOf(flag) : undefined) };
  }
  if (isRecord(group)) {
    const names = typeof group.name === "string" ? [group.name] : Array.isArray(group.name) ? canonicalSet(group.name) : group.name;
    out.group = { operator: group.operator ?? SERVICE_DEFAULTS.groupOperator, name: names };
  }
  if (isRecord(version)) out.version = { operator: version.operator, semver: version.semver };
  if (isRecord(property)) out.property = { name: property.name, operator: property.operator, operand: canonicalOperand(property.operator, property.operand) };
  out.value = canonicalValue(condition.value, options);
  return out;
}

export function canonicalConditions(conditions: unknown, options: Options, optionsOf: OptionsOf): unknown {
  if (conditions === undefined || conditions === null) return [];
  return Array.isArray(conditions) ? conditions.map((c) => canonicalCondition(c, options, optionsOf)) : conditions;
}

/** Platforms: a set by name, each with its own ordered chain. */
export function canonicalPlatforms(platforms: unknown, options: Options, optionsOf: OptionsOf): unknown {
  if (platforms === undefined || platforms === null) return [];
  if (!Array.isArray(platforms)) return platforms;
  return platforms
    .map((p) =>
      isRecord(p)
        ? { name: p.name, flag: p.flag ?? null, conditions: canonicalConditions(p.conditions, options, optionsOf), value: canonicalValue(p.value, options) }
        : p,
    )
    .sort((a, b) => String(isRecord(a) ? a.name : a).localeCompare(String(isRecord(b) ? b.name : b)));
}

/** The canonical form of one input of a flag configuration (`key` is its name), whatever form it was written in. */
export function canonicalConfigurationInput(key: string, value: unknown, options: Options, optionsOf: OptionsOf): unknown {
  switch (key) {
    case "enabled":
      return value === undefined || value === null ? true : value;
    case "archived":
      return value === undefined || value === null ? false : value;
    case "description":
      return value ?? "";
    case "stickinessProperty":
      return value ?? DEFAULT_STICKINESS_PROPERTY;
    case "labels":
      return canonicalLabels(value);
    case "value":
      return value === undefined ? (isBooleanFlag(options) ? false : null) : canonicalValue(value, options);
    case "conditions":
      return canonicalConditions(value, options, optionsOf);
    case "platforms":
      return canonicalPlatforms(value, options, optionsOf);
    default:
      return value ?? null;
  }
}

/** A target group's conditions: a set, `in-array` operands as sets. */
export function canonicalTargetGroupConditions(conditions: unknown): unknown {
  if (!Array.isArray(conditions)) return conditions;
  const items = conditions.map((c) =>
    isRecord(c) ? { property: c.property, operator: c.operator, operand: canonicalOperand(c.operator, c.operand) } : c,
  );
  return canonicalSet(items);
}

export function canonicalTargetGroupOperator(operator: unknown): unknown {
  return operator ?? SERVICE_DEFAULTS.targetGroupOperator;
}
