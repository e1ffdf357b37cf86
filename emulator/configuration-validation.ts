import { GROUP_OPERATORS, OPERATORS_WITHOUT_OPERAND, PROPERTY_OPERATORS, SERVICE_DEFAULTS, TARGET_GROUP_OPERATORS, VERSION_OPERATORS, type Condition, type FlagOption, type FlagValue, type Platform, type PropertyOperator, type TargetGroupCondition } from "../provider/clients/feature-flag-types";
import { defaultValueOf, isBooleanFlag, type FlagConfiguration, type FlagRecord, type TargetGroupRecord } from "./feature-flags";
import { fail, readArray, readBoolean, readName, readObject, readText, type Json } from "./feature-flag-validation";
import { FM_DEFAULT_STICKINESS_PROPERTY, FM_LIMITS, FM_PERCENTAGE_DEFAULT, isVersionText } from "./undocumented-behaviour";
import { reading } from "./readings";
import { controlCharacterReason } from "./name-characters";

/**
 * The checks of a flag's configuration (F4's Flag Request, X3's Experiment) and of a target group (T2), as the real
 * service draws the line: every form it wrote itself is accepted and kept as written (rollout/sound-redux-cac, the
 * corpus of test/fixtures/real-experiments): schedules `[{from, percentage, option}]`, conditions without a clause
 * or without a value, the group operator `nor`, split entries without `option`, a version clause whose `semver` is
 * null or not a version, a string flag's value outside its available values, regular expressions JavaScript cannot
 * compile, target groups without conditions, `archived`. What no source shows it accepting is refused, naming the
 * field (`conditions[1].group.name: ...`).
 */

/** What a configuration is checked against: its flag, the application's other flags and target groups. */
export interface ConfigurationContext {
  flag: FlagRecord;
  otherFlag(name: string): FlagRecord | undefined;
  hasTargetGroup(name: string): boolean;
}

/** A configuration's fields (F4's Flag Request or X3's Experiment), defaults filled in, values in the flag's own type. */
export function readConfiguration(o: Json, ctx: ConfigurationContext): FlagConfiguration {
  const configuration: FlagConfiguration = {
    description: readText(o.description, "description") ?? "",
    enabled: readBoolean(o.enabled, "enabled") ?? true,
    labels: readLabels(o.labels),
    stickinessProperty: readStickiness(o.stickinessProperty),
    platforms: readPlatforms(o.platforms, ctx),
    conditions: readConditions(o.conditions, "conditions", ctx),
    value: o.value === undefined ? defaultValueOf(ctx.flag) : readValue(o.value, "value", ctx.flag),
  };
  const archived = readBoolean(o.archived, "archived");
  if (archived !== undefined) configuration.archived = archived;
  return configuration;
}

/** A list, or one label as text (the service wrote both): kept in the form given. */
function readLabels(value: unknown): string[] | string {
  if (value === undefined || value === null) return [];
  const labels = typeof value === "string" ? [value] : readArray(value, "labels", FM_LIMITS.labels);
  labels.forEach((l, i) => {
    const field = typeof value === "string" ? "labels" : `labels[${i}]`;
    if (typeof l !== "string" || l === "") fail(field, "must be a non-empty string");
    const control = controlCharacterReason(l);
    if (control) fail(field, control);
  });
  return typeof value === "string" ? value : (labels as string[]);
}

function readStickiness(value: unknown): string {
  if (value === undefined) return FM_DEFAULT_STICKINESS_PROPERTY;
  if (typeof value !== "string" || value.trim() === "") fail("stickinessProperty", "must be a non-empty string (a custom property's name)");
  return value;
}

/** Platforms; one without a value keeps none (its conditions then fall through to the default platform's rules). */
function readPlatforms(value: unknown, ctx: ConfigurationContext): Platform[] {
  if (value === undefined || value === null) return [];
  const seen = new Set<string>();
  return readArray(value, "platforms", FM_LIMITS.platforms).map((p, i) => {
    const field = `platforms[${i}]`;
    const o = readObject(p, field, ["name", "flag", "conditions", "value"]);
    const name = readName(o.name, `${field}.name`);
    if (seen.has(name)) fail(`${field}.name`, `platform "${name}" is configured twice`);
    seen.add(name);
    const platform: Platform = { name, conditions: readConditions(o.conditions, `${field}.conditions`, ctx) };
    if (o.value !== undefined) platform.value = readValue(o.value, `${field}.value`, ctx.flag);
    if (o.flag !== undefined) platform.flag = readName(o.flag, `${field}.flag`);
    return platform;
  });
}

/**
 * A value of the flag. A boolean flag's is true or false (`"true"` is true). A string or number flag's is matched
 * to its available values by text and stored in their type (the reading valueTypes); a text among none of them is
 * kept as given: the service kept such values (`value: '10'` on a flag offering three words).
 */
function readOption(value: unknown, field: string, flag: FlagRecord): FlagOption {
  const boolean = isBooleanFlag(flag);
  if (typeof value !== "string" && (typeof value !== "number" || !Number.isFinite(value)) && (typeof value !== "boolean" || !boolean)) {
    fail(field, boolean ? "must be true or false (the flag is boolean)" : `must be a string or a number (flag "${flag.name}" offers ${JSON.stringify(flag.availableValues)})`);
  }
  if (typeof value === "string" && value.length > FM_LIMITS.nameLength) fail(field, `longer than ${FM_LIMITS.nameLength} characters`);
  const match = flag.availableValues.find((v) => String(v) === String(value));
  if (match === undefined && boolean) {
    fail(field, `${JSON.stringify(value)} is not one of the available values of flag "${flag.name}" (${JSON.stringify(flag.availableValues)})`);
  }
  return match !== undefined && reading("valueTypes") === "flag-type" ? match : (value as FlagOption);
}

function readPercentage(value: unknown, field: string): number {
  if (value === undefined) return FM_PERCENTAGE_DEFAULT;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > 100) fail(field, "must be a number from 0 to 100");
  return value;
}

/**
 * A value: a plain option, null, a percentage split `[{option, percentage}]` (an entry without `option` is kept:
 * the service wrote `[{percentage: 52}]`) or a schedule `[{from, percentage, option}]` (every entry with `from`).
 */
export function readValue(value: unknown, field: string, flag: FlagRecord): FlagValue {
  if (value === null) return null;
  if (!Array.isArray(value)) return readOption(value, field, flag);
  if (value.length > FM_LIMITS.valueParts) fail(field, `more than ${FM_LIMITS.valueParts} entries`);
  const scheduled = value.length > 0 && value.every((v) => typeof v === "object" && v !== null && "from" in v);
  if (scheduled) {
    if (!isBooleanFlag(flag)) fail(field, `scheduled values ([{from, percentage, option}]) are for boolean flags only, and flag "${flag.name}" is not boolean`);
    return value.map((v, i) => {
      const o = readObject(v, `${field}[${i}]`, ["from", "percentage", "option"]);
      if (typeof o.from !== "string" || Number.isNaN(Date.parse(o.from))) fail(`${field}[${i}].from`, "must be an ISO-8601 date");
      const entry = { from: o.from, percentage: readPercentage(o.percentage, `${field}[${i}].percentage`) };
      return o.option === undefined ? entry : { ...entry, option: readOption(o.option, `${field}[${i}].option`, flag) };
    });
  }
  const split = value.map((v, i) => {
    const o = readObject(v, `${field}[${i}]`, ["option", "percentage"]);
    const percentage = readPercentage(o.percentage, `${field}[${i}].percentage`);
    return o.option === undefined ? { percentage } : { option: readOption(o.option, `${field}[${i}].option`, flag), percentage };
  });
  const options = split.filter((s) => "option" in s).map((s) => s.option);
  const twice = options.find((o, i) => options.indexOf(o) !== i);
  if (twice !== undefined) fail(field, `option ${JSON.stringify(twice)} appears twice in the split`);
  const total = split.reduce((sum, s) => sum + s.percentage, 0);
  if (total > 100) fail(field, `the split's percentages sum to ${total}, over 100`);
  return split;
}

function readConditions(value: unknown, field: string, ctx: ConfigurationContext): Condition[] {
  if (value === undefined || value === null) return [];
  return readArray(value, field, FM_LIMITS.conditions).map((c, i) => readCondition(c, `${field}[${i}]`, ctx));
}

/** A condition as given: no clause always holds ("All users", `{}`); no `value` stays so (the flag's default). */
function readCondition(value: unknown, field: string, ctx: ConfigurationContext): Condition {
  const o = readObject(value, field, ["dependency", "group", "version", "property", "value"]);
  const condition: Condition = {};
  if (o.dependency !== undefined) {
    const d = readObject(o.dependency, `${field}.dependency`, ["flag", "value"]);
    const name = readName(d.flag, `${field}.dependency.flag`);
    if (name === ctx.flag.name) fail(`${field}.dependency.flag`, "a flag cannot depend on itself");
    const other = ctx.otherFlag(name);
    if (!other) fail(`${field}.dependency.flag`, `no flag named "${name}" in this application: create it first`);
    if (d.value === undefined) fail(`${field}.dependency.value`, "is required");
    readOption(d.value, `${field}.dependency.value`, other);
    // Kept as sent: the service writes a dependency's value as text, "true" for a boolean flag.
    condition.dependency = { flag: name, value: d.value as FlagOption };
  }
  if (o.group !== undefined) {
    const g = readObject(o.group, `${field}.group`, ["operator", "name"]);
    const operator = readEnum(g.operator ?? SERVICE_DEFAULTS.groupOperator, `${field}.group.operator`, GROUP_OPERATORS);
    const names = typeof g.name === "string" ? [g.name] : readArray(g.name, `${field}.group.name`, FM_LIMITS.groupNames);
    if (names.length === 0) fail(`${field}.group.name`, "name at least one target group");
    names.forEach((n, j) => {
      const name = readName(n, typeof g.name === "string" ? `${field}.group.name` : `${field}.group.name[${j}]`);
      if (!ctx.hasTargetGroup(name)) fail(`${field}.group.name`, `no target group named "${name}" in this application: create it first`);
    });
    condition.group = { operator, name: g.name as string | string[] };
  }
  if (o.version !== undefined) {
    const v = readObject(o.version, `${field}.version`, ["operator", "semver"]);
    const operator = readEnum(v.operator, `${field}.version.operator`, VERSION_OPERATORS);
    // The service kept null ("Version >= null") and texts that are not versions ("1,2,0"): no release matches them.
    if (v.semver !== null && typeof v.semver !== "string") fail(`${field}.version.semver`, `${JSON.stringify(v.semver)} is not a version (e.g. "2.1.0")`);
    if (typeof v.semver === "string" && v.semver.length > FM_LIMITS.nameLength) fail(`${field}.version.semver`, `longer than ${FM_LIMITS.nameLength} characters`);
    condition.version = { operator, semver: v.semver as string | null };
  }
  if (o.property !== undefined) {
    const p = readObject(o.property, `${field}.property`, ["name", "operator", "operand"]);
    const { operator, operand } = readOperatorAndOperand(p.operator, p.operand, `${field}.property`);
    condition.property = { name: readName(p.name, `${field}.property.name`), operator, ...(operand === undefined ? {} : { operand }) };
  }
  if (o.value !== undefined) condition.value = readValue(o.value, `${field}.value`, ctx.flag);
  return condition;
}

function readEnum<T extends string>(value: unknown, field: string, allowed: readonly T[]): T {
  if (typeof value !== "string" || !(allowed as readonly string[]).includes(value)) {
    fail(field, `${JSON.stringify(value)} is not an operator (one of ${allowed.join(", ")})`);
  }
  return value as T;
}

/**
 * The operator and its operand, for a target group's condition or a condition's `property` clause. A regex is kept
 * as given, compiling or not: the service stored `*@cloudbees.com` (rox-node then fails to evaluate it, and what it
 * decides counts as false).
 */
function readOperatorAndOperand(operatorValue: unknown, operand: unknown, field: string): { operator: PropertyOperator; operand?: string | number | string[] } {
  const operator = readEnum(operatorValue, `${field}.operator`, PROPERTY_OPERATORS);
  const at = `${field}.operand`;
  if (OPERATORS_WITHOUT_OPERAND.includes(operator)) {
    if (operand !== undefined) fail(at, `operator "${operator}" takes no operand`);
    return { operator };
  }
  if (operand === undefined) fail(at, `operator "${operator}" needs an operand`);
  if (operator === "in-array") {
    const items = readArray(operand, at, FM_LIMITS.operandItems);
    items.forEach((s, i) => {
      if (typeof s !== "string") fail(`${at}[${i}]`, "must be a string");
    });
    return { operator, operand: items as string[] };
  }
  if (typeof operand !== "string" && (typeof operand !== "number" || !Number.isFinite(operand))) {
    fail(at, `operator "${operator}" takes a string or a number`);
  }
  if (typeof operand === "string" && operand.length > FM_LIMITS.descriptionLength) fail(at, `longer than ${FM_LIMITS.descriptionLength} characters`);
  if (operator.startsWith("semver-") && !isVersionText(String(operand))) fail(at, `${JSON.stringify(operand)} is not a version (e.g. "2.1.0")`);
  return { operator, operand };
}

/** T2: a target group; `conditions` null or left out (the service kept such groups) is stored as given. */
export function readTargetGroup(body: unknown): TargetGroupRecord {
  const o = readObject(body, "body", ["version", "type", "name", "description", "operator", "conditions"]);
  if (o.type !== undefined && o.type !== "target-group") fail("type", 'must be "target-group"');
  if (o.version !== undefined && typeof o.version !== "string") fail("version", "must be a string");
  const group: TargetGroupRecord = {
    name: readName(o.name, "name"),
    description: readText(o.description, "description") ?? "",
    operator: readEnum(o.operator ?? SERVICE_DEFAULTS.targetGroupOperator, "operator", TARGET_GROUP_OPERATORS),
  };
  if (o.conditions === null) group.conditions = null;
  else if (o.conditions !== undefined) {
    group.conditions = readArray(o.conditions, "conditions", FM_LIMITS.conditions).map((c, i): TargetGroupCondition => {
      const field = `conditions[${i}]`;
      const r = readObject(c, field, ["property", "operator", "operand"]);
      const { operator, operand } = readOperatorAndOperand(r.operator, r.operand, field);
      return { property: readName(r.property, `${field}.property`), operator, ...(operand === undefined ? {} : { operand }) };
    });
  }
  return group;
}
