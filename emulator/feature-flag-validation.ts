import { GROUP_OPERATORS, OPERATORS_WITHOUT_OPERAND, SERVICE_DEFAULTS, PROPERTY_OPERATORS, TARGET_GROUP_OPERATORS, VERSION_OPERATORS, type Condition, type FlagOption, type FlagValue, type Platform, type PropertyOperator, type TargetGroupCondition } from "../provider/clients/feature-flag-types";
import { defaultValueOf, isBooleanFlag, type FlagConfiguration, type FlagRecord, type TargetGroupRecord } from "./feature-flags";
import {
  FM_DEFAULT_AVAILABLE_VALUES,
  FM_DEFAULT_STICKINESS_PROPERTY,
  FM_LIMITS,
  FM_PERCENTAGE_DEFAULT,
  isVersionText,
} from "./undocumented-behaviour";
import { reading } from "./readings";
import { illFormedReason } from "./well-formed";
import { controlCharacterReason } from "./name-characters";

/**
 * Reads the request bodies of the feature-flag endpoints as a careful server would: every field's type, every value
 * against the flag's available values, every operator and operand, every name a condition refers to. A refusal is a
 * FlagApiError whose message starts with the field it is about (`conditions[1].group.name: ...`).
 */

export class FlagApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function fail(field: string, reason: string): never {
  throw new FlagApiError(400, `${field}: ${reason}`);
}

type Json = Record<string, unknown>;

export function parseJson(body: Buffer): unknown {
  let value: unknown;
  try {
    value = JSON.parse(body.toString("utf8"));
  } catch {
    throw new FlagApiError(400, "body: not JSON");
  }
  const illFormed = illFormedReason(value);
  if (illFormed) throw new FlagApiError(400, illFormed);
  return value;
}

/** The body as an object with only `allowed` keys. */
export function readObject(value: unknown, field: string, allowed: readonly string[]): Json {
  if (typeof value !== "object" || value === null || Array.isArray(value)) fail(field, "must be a JSON object");
  const unknown = Object.keys(value).find((k) => !allowed.includes(k));
  if (reading("unknownFields") === "refused" && unknown !== undefined) fail(field === "body" ? unknown : `${field}.${unknown}`, `unknown field (allowed: ${allowed.join(", ")})`);
  return value as Json;
}

export function readName(value: unknown, field: string): string {
  if (typeof value !== "string" || value.trim() === "") fail(field, "must be a non-empty string");
  if (value.length > FM_LIMITS.nameLength) fail(field, `longer than ${FM_LIMITS.nameLength} characters`);
  if (value === "." || value === "..") fail(field, `"${value}" cannot be carried in a path`);
  const control = controlCharacterReason(value);
  if (control) fail(field, control);
  return value;
}

function readText(value: unknown, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string") fail(field, "must be a string");
  if (value.length > FM_LIMITS.descriptionLength) fail(field, `longer than ${FM_LIMITS.descriptionLength} characters`);
  return value;
}

function readBoolean(value: unknown, field: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "boolean") fail(field, "must be true or false");
  return value;
}

function readArray(value: unknown, field: string, max: number): unknown[] {
  if (!Array.isArray(value)) fail(field, "must be an array");
  if (value.length > max) fail(field, `more than ${max} entries`);
  return value;
}

// ------------------------------------------------------------------ environments

export function readEnvironmentRequest(body: unknown): { name: string; description?: string } {
  const o = readObject(body, "body", ["name", "description"]);
  return { name: readName(o.name, "name"), description: readText(o.description, "description") };
}

// ------------------------------------------------------------------ flags

export function readAvailableValues(value: unknown, field: string): FlagOption[] {
  if (value === undefined) return [...FM_DEFAULT_AVAILABLE_VALUES];
  const values = readArray(value, field, FM_LIMITS.availableValues);
  if (values.length === 0) fail(field, "must offer at least one value");
  values.forEach((v, i) => {
    if (typeof v !== "string" && typeof v !== "boolean" && (typeof v !== "number" || !Number.isFinite(v))) {
      fail(`${field}[${i}]`, "must be a string, a number or a boolean");
    }
  });
  const texts = values.map(String);
  const twice = texts.find((t, i) => texts.indexOf(t) !== i);
  if (twice !== undefined) fail(field, `"${twice}" is offered twice`);
  const options = values as FlagOption[];
  if (options.some((v) => typeof v === "boolean") && !isBooleanFlag({ availableValues: options })) {
    fail(field, "a boolean flag offers exactly [false, true]; other flags offer strings or numbers");
  }
  return options;
}

/** Same values, in any order (available values are a set). */
export function sameValues(a: readonly FlagOption[], b: readonly FlagOption[]): boolean {
  return a.length === b.length && a.every((v) => b.some((w) => w === v));
}

export const CONFIGURATION_FIELDS = ["description", "enabled", "labels", "stickinessProperty", "platforms", "conditions", "value"] as const;

/** F4's Flag Request; F3 takes it too (the reading createFlagBody). */
export const FLAG_REQUEST_FIELDS = ["name", "availableValues", "isPermanent", ...CONFIGURATION_FIELDS];

/** F3: the flag to create; `availableValues` undefined when the body leaves them out (the default applies to a new flag only). */
export function readFlagCreate(body: unknown): { name: string; availableValues?: FlagOption[]; isPermanent: boolean } {
  const o = readObject(body, "body", reading("createFlagBody") === "flag-request" ? FLAG_REQUEST_FIELDS : ["name", "availableValues", "isPermanent"]);
  return {
    name: readName(o.name, "name"),
    availableValues: o.availableValues === undefined ? undefined : readAvailableValues(o.availableValues, "availableValues"),
    isPermanent: readBoolean(o.isPermanent, "isPermanent") ?? false,
  };
}

/** What a configuration is checked against: its flag, the application's other flags and target groups. */
export interface ConfigurationContext {
  flag: FlagRecord;
  otherFlag(name: string): FlagRecord | undefined;
  hasTargetGroup(name: string): boolean;
}

/** A configuration's fields (F4's Flag Request or X3's Experiment), defaults filled in, values in the flag's own type. */
export function readConfiguration(o: Json, ctx: ConfigurationContext): FlagConfiguration {
  return {
    description: readText(o.description, "description") ?? "",
    enabled: readBoolean(o.enabled, "enabled") ?? true,
    labels: readLabels(o.labels),
    stickinessProperty: readStickiness(o.stickinessProperty),
    platforms: readPlatforms(o.platforms, ctx),
    conditions: readConditions(o.conditions, "conditions", ctx),
    value: o.value === undefined ? defaultValueOf(ctx.flag) : readValue(o.value, "value", ctx.flag),
  };
}

function readLabels(value: unknown): string[] {
  if (value === undefined) return [];
  const labels = typeof value === "string" ? [value] : readArray(value, "labels", FM_LIMITS.labels);
  labels.forEach((l, i) => {
    if (typeof l !== "string" || l === "") fail(`labels[${i}]`, "must be a non-empty string");
    const control = controlCharacterReason(l);
    if (control) fail(`labels[${i}]`, control);
  });
  return labels as string[];
}

function readStickiness(value: unknown): string {
  if (value === undefined) return FM_DEFAULT_STICKINESS_PROPERTY;
  if (typeof value !== "string" || value.trim() === "") fail("stickinessProperty", "must be a non-empty string (a custom property's name)");
  return value;
}

function readPlatforms(value: unknown, ctx: ConfigurationContext): Platform[] {
  if (value === undefined) return [];
  const seen = new Set<string>();
  return readArray(value, "platforms", FM_LIMITS.platforms).map((p, i) => {
    const field = `platforms[${i}]`;
    const o = readObject(p, field, ["name", "flag", "conditions", "value"]);
    const name = readName(o.name, `${field}.name`);
    if (seen.has(name)) fail(`${field}.name`, `platform "${name}" is configured twice`);
    seen.add(name);
    const platform: Platform = {
      name,
      conditions: readConditions(o.conditions, `${field}.conditions`, ctx),
      value: o.value === undefined ? defaultValueOf(ctx.flag) : readValue(o.value, `${field}.value`, ctx.flag),
    };
    if (o.flag !== undefined) platform.flag = readName(o.flag, `${field}.flag`);
    return platform;
  });
}

/** A plain option of the flag, in the flag's own type (`"true"` on a boolean flag is `true`). */
function readOption(value: unknown, field: string, flag: FlagRecord): FlagOption {
  if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
    fail(field, "must be one of the flag's available values");
  }
  const match = flag.availableValues.find((v) => String(v) === String(value));
  if (match === undefined) {
    fail(field, `${JSON.stringify(value)} is not one of the available values of flag "${flag.name}" (${JSON.stringify(flag.availableValues)})`);
  }
  return reading("valueTypes") === "flag-type" ? match : value;
}

function readPercentage(value: unknown, field: string): number {
  if (value === undefined) return FM_PERCENTAGE_DEFAULT;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > 100) fail(field, "must be a number from 0 to 100");
  return value;
}

/** A value: a plain option, null, a percentage split `[{option, percentage}]` or a schedule `[{from, percentage}]`. */
export function readValue(value: unknown, field: string, flag: FlagRecord): FlagValue {
  if (value === null) return null;
  if (!Array.isArray(value)) return readOption(value, field, flag);
  if (value.length > FM_LIMITS.valueParts) fail(field, `more than ${FM_LIMITS.valueParts} entries`);
  const scheduled = value.length > 0 && value.every((v) => typeof v === "object" && v !== null && "from" in v);
  if (scheduled) {
    if (!isBooleanFlag(flag)) fail(field, `scheduled values ([{from, percentage}]) are for boolean flags only, and flag "${flag.name}" is not boolean`);
    return value.map((v, i) => {
      const o = readObject(v, `${field}[${i}]`, ["from", "percentage"]);
      if (typeof o.from !== "string" || Number.isNaN(Date.parse(o.from))) fail(`${field}[${i}].from`, "must be an ISO-8601 date");
      return { from: o.from, percentage: readPercentage(o.percentage, `${field}[${i}].percentage`) };
    });
  }
  const split = value.map((v, i) => {
    const o = readObject(v, `${field}[${i}]`, ["option", "percentage"]);
    if (o.option === undefined) fail(`${field}[${i}]`, "a split entry is {option, percentage}, a schedule entry {from, percentage}");
    return { option: readOption(o.option, `${field}[${i}].option`, flag), percentage: readPercentage(o.percentage, `${field}[${i}].percentage`) };
  });
  const twice = split.find((s, i) => split.findIndex((t) => t.option === s.option) !== i);
  if (twice) fail(field, `option ${JSON.stringify(twice.option)} appears twice in the split`);
  const total = split.reduce((sum, s) => sum + s.percentage, 0);
  if (total > 100) fail(field, `the split's percentages sum to ${total}, over 100`);
  return split;
}

function readConditions(value: unknown, field: string, ctx: ConfigurationContext): Condition[] {
  if (value === undefined) return [];
  return readArray(value, field, FM_LIMITS.conditions).map((c, i) => readCondition(c, `${field}[${i}]`, ctx));
}

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
    condition.dependency = { flag: name, value: readOption(d.value, `${field}.dependency.value`, other) };
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
    if (typeof v.semver !== "string" || !isVersionText(v.semver)) fail(`${field}.version.semver`, `${JSON.stringify(v.semver)} is not a version (e.g. "2.1.0")`);
    condition.version = { operator, semver: v.semver };
  }
  if (o.property !== undefined) {
    const p = readObject(o.property, `${field}.property`, ["name", "operator", "operand"]);
    const { operator, operand } = readOperatorAndOperand(p.operator, p.operand, `${field}.property`);
    condition.property = { name: readName(p.name, `${field}.property.name`), operator, ...(operand === undefined ? {} : { operand }) };
  }
  if (reading("conditionWithoutClause") === "refused") {
    if (Object.keys(condition).length === 0) fail(field, "a condition needs at least one clause: dependency, group, version or property");
    if (o.value === undefined) fail(`${field}.value`, "is required: the value delivered when the condition holds");
  }
  condition.value = o.value === undefined ? defaultValueOf(ctx.flag) : readValue(o.value, `${field}.value`, ctx.flag);
  return condition;
}

function readEnum<T extends string>(value: unknown, field: string, allowed: readonly T[]): T {
  if (typeof value !== "string" || !(allowed as readonly string[]).includes(value)) {
    fail(field, `${JSON.stringify(value)} is not an operator (one of ${allowed.join(", ")})`);
  }
  return value as T;
}

/** The operator and its operand, for a target group's condition or a condition's `property` clause. */
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
  if (operator === "regex") {
    try {
      new RegExp(String(operand));
    } catch (e) {
      fail(at, `the regular expression does not compile: ${(e as Error).message}`);
    }
  }
  if (operator.startsWith("semver-") && !isVersionText(String(operand))) fail(at, `${JSON.stringify(operand)} is not a version (e.g. "2.1.0")`);
  return { operator, operand };
}

// ------------------------------------------------------------------ target groups

export function readTargetGroup(body: unknown): TargetGroupRecord {
  const o = readObject(body, "body", ["version", "type", "name", "description", "operator", "conditions"]);
  if (o.type !== undefined && o.type !== "target-group") fail("type", 'must be "target-group"');
  if (o.version !== undefined && typeof o.version !== "string") fail("version", "must be a string");
  const conditions: TargetGroupCondition[] = readArray(o.conditions, "conditions", FM_LIMITS.conditions).map((c, i) => {
    const field = `conditions[${i}]`;
    const r = readObject(c, field, ["property", "operator", "operand"]);
    const { operator, operand } = readOperatorAndOperand(r.operator, r.operand, field);
    return { property: readName(r.property, `${field}.property`), operator, ...(operand === undefined ? {} : { operand }) };
  });
  return {
    name: readName(o.name, "name"),
    description: readText(o.description, "description") ?? "",
    operator: readEnum(o.operator ?? SERVICE_DEFAULTS.targetGroupOperator, "operator", TARGET_GROUP_OPERATORS),
    conditions,
  };
}
