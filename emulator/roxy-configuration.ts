/**
 * The configuration the vendor's SDK reads, built from the feature-flag API's records of one environment: what the
 * emulator answers to `rox-node` in roxy mode (issue 16). Pure: records in, payload out.
 *
 * Every fact about the format comes from the SDK's own code, `rox-node@6.0.16` `dist/rox-node.js` (cited below as
 * "rox-node: <function>"), since the service's generator is not public:
 * - the payload is `{data, signature_v0, signed_date}` with `data` a JSON string of `{application, experiments,
 *   targetGroups}` (rox-node: ConfigurationParser.parse, _extractInnerJson); in roxy mode neither the signature nor
 *   `application` is checked (ConfigurationFetcher.verifyPayload, parsePayload with validateAppKey = !roxyUrl);
 * - an experiment needs `_id`, `name`, `featureFlags` and a non-empty `deploymentConfiguration.condition`, or it is
 *   dropped (ExperimentsParser.parse); a target group needs `_id` and `condition`, and conditions name it by `_id`
 *   (TargetGroupsParser.parse, TargetGroupRepository.targetGroupWithName, RoxxOperators.isInTargetGroup);
 * - the condition is a roxx expression (prefix notation; RoxxParser.evaluateExpression) whose result, as a string,
 *   is the flag's value; `undefined` leaves the default written in code (RoxStringNode.getActiveValue); a boolean
 *   flag is true only for `true` or "true" (RoxStringBase._normalizeBoolean), a number flag is Number(result).
 */
import { createHash } from "node:crypto";
import type { Condition, FlagOption, FlagValue, Platform, PropertyOperator, ScheduledValue, SplitValue, TargetGroup, VersionOperator } from "../provider/clients/feature-flag-types";
import { SERVICE_DEFAULTS } from "../provider/clients/feature-flag-types";
import { isBooleanFlag } from "./feature-flags";
import { ROXY_SIGNATURE } from "./undocumented-behaviour";

/** A flag configured in the environment: its app-wide definition and its configuration there. */
export interface RoxyFlag {
  name: string;
  /** Default `[false, true]`: a boolean flag. */
  availableValues?: FlagOption[];
  configuration: RoxyFlagConfiguration;
}

/** The fields of a configuration (an experiment, in the legacy API's words) that decide what the SDK delivers. */
export interface RoxyFlagConfiguration {
  /** Default true. */
  enabled?: boolean;
  value?: FlagValue;
  conditions?: Condition[];
  platforms?: Platform[];
  /** Default `rox.distinct_id`. */
  stickinessProperty?: string;
  labels?: string[] | string | null;
  /** Sent to the SDK as the experiment's `archived`; rox-node 6.0.16 reads it and evaluates the flag all the same. */
  archived?: boolean;
}

export interface RoxyEnvironment {
  /** The environment's key (its SDK key). */
  key: string;
  /** Flags without a configuration in this environment are left out by the caller. */
  flags: RoxyFlag[];
  /** The application's target groups (app-wide). */
  targetGroups: RoxyTargetGroupRecord[];
}

/** What the SDK fetches (rox-node: ConfigurationParser). */
/** What the SDK needs of a target group. */
export type RoxyTargetGroupRecord = Pick<TargetGroup, "name" | "operator" | "conditions">;

export interface RoxyPayload {
  /** JSON of RoxyData. */
  data: string;
  /** Never checked in roxy mode; the emulator cannot sign as the service does, so it is empty. */
  signature_v0: string;
  signed_date: string;
}

export interface RoxyExperiment {
  _id: string;
  name: string;
  archived: boolean;
  sticky: boolean;
  labels: string[];
  stickinessProperty: string;
  featureFlags: { name: string }[];
  deploymentConfiguration: { condition: string };
}

export interface RoxyTargetGroup {
  _id: string;
  /** For people reading the payload; the SDK reads `_id` and `condition` only. */
  name: string;
  condition: string;
}

export interface RoxyData {
  application: string;
  experiments: RoxyExperiment[];
  targetGroups: RoxyTargetGroup[];
}

export const DEFAULT_STICKINESS_PROPERTY = SERVICE_DEFAULTS.stickinessProperty;
/** The device property rox-node sets from its `version` option (rox-node: getDefaultCustomProperties). */
export const APP_RELEASE_PROPERTY = "rox.app_release";
/** The device property rox-node sets from its `platform` option, default "NodeJS" (rox-node: getDefaultCustomProperties). */
export const PLATFORM_PROPERTY = "rox.platform";
/** A Date device property, `new Date()` at each evaluation (rox-node: getDefaultCustomProperties); a test may set it. */
export const NOW_PROPERTY = "rox.now";

/** The payload the SDK fetches for one environment. `signedAt` is its `signed_date`. */
export function roxyPayload(env: RoxyEnvironment, signedAt: Date): RoxyPayload {
  return { data: JSON.stringify(roxyData(env)), signature_v0: ROXY_SIGNATURE, signed_date: signedAt.toISOString() };
}

export function roxyData(env: RoxyEnvironment): RoxyData {
  const experiments = env.flags.flatMap((flag) => {
    const condition = flagExpression(env.key, flag);
    if (condition === undefined) return [];
    const configuration = flag.configuration;
    const labels = configuration.labels;
    return [
      {
        _id: experimentId(env.key, flag.name),
        name: flag.name,
        archived: configuration.archived === true,
        sticky: false,
        labels: Array.isArray(labels) ? [...labels] : labels ? [labels] : [],
        stickinessProperty: configuration.stickinessProperty || DEFAULT_STICKINESS_PROPERTY,
        featureFlags: [{ name: flag.name }],
        deploymentConfiguration: { condition },
      },
    ];
  });
  const targetGroups = env.targetGroups.map((g) => ({ _id: targetGroupId(g.name), name: g.name, condition: targetGroupExpression(g) }));
  return { application: env.key, experiments, targetGroups };
}

/**
 * Stable ids (24 hex, as the service's object ids): an experiment keeps its id, hence its users keep their
 * percentage buckets (the id seeds them), across updates of the configuration.
 */
export function experimentId(environmentKey: string, flagName: string): string {
  return shortHash(`experiment\n${environmentKey}\n${flagName}`);
}

export function targetGroupId(name: string): string {
  return shortHash(`target-group\n${name}`);
}

function shortHash(text: string): string {
  return createHash("md5").update(text, "utf8").digest("hex").slice(0, 24);
}

// ---------------------------------------------------------------- flags

type FlagKind = "boolean" | "number" | "string";

interface FlagContext {
  kind: FlagKind;
  /** Seeds the percentage buckets: the experiment id and the stickiness property's value (rox-node: mergeSeed). */
  seed: string;
}

/**
 * A flag's whole configuration as one expression, or undefined when the SDK should not know the flag at all (a
 * disabled non-boolean flag: its default from code applies).
 */
export function flagExpression(environmentKey: string, flag: RoxyFlag): string | undefined {
  const configuration = flag.configuration;
  const kind = flagKind(flag.availableValues);
  if (configuration.enabled === false) return kind === "boolean" ? literal("false") : undefined;
  const stickiness = configuration.stickinessProperty || DEFAULT_STICKINESS_PROPERTY;
  const ctx: FlagContext = {
    kind,
    seed: `mergeSeed(${literal(experimentId(environmentKey, flag.name))}, property(${literal(stickiness)}))`,
  };
  const main = ruleChain(configuration.conditions ?? [], valueExpression(configuration.value, ctx), ctx);
  // A platform's rules replace the main ones for the SDKs that report that platform; without a value of its own,
  // what its conditions leave falls through to the main rules.
  return (configuration.platforms ?? []).reduceRight((rest, platform) => {
    const own = ruleChain(platform.conditions ?? [], platform.value === undefined ? main : valueExpression(platform.value, ctx), ctx);
    return `ifThen(eq(property(${literal(PLATFORM_PROPERTY)}), ${literal(platform.name)}), ${own}, ${rest})`;
  }, main);
}

/** Boolean unless the available values say otherwise (the API's default is `[false, true]`). */
function flagKind(availableValues: FlagOption[] | undefined): FlagKind {
  // The server's own rule (the emulator's model), so that the SDK and the API agree on what a boolean flag is.
  if (!availableValues || availableValues.length === 0 || isBooleanFlag({ availableValues })) return "boolean";
  if (availableValues.every((v) => typeof v === "number")) return "number";
  return "string";
}

/**
 * The if / else-if chain: the first condition that holds gives its value (`ifThen` is the SDK's conditional). A
 * condition without a value gives the flag's off value: the service's audit log shows one as "{ 0% => true, 100% =>
 * false }" on a boolean flag.
 */
function ruleChain(conditions: Condition[], otherwise: string, ctx: FlagContext): string {
  return conditions.reduceRight((rest, c) => `ifThen(${conditionTest(c)}, ${c.value === undefined ? remainder(ctx) : valueExpression(c.value, ctx)}, ${rest})`, otherwise);
}

/** Every clause present must hold; a condition with none (the dashboard's "All users") always holds. */
function conditionTest(c: Condition): string {
  const clauses: string[] = [];
  if (c.dependency) clauses.push(`eq(flagValue(${literal(c.dependency.flag)}), ${literal(optionText(c.dependency.value))})`);
  if (c.group) {
    const names = Array.isArray(c.group.name) ? c.group.name : [c.group.name];
    // An unknown group matches nobody (rox-node: isInTargetGroup of an unknown id is false).
    const members = names.map((n) => `isInTargetGroup(${literal(targetGroupId(n))})`);
    const operator = c.group.operator ?? SERVICE_DEFAULTS.groupOperator;
    if (operator === "and") clauses.push(fold("and", members, "true"));
    // `nor` is how the service writes "matches none of"; the docs call it `not`.
    else if (operator === "not" || operator === "nor") clauses.push(`not(${fold("or", members, "false")})`);
    else clauses.push(fold("or", members, "false"));
  }
  if (c.version) {
    // A null semver ("Version >= null" in the service's audit log) is undefined to the SDK: no release compares.
    const semver = c.version.semver === null ? "undefined" : literal(c.version.semver);
    clauses.push(`${SEMVER_FUNCTIONS[c.version.operator]}(property(${literal(APP_RELEASE_PROPERTY)}), ${semver})`);
  }
  if (c.property) clauses.push(propertyTest(c.property.name, c.property.operator, c.property.operand));
  return fold("and", clauses, "true");
}

/**
 * A value in any of its forms. Values are string literals whatever the flag's type: the SDK turns the result into a
 * string anyway, and `flagValue` (dependencies) then compares strings with strings (rox-node: flagValue, eq).
 */
function valueExpression(value: FlagValue | undefined, ctx: FlagContext): string {
  if (value === undefined || value === null) return "undefined";
  if (!Array.isArray(value)) return literal(optionText(value));
  if (value.length === 0) return "undefined";
  if (value.every((v) => typeof (v as ScheduledValue).from === "string")) return scheduleExpression(value as ScheduledValue[], ctx);
  return splitExpression(value as SplitValue[], ctx);
}

/** Booleans as "true" / "false", the strings a boolean flag reads (rox-node: RoxStringBase._normalizeBoolean). */
function optionText(option: FlagOption): string {
  return String(option);
}

/** What users outside every share get: false for a boolean flag, else the default from code. */
function remainder(ctx: FlagContext): string {
  return ctx.kind === "boolean" ? literal("false") : "undefined";
}

/**
 * `[{option, percentage}]`: consecutive ranges of the user's bucket, in the order given (rox-node:
 * isInPercentageRange(low, high, seed) is low <= bucket <= high, the bucket being md5(seed) scaled to 0..1). An
 * entry without `option` (the service kept `[{percentage: 52}]`) gives its share no value: the code's default.
 */
function splitExpression(split: SplitValue[], ctx: FlagContext): string {
  const ranges: { low: number; high: number; option: FlagOption | undefined }[] = [];
  let from = 0;
  for (const share of split) {
    const percentage = share.percentage ?? 100;
    if (percentage <= 0) continue;
    const to = Math.min(100, from + percentage);
    ranges.push({ low: from / 100, high: to / 100, option: share.option });
    from = to;
  }
  return ranges.reduceRight(
    (rest, r) => `ifThen(isInPercentageRange(${number(r.low)}, ${number(r.high)}, ${ctx.seed}), ${r.option === undefined ? "undefined" : literal(optionText(r.option))}, ${rest})`,
    remainder(ctx),
  );
}

/**
 * `[{from, percentage, option}]` (boolean flags): the latest entry whose date has passed gives `percentage` % of
 * users `option` (true when absent; every schedule the service wrote has `option: true`), the others false; before
 * the first date, false. The time is the SDK's `rox.now` device property (rox-node: tsToNum gives seconds). An entry
 * whose date does not parse never applies.
 */
function scheduleExpression(schedule: ScheduledValue[], ctx: FlagContext): string {
  const entries = schedule
    .map((s) => ({ at: Date.parse(s.from), percentage: s.percentage ?? 100, option: s.option ?? true }))
    .filter((s) => Number.isFinite(s.at))
    .sort((a, b) => a.at - b.at);
  const now = `tsToNum(property(${literal(NOW_PROPERTY)}))`;
  return entries.reduce(
    (before, s) => `ifThen(gte(${now}, ${number(s.at / 1000)}), ${percentageExpression(s.percentage, literal(optionText(s.option)), ctx)}, ${before})`,
    literal("false"),
  );
}

/** rox-node: isInPercentage(p, seed) is bucket <= p; 0 and 100 are written out so no bucket edge case decides them. */
function percentageExpression(percentage: number, option: string, ctx: FlagContext): string {
  if (percentage >= 100) return option;
  if (percentage <= 0) return literal("false");
  return `ifThen(isInPercentage(${number(percentage / 100)}, ${ctx.seed}), ${option}, ${literal("false")})`;
}

// ---------------------------------------------------------------- target groups and property tests

/**
 * A target group's conditions under its operator (default `and`); no condition (an empty list, null or none, as the
 * service kept some): everyone for `and`, no one for `or`.
 */
export function targetGroupExpression(group: RoxyTargetGroupRecord): string {
  const tests = (group.conditions ?? []).map((c) => propertyTest(c.property, c.operator, c.operand));
  return (group.operator ?? "and") === "or" ? fold("or", tests, "false") : fold("and", tests, "true");
}

const SEMVER_FUNCTIONS: Record<VersionOperator, string> = {
  "semver-eq": "semverEq",
  "semver-ne": "semverNe",
  "semver-gt": "semverGt",
  "semver-gte": "semverGte",
  "semver-lt": "semverLt",
  "semver-lte": "semverLte",
};

const NUMBER_FUNCTIONS = { gt: "gt", gte: "gte", lt: "lt", lte: "lte" } as const;

/**
 * `property operator operand` (a target group's condition, a condition's `property` clause), with the SDK's own
 * operators (rox-node: RoxxOperators). Semantics that follow from them: `is-false` and `eq`/`ne` treat a missing
 * property as false (rox-node: eq, ne); numeric comparisons are false for a missing or non-numeric property (lt, gt...).
 */
export function propertyTest(name: string, operator: PropertyOperator, operand: string | number | string[] | undefined): string {
  const p = `property(${literal(name)})`;
  switch (operator) {
    case "is-undefined":
      return `isUndefined(${p})`;
    case "is-true":
      return `eq(${p}, true)`;
    case "is-false":
      return `eq(${p}, false)`;
    case "eq":
      return typeof operand === "number" ? `numeq(${p}, ${number(operand)})` : `eq(${p}, ${literal(scalar(operand))})`;
    case "ne":
      return typeof operand === "number" ? `numne(${p}, ${number(operand)})` : `ne(${p}, ${literal(scalar(operand))})`;
    case "gt":
    case "gte":
    case "lt":
    case "lte":
      return `${NUMBER_FUNCTIONS[operator]}(${p}, ${typeof operand === "number" ? number(operand) : literal(scalar(operand))})`;
    case "in-array": {
      const list = Array.isArray(operand) ? operand : operand === undefined ? [] : [String(operand)];
      // An array literal cannot carry b64d (the tokenizer takes its items verbatim): such lists become eq chains.
      if (list.every(isPlainText)) return `inArray(${p}, [${list.map((s) => `"${s}"`).join(", ")}])`;
      return fold(
        "or",
        list.map((s) => `eq(${p}, ${literal(s)})`),
        "false",
      );
    }
    case "regex":
      // A missing property matches no regex (RegExp.exec would test the text "undefined"). Flags "": as written. A
      // pattern JavaScript cannot compile goes as given: rox-node's `match` then throws, and evaluateExpression logs
      // "Uh oh! An error occurred during Roxx evaluation" and answers false for the whole expression it evaluates.
      return `and(not(isUndefined(${p})), match(${p}, ${literal(scalar(operand))}, ""))`;
    default:
      return `${SEMVER_FUNCTIONS[operator]}(${p}, ${literal(scalar(operand))})`;
  }
}

function scalar(operand: string | number | string[] | undefined): string {
  if (Array.isArray(operand)) return operand[0] ?? "";
  return operand === undefined ? "" : String(operand);
}

// ---------------------------------------------------------------- roxx literals

/** `op(a, op(b, c))`: the SDK's and/or take two operands (rox-node: and, or). */
function fold(op: "and" | "or", items: string[], empty: string): string {
  if (items.length === 0) return empty;
  return items.reduceRight((rest, item) => `${op}(${item}, ${rest})`);
}

/**
 * A string as roxx reads it. Inside quotes the tokenizer stops only at `"`, and it mangles `\"` (rox-node:
 * RoxxTokenizer.tokenize replaces the first `\"` only and keeps its backslash), so text with `"` or `\` travels
 * base64-encoded through the SDK's `b64d` (which decodes base64, then decodeURIComponent).
 */
export function literal(text: string): string {
  if (isPlainText(text)) return `"${text}"`;
  return `b64d("${Buffer.from(encodeURIComponent(text), "utf8").toString("base64")}")`;
}

function isPlainText(text: string): boolean {
  return !/["\\]/.test(text);
}

/** Numbers as the tokenizer reads them (`+token`). */
function number(n: number): string {
  return String(n);
}
