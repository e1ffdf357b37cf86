/**
 * Check rules of the feature-flag inputs (item 5 of issue 15): values, splits and schedules against the flag's
 * available values, condition clauses and their operators and operands, target-group conditions. Each failure names
 * the input by its path (`conditions[2].property.operand`) and says what to write instead. Values not known yet
 * (preview) pass.
 *
 * They refuse only what the service refuses: every form the service wrote itself (rollout/sound-redux-cac, the
 * corpus of test/fixtures/real-experiments) passes, and the odd ones among them (a string flag's value outside its
 * available values, a regex JavaScript cannot compile, a version that is not one, a split share without an option)
 * pass with a warning saying what they will do.
 */
import { FEATURE_FLAG_LIMITS as LIMITS, GROUP_OPERATORS, isVersionText, OPERATORS_WITHOUT_OPERAND, PROPERTY_OPERATORS, TARGET_GROUP_OPERATORS, VERSION_OPERATORS, type FlagOption } from "../../clients/feature-flag-types";
import { controlCharacterProblem, type InputChecker } from "../shared/check";
import { isUnknown } from "../shared/values";
import { canonicalOption, isBooleanFlag, isRecord, type Options } from "./canonical";

/** Longest description, label or operand text. */
const MAX_TEXT_LENGTH = LIMITS.descriptionLength;
const MAX_NAME_LENGTH = LIMITS.nameLength;

function show(v: unknown): string {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 80 ? `${text.slice(0, 60)}... (${text.length} characters)` : text;
}

function optionsText(options: readonly FlagOption[]): string {
  return options.map((o) => JSON.stringify(o)).join(", ");
}

/**
 * Why `name` cannot be a path segment of the API (an environment or a flag appears in paths by its name), or
 * undefined. "/" and "\" are refused even encoded: proxies and servers decode %2F and route it as a separator.
 */
export function pathNameProblem(name: string): string | undefined {
  if (name === "." || name === "..") return `"${name}" cannot be a path segment`;
  if (/[/\\]/.test(name)) return `"${name}" holds a slash, which a URL path cannot carry as part of a name`;
  // Control characters: c.text has refused them (pathName).
  return undefined;
}

/** A name that appears in API paths (an environment's, a flag's). */
export function pathName(c: InputChecker, property: string, example: string): string | undefined {
  const v = c.text(property, { required: true, example });
  if (v === undefined) return undefined;
  const problem = pathNameProblem(v);
  if (problem) {
    c.fail(property, `${property} ${problem}: the API names it in request paths; choose a name without it`);
    return undefined;
  }
  return v;
}

/**
 * An option (a flag's value): a string, a number or a boolean, one of `options` when they are known. A boolean
 * flag's must be true or false; a string or number flag's outside its available values is accepted with a warning,
 * as the service accepts it (it kept `value: '10'` on a flag offering three words).
 */
function checkOption(c: InputChecker, property: string, value: unknown, options: Options, what = "value"): void {
  if (isUnknown(value)) return;
  if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
    c.fail(property, `${property} must be a string, a number or a boolean (one of the flag's available values), got ${show(value)}`);
    return;
  }
  if (options === undefined) return;
  const option = canonicalOption(value, options);
  if (options.some((o) => o === option)) return;
  if (typeof value === "string" && value.length > MAX_NAME_LENGTH) {
    c.fail(property, `${property}: ${what} ${show(value)} is ${value.length} characters long; at most ${MAX_NAME_LENGTH} are allowed`);
  } else if (isBooleanFlag(options) || typeof value === "boolean") {
    c.fail(property, `${property}: ${what} ${show(value)} is not one of the flag's available values (${optionsText(options)}): use one of them`);
  } else {
    c.warn(property, `${property}: ${what} ${show(value)} is not one of the flag's available values (${optionsText(options)}); the service takes it as given, and the SDK delivers it as such`);
  }
}

function checkPercentage(c: InputChecker, property: string, value: unknown): number {
  if (value === undefined || value === null) return 100;
  if (isUnknown(value)) return 0;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > 100) {
    c.fail(property, `${property} must be a number from 0 to 100 (a share of users, default 100), got ${show(value)}`);
    return 0;
  }
  return value;
}

/**
 * A flag value: an option, a split `[{option, percentage}]` (percentages summing to at most 100), a schedule
 * `[{from, percentage, option}]` (boolean flags only; every entry with `from`), or null.
 */
export function checkValue(c: InputChecker, property: string, value: unknown, options: Options): void {
  if (value === undefined || value === null || isUnknown(value)) return;
  if (!Array.isArray(value)) {
    checkOption(c, property, value, options);
    return;
  }
  if (!c.listLength(property, value, LIMITS.valueParts)) return;
  const scheduled = value.some((v) => isRecord(v) && "from" in v);
  if (scheduled) {
    if (options !== undefined && !isBooleanFlag(options)) {
      c.fail(property, `${property}: scheduled values ([{from, percentage, option}]) apply to boolean flags only, and this flag's values are ${optionsText(options)}: give one of them, or a split [{option, percentage}]`);
      return;
    }
    value.forEach((v, i) => {
      if (isUnknown(v)) return;
      if (!isRecord(v) || !("from" in v)) {
        c.fail(`${property}[${i}]`, `${property}[${i}] must be {from, percentage, option?} like the other items of the schedule, e.g. { from: "2026-01-01T00:00:00Z", percentage: 50, option: true }`);
        return;
      }
      extraKeys(c, `${property}[${i}]`, v, ["from", "percentage", "option"]);
      if (!isUnknown(v.from) && (typeof v.from !== "string" || Number.isNaN(Date.parse(v.from)))) {
        c.fail(`${property}[${i}].from`, `${property}[${i}].from must be an ISO-8601 date, e.g. "2026-01-01T00:00:00Z", got ${show(v.from)}`);
      }
      checkPercentage(c, `${property}[${i}].percentage`, v.percentage);
      if (v.option !== undefined) checkOption(c, `${property}[${i}].option`, v.option, options, "scheduled option");
    });
    return;
  }
  let sum = 0;
  const seen = new Set<string>();
  value.forEach((v, i) => {
    if (isUnknown(v)) return;
    if (!isRecord(v)) {
      c.fail(`${property}[${i}]`, `${property}[${i}] must be {option, percentage}, e.g. { option: true, percentage: 50 }, got ${show(v)}`);
      return;
    }
    extraKeys(c, `${property}[${i}]`, v, ["option", "percentage"]);
    if (v.option === undefined || v.option === null) {
      c.warn(`${property}[${i}]`, `${property}[${i}] has no option: its share of users gets no value from this rule (the code's default), as the service keeps such an entry`);
    } else {
      checkOption(c, `${property}[${i}].option`, v.option, options, "split option");
      const text = JSON.stringify(canonicalOption(v.option, options));
      if (seen.has(text)) c.fail(`${property}[${i}].option`, `${property}[${i}].option ${show(v.option)} appears twice in the split: give each option once, with its whole percentage`);
      seen.add(text);
    }
    sum += checkPercentage(c, `${property}[${i}].percentage`, v.percentage);
  });
  if (sum > 100) c.fail(property, `${property}: the split's percentages sum to ${sum}, over 100: lower them so that they sum to at most 100`);
}

function extraKeys(c: InputChecker, property: string, value: Record<string, unknown>, known: string[]): void {
  for (const k of Object.keys(value)) {
    if (!known.includes(k)) c.fail(`${property}.${k}`, `${property}.${k} is not a field here (the fields are ${known.join(", ")})`);
  }
}

function oneOf(c: InputChecker, property: string, value: unknown, allowed: readonly string[]): boolean {
  if (isUnknown(value)) return false;
  if (typeof value !== "string" || !allowed.includes(value)) {
    c.fail(property, `${property} must be one of ${allowed.join(", ")}, got ${show(value)}`);
    return false;
  }
  return true;
}

/**
 * A name inside a structured input (a group's, a dependency's flag, a property's, a label): the rules `c.text` gives a
 * top-level name (non-empty, bounded, no control character), so that no nested name can forge a line either.
 */
function nonEmptyText(c: InputChecker, property: string, value: unknown, example: string): boolean {
  if (isUnknown(value)) return false;
  if (typeof value !== "string" || value.trim() === "" || value.length > MAX_NAME_LENGTH) {
    c.fail(property, `${property} must be a non-empty string of at most ${MAX_NAME_LENGTH} characters, e.g. "${example}", got ${show(value)}`);
    return false;
  }
  const control = controlCharacterProblem(value);
  if (control) {
    c.fail(property, `${property} "${value}" ${control}`);
    return false;
  }
  return true;
}

/** `operator operand`: the operand where the operator needs one (a list for in-array, a compiling regex, a version). */
function checkOperand(c: InputChecker, property: string, operator: string, operand: unknown): void {
  const present = operand !== undefined && operand !== null;
  if (isUnknown(operand)) return;
  if ((OPERATORS_WITHOUT_OPERAND as readonly string[]).includes(operator)) {
    if (present) c.fail(`${property}.operand`, `${property}.operand: the operator ${operator} takes no operand; leave it out`);
    return;
  }
  if (!present) {
    c.fail(`${property}.operand`, `${property}.operand is required by the operator ${operator}, e.g. ${operator === "in-array" ? '["a@example.com"]' : operator.startsWith("semver") ? '"1.2.0"' : '"value"'}`);
    return;
  }
  if (operator === "in-array") {
    if (!Array.isArray(operand) || operand.some((o) => typeof o !== "string" && !isUnknown(o))) {
      c.fail(`${property}.operand`, `${property}.operand must be a list of strings for in-array, e.g. ["a@example.com"], got ${show(operand)}`);
    } else {
      c.listLength(`${property}.operand`, operand, LIMITS.operandItems);
    }
    return;
  }
  if (typeof operand !== "string" && typeof operand !== "number") {
    c.fail(`${property}.operand`, `${property}.operand must be a string or a number for ${operator}, got ${show(operand)}`);
    return;
  }
  if (typeof operand === "string" && operand.length > MAX_TEXT_LENGTH) {
    c.fail(`${property}.operand`, `${property}.operand is ${operand.length} characters long; at most ${MAX_TEXT_LENGTH} are allowed`);
    return;
  }
  if (operator === "regex") {
    try {
      new RegExp(String(operand));
    } catch (e) {
      c.warn(
        `${property}.operand`,
        `${property}.operand ${show(operand)} is not a regular expression JavaScript can compile (${(e as Error).message}). The service keeps it as given, ` +
          `but the SDK (rox-node) cannot evaluate it: every evaluation of this rule fails, is logged as "An error occurred during Roxx evaluation", ` +
          `and counts as false (a target group with it matches nobody; in a flag's condition the whole flag evaluates to false). Write a JavaScript pattern, e.g. ".*@example\\.com$"`,
      );
    }
  } else if (operator.startsWith("semver") && !isVersionText(String(operand))) {
    c.fail(`${property}.operand`, `${property}.operand ${show(operand)} is not a semantic version for ${operator}: write it as up to three dot-separated numbers, e.g. "1.2.0"`);
  } else if (["gt", "gte", "lt", "lte"].includes(operator) && typeof operand === "string" && operand.trim() === "") {
    c.fail(`${property}.operand`, `${property}.operand must not be empty for ${operator}`);
  }
}

/** A property test `{name|property, operator, operand}`. `nameKey` is "name" in a condition, "property" in a target group. */
function checkPropertyTest(c: InputChecker, property: string, value: unknown, nameKey: "name" | "property"): void {
  if (isUnknown(value)) return;
  if (!isRecord(value)) {
    c.fail(property, `${property} must be {${nameKey}, operator, operand}, e.g. { ${nameKey}: "email", operator: "in-array", operand: ["a@example.com"] }, got ${show(value)}`);
    return;
  }
  extraKeys(c, property, value, [nameKey, "operator", "operand"]);
  nonEmptyText(c, `${property}.${nameKey}`, value[nameKey], "email");
  if (oneOf(c, `${property}.operator`, value.operator, PROPERTY_OPERATORS)) checkOperand(c, property, value.operator as string, value.operand);
}

const CONDITION_KEYS = ["dependency", "group", "version", "property", "value"];

/** An if / else-if chain of a configuration (or of one platform). */
export function checkConditions(c: InputChecker, property: string, conditions: unknown, options: Options, optionsOf: (flag: string) => Options): void {
  if (conditions === undefined || conditions === null || isUnknown(conditions)) return;
  if (!Array.isArray(conditions)) {
    c.fail(property, `${property} must be a list of conditions (an ordered if / else-if chain), e.g. [{ group: { name: "beta-users" }, value: true }]`);
    return;
  }
  if (conditions.length > LIMITS.conditions) {
    c.fail(property, `${property} has ${conditions.length} conditions; at most ${LIMITS.conditions} are allowed`);
    return;
  }
  conditions.forEach((condition, i) => {
    const at = `${property}[${i}]`;
    if (isUnknown(condition)) return;
    if (!isRecord(condition)) {
      c.fail(at, `${at} must be a condition: { group | dependency | version | property clauses, value }`);
      return;
    }
    // No clause: holds for everyone (the dashboard's "All users"); no value: gives the flag's default. Both are the service's.
    extraKeys(c, at, condition, CONDITION_KEYS);
    const { dependency, group, version } = condition;
    if (dependency !== undefined && !isUnknown(dependency)) {
      if (!isRecord(dependency)) {
        c.fail(`${at}.dependency`, `${at}.dependency must be { flag, value }, e.g. { flag: "new-checkout", value: true }`);
      } else {
        extraKeys(c, `${at}.dependency`, dependency, ["flag", "value"]);
        if (nonEmptyText(c, `${at}.dependency.flag`, dependency.flag, "new-checkout")) {
          if (dependency.value === undefined || dependency.value === null) c.fail(`${at}.dependency.value`, `${at}.dependency.value is required: the other flag's value that makes the clause hold, e.g. true`);
          else checkOption(c, `${at}.dependency.value`, dependency.value, optionsOf(dependency.flag as string), `flag "${String(dependency.flag)}"'s value`);
        }
      }
    }
    if (group !== undefined && !isUnknown(group)) {
      if (!isRecord(group)) {
        c.fail(`${at}.group`, `${at}.group must be { name, operator? }, e.g. { name: ["beta-users"], operator: "or" }`);
      } else {
        extraKeys(c, `${at}.group`, group, ["name", "operator"]);
        if (group.operator !== undefined && group.operator !== null) oneOf(c, `${at}.group.operator`, group.operator, GROUP_OPERATORS);
        const names = group.name;
        if (!isUnknown(names)) {
          const list = typeof names === "string" ? [names] : names;
          if (!Array.isArray(list) || list.length === 0) c.fail(`${at}.group.name`, `${at}.group.name must be a target group's name or a non-empty list of them, e.g. "beta-users"`);
          else if (c.listLength(`${at}.group.name`, list, LIMITS.groupNames)) list.forEach((n, j) => nonEmptyText(c, Array.isArray(names) ? `${at}.group.name[${j}]` : `${at}.group.name`, n, "beta-users"));
        }
      }
    }
    if (version !== undefined && !isUnknown(version)) {
      if (!isRecord(version)) {
        c.fail(`${at}.version`, `${at}.version must be { operator, semver }, e.g. { operator: "semver-gte", semver: "2.0.0" }`);
      } else {
        extraKeys(c, `${at}.version`, version, ["operator", "semver"]);
        oneOf(c, `${at}.version.operator`, version.operator, VERSION_OPERATORS);
        if (!isUnknown(version.semver) && version.semver !== null && typeof version.semver !== "string") {
          c.fail(`${at}.version.semver`, `${at}.version.semver must be a semantic version, e.g. "2.0.0", got ${show(version.semver)}`);
        } else if (!isUnknown(version.semver) && (version.semver === null || !isVersionText(version.semver as string))) {
          c.warn(`${at}.version.semver`, `${at}.version.semver ${show(version.semver)} is not a version: the service keeps it, and no release matches it (the condition never holds); write e.g. "2.0.0"`);
        }
      }
    }
    if (condition.property !== undefined) checkPropertyTest(c, `${at}.property`, condition.property, "name");
    checkValue(c, `${at}.value`, condition.value, options);
  });
}

/** Platforms: `[{name, conditions?, value?}]`, each name once. */
export function checkPlatforms(c: InputChecker, property: string, platforms: unknown, options: Options, optionsOf: (flag: string) => Options): void {
  if (platforms === undefined || platforms === null || isUnknown(platforms)) return;
  if (!Array.isArray(platforms)) {
    c.fail(property, `${property} must be a list of { name, conditions?, value? }, e.g. [{ name: "Android", value: false }]`);
    return;
  }
  if (!c.listLength(property, platforms, LIMITS.platforms)) return;
  const seen = new Set<unknown>();
  platforms.forEach((p, i) => {
    const at = `${property}[${i}]`;
    if (isUnknown(p)) return;
    if (!isRecord(p)) {
      c.fail(at, `${at} must be { name, conditions?, value? }`);
      return;
    }
    extraKeys(c, at, p, ["name", "flag", "conditions", "value"]);
    if (nonEmptyText(c, `${at}.name`, p.name, "Android")) {
      if (seen.has(p.name)) c.fail(`${at}.name`, `${at}.name "${String(p.name)}" appears twice: give each platform once`);
      seen.add(p.name);
    }
    checkConditions(c, `${at}.conditions`, p.conditions, options, optionsOf);
    checkValue(c, `${at}.value`, p.value, options);
  });
}

/** A target group's conditions; none (left out, or null as the service kept some groups) is a group without tests. */
export function checkTargetGroupConditions(c: InputChecker, property: string, conditions: unknown): void {
  if (isUnknown(conditions) || conditions === undefined || conditions === null) return;
  if (!Array.isArray(conditions)) {
    c.fail(property, `${property} must be a list of { property, operator, operand? }`);
    return;
  }
  if (conditions.length > LIMITS.conditions) {
    c.fail(property, `${property} has ${conditions.length} conditions; at most ${LIMITS.conditions} are allowed`);
    return;
  }
  conditions.forEach((condition, i) => checkPropertyTest(c, `${property}[${i}]`, condition, "property"));
}

export function checkTargetGroupOperator(c: InputChecker, property: string, operator: unknown): void {
  if (operator !== undefined && operator !== null) oneOf(c, property, operator, TARGET_GROUP_OPERATORS);
}

/** A text input that may be empty (a description): a string of bounded length. */
export function checkFreeText(c: InputChecker, property: string, value: unknown): void {
  if (value === undefined || value === null || isUnknown(value)) return;
  if (typeof value !== "string") c.fail(property, `${property} must be a string, got ${show(value)}`);
  else if (value.length > MAX_TEXT_LENGTH) c.fail(property, `${property} is ${value.length} characters long; at most ${MAX_TEXT_LENGTH} are allowed`);
}

/** Labels: a string or a list of strings. */
export function checkLabels(c: InputChecker, property: string, value: unknown): void {
  if (value === undefined || value === null || isUnknown(value)) return;
  const list = typeof value === "string" ? [value] : value;
  if (!Array.isArray(list) || list.some((l) => !isUnknown(l) && (typeof l !== "string" || l.trim() === "" || l.length > MAX_NAME_LENGTH))) {
    c.fail(property, `${property} must be a list of non-empty strings, e.g. ["checkout", "team-a"], got ${show(value)}`);
    return;
  }
  if (!c.listLength(property, list, LIMITS.labels)) return;
  list.forEach((l, i) => typeof l === "string" && nonEmptyText(c, Array.isArray(value) ? `${property}[${i}]` : property, l, "checkout"));
}

/**
 * A flag's available values: a list of strings, numbers or booleans. The service kept `[]`, `""` among them, and a
 * value twice: accepted (a value twice with a warning: it is one value).
 */
export function checkAvailableValues(c: InputChecker, property: string, value: unknown): void {
  if (value === undefined || value === null || isUnknown(value)) return;
  if (!Array.isArray(value)) {
    c.fail(property, `${property} must be a list of the values the flag can take, e.g. ["red", "green"] (default [false, true])`);
    return;
  }
  if (!c.listLength(property, value, LIMITS.availableValues)) return;
  const seen = new Set<string>();
  value.forEach((v, i) => {
    if (isUnknown(v)) return;
    if ((typeof v !== "string" && typeof v !== "number" && typeof v !== "boolean") || (typeof v === "string" && v.length > MAX_NAME_LENGTH)) {
      c.fail(`${property}[${i}]`, `${property}[${i}] must be a string of at most ${MAX_NAME_LENGTH} characters, a number or a boolean, got ${show(v)}`);
      return;
    }
    if (seen.has(String(v))) c.warn(`${property}[${i}]`, `${property}[${i}] ${show(v)} appears twice: the service keeps both, and they are one value`);
    seen.add(String(v));
  });
}
