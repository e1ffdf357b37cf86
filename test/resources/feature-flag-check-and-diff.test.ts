import { resources } from "../../provider/resources";
import { UNKNOWN } from "../../provider/resources/shared/values";
import { InputChecker } from "../../provider/resources/shared/check";
import { checkConditions, checkValue } from "../../provider/resources/feature-flags/rules";

// The offline half of the feature-flag controllers (check and diff need no server): every rule of issue 15's item 5
// names its input; diffs compare what a person means (item 4).
const { environment: env, flag, flagConfiguration: fc, targetGroup: tg } = resources;

const APP = "5f1e2d3c4b5a69788796a5b4";
const base = { applicationId: APP, environment: "Production", flag: "checkout.newFlow" };

async function failures(controller: typeof fc, news: Record<string, unknown>) {
  return (await controller.check({}, news)).failures;
}

describe("check lets values not known yet through", () => {
  it.each([
    ["Environment", env, { applicationId: UNKNOWN, name: UNKNOWN, description: UNKNOWN }],
    ["Flag", flag, { applicationId: UNKNOWN, name: UNKNOWN, availableValues: UNKNOWN, isPermanent: UNKNOWN }],
    ["Flag, an unknown value in the list", flag, { applicationId: APP, name: "f", availableValues: ["a", UNKNOWN] }],
    ["FlagConfiguration", fc, { ...base, flag: UNKNOWN, enabled: UNKNOWN, value: UNKNOWN, conditions: UNKNOWN, platforms: UNKNOWN, labels: UNKNOWN }],
    ["FlagConfiguration, unknown clauses", fc, { ...base, conditions: [UNKNOWN, { group: { name: UNKNOWN }, value: true }, { property: { name: "email", operator: "regex", operand: UNKNOWN }, value: UNKNOWN }] }],
    ["TargetGroup", tg, { applicationId: APP, name: UNKNOWN, conditions: UNKNOWN, operator: UNKNOWN }],
  ] as const)("%s", async (_name, controller, news) => {
    expect(await failures(controller as typeof fc, news)).toEqual([]);
  });
});

describe("FlagConfiguration check refuses, naming the input", () => {
  it.each([
    ["a split option outside a boolean flag's values? no: a non-option value", { value: { on: true } }, "value", /must be a string, a number or a boolean/],
    ["a percentage over 100", { value: [{ option: true, percentage: 101 }] }, "value[0].percentage", /from 0 to 100/],
    ["a negative percentage", { value: [{ option: true, percentage: -1 }] }, "value[0].percentage", /from 0 to 100/],
    ["a split summing over 100", { value: [{ option: true, percentage: 60 }, { option: false, percentage: 50 }] }, "value", /sum to 110, over 100/],
    ["an option twice in a split", { value: [{ option: true, percentage: 10 }, { option: "true", percentage: 10 }] }, "value[1].option", /appears twice/],
    ["a schedule whose from is not a date", { value: [{ from: "soon", percentage: 10 }] }, "value[0].from", /ISO-8601 date/],
    ["an unknown group operator", { conditions: [{ group: { name: "beta", operator: "xor" }, value: true }] }, "conditions[0].group.operator", /one of or, and, not/],
    ["an empty group name list", { conditions: [{ group: { name: [] }, value: true }] }, "conditions[0].group.name", /non-empty list/],
    ["an unknown property operator", { conditions: [{ property: { name: "email", operator: "contains", operand: "x" }, value: true }] }, "conditions[0].property.operator", /must be one of is-undefined/],
    ["an operand missing where the operator needs one", { conditions: [{ property: { name: "email", operator: "eq" }, value: true }] }, "conditions[0].property.operand", /required by the operator eq/],
    ["an operand where the operator takes none", { conditions: [{ property: { name: "beta", operator: "is-true", operand: "x" }, value: true }] }, "conditions[0].property.operand", /takes no operand/],
    ["a semver operand that is not a version", { conditions: [{ property: { name: "v", operator: "semver-gt", operand: "1.x" }, value: true }] }, "conditions[0].property.operand", /not a semantic version/],
    ["an in-array operand that is not a list", { conditions: [{ property: { name: "email", operator: "in-array", operand: "a" }, value: true }] }, "conditions[0].property.operand", /list of strings/],
    ["a version clause whose version is a number", { conditions: [{ version: { operator: "semver-gte", semver: 2 }, value: true }] }, "conditions[0].version.semver", /semantic version/],
    ["a version clause with a bad operator", { conditions: [{ version: { operator: "gte", semver: "2.0.0" }, value: true }] }, "conditions[0].version.operator", /semver-eq/],
    ["a dependency without a value", { conditions: [{ dependency: { flag: "other" }, value: true }] }, "conditions[0].dependency.value", /required/],
    ["an unknown clause", { conditions: [{ segment: "x", value: true }] }, "conditions[0].segment", /not a field here/],
    ["more than 1,000 conditions", { conditions: Array.from({ length: 1001 }, () => ({ group: { name: "g" }, value: true })) }, "conditions", /1001 conditions; at most 1000/],
    ["an environment name a path cannot carry", { environment: "a/b" }, "environment", /slash/],
    ["a flag name a path cannot carry", { flag: ".." }, "flag", /cannot be a path segment/],
    ["a platform named twice", { platforms: [{ name: "Android" }, { name: "Android" }] }, "platforms[1].name", /appears twice/],
    ["labels that are not strings", { labels: [1] }, "labels", /non-empty strings/],
    // Names inside structured inputs get the top-level names' rule (issue 19): no control character to forge a line.
    ["a group name with a line break", { conditions: [{ group: { name: "beta\nerror: forged" }, value: true }] }, "conditions[0].group.name", /holds a control character/],
    ["a label with an escape sequence", { labels: ["ok", "\u001b[31mred"] }, "labels[1]", /holds a control character/],
    ["a property name with a NUL", { conditions: [{ property: { name: "plan\u0000", operator: "is-true" }, value: true }] }, "conditions[0].property.name", /holds a control character/],
    // The emulator's bounds (FEATURE_FLAG_LIMITS, shared): what the service would refuse at up fails at preview.
    ["more labels than the service takes", { labels: Array.from({ length: 101 }, (_, i) => `l${i}`) }, "labels", /101 items; at most 100/],
    ["a split of more entries than the service takes", { value: Array.from({ length: 101 }, () => ({ option: true, percentage: 0 })) }, "value", /101 items; at most 100/],
    ["a group clause naming more groups than the service takes", { conditions: [{ group: { name: Array.from({ length: 101 }, (_, i) => `g${i}`) }, value: true }] }, "conditions[0].group.name", /101 items; at most 100/],
    ["an unknown input, with the nearest name", { enable: true }, "enable", /did you mean enabled\?/],
  ])("%s", async (_name, extra, property, reason) => {
    const found = await failures(fc, { ...base, ...extra });
    expect(found).toEqual(expect.arrayContaining([{ property, reason: expect.stringMatching(reason) }]));
  });

  it("accepts a full configuration of every form", async () => {
    expect(
      await failures(fc, {
        ...base,
        enabled: true,
        value: [{ option: true, percentage: 50 }],
        labels: ["checkout"],
        description: "",
        stickinessProperty: "userId",
        conditions: [
          { group: { name: ["beta", "staff"], operator: "or" }, value: true },
          { dependency: { flag: "other", value: "green" }, value: [{ from: "2026-01-01T00:00:00Z", percentage: 20 }] },
          { version: { operator: "semver-gte", semver: "2.0.0-rc.1" }, property: { name: "email", operator: "regex", operand: "@example\\.com$" }, value: false },
          { property: { name: "beta", operator: "is-true" }, value: null },
        ],
        platforms: [{ name: "Android", conditions: [{ property: { name: "rox.version", operator: "semver-lt", operand: "1.2.3" }, value: false }], value: true }],
      }),
    ).toEqual([]);
  });
});

describe("TargetGroup and Flag check", () => {
  it.each([
    ["conditions that are not a list", tg, { applicationId: APP, name: "beta", conditions: "all" }, "conditions", /must be a list/],
    ["an unknown group operator", tg, { applicationId: APP, name: "beta", operator: "not", conditions: [] }, "operator", /one of and, or/],
    ["an operand missing", tg, { applicationId: APP, name: "beta", conditions: [{ property: "email", operator: "in-array" }] }, "conditions[0].operand", /required by the operator in-array/],
    ["more than 1,000 conditions", tg, { applicationId: APP, name: "beta", conditions: Array.from({ length: 1001 }, () => ({ property: "p", operator: "is-true" })) }, "conditions", /at most 1000/],
    ["a flag name with a slash", flag, { applicationId: APP, name: "a/b" }, "name", /slash/],
    ["values that are not a list", flag, { applicationId: APP, name: "color", availableValues: "red" }, "availableValues", /must be a list/],
    ["an environment name with a control character", env, { applicationId: APP, name: "a\u0007" }, "name", /control character/],
  ] as const)("%s", async (_name, controller, news, property, reason) => {
    expect(await failures(controller as typeof fc, news)).toEqual(expect.arrayContaining([{ property, reason: expect.stringMatching(reason) }]));
  });
});

describe("diff compares what a person means", () => {
  const fcOld = {
    ...base,
    enabled: true,
    value: [{ option: true, percentage: 30 }, { option: false, percentage: 70 }],
    labels: ["a", "b"],
    conditions: [
      { group: { name: "beta" }, value: true },
      { property: { name: "email", operator: "in-array", operand: ["x@example.com", "y@example.com"] }, value: "true" },
    ],
    __provider: "old",
  };

  it("labels as a set, a split as a set, true and \"true\", group name string vs list, operator default or, percentage default 100", async () => {
    const news = {
      ...base,
      enabled: true,
      value: [{ option: "false", percentage: 70 }, { option: true, percentage: 30 }],
      labels: ["b", "a", "a"],
      conditions: [
        { group: { name: ["beta"], operator: "or" }, value: "true" },
        { property: { name: "email", operator: "in-array", operand: ["y@example.com", "x@example.com"] }, value: true },
      ],
      __provider: "new",
    };
    expect(await fc.diff("id", fcOld, news)).toEqual({ changes: false, replaces: [], deleteBeforeReplace: true });
    expect(await fc.diff("id", { ...base, value: [{ option: true }] }, { ...base, value: [{ option: true, percentage: 100 }] })).toMatchObject({ changes: false });
  });

  it("conditions are an ordered chain: swapping two is a change", async () => {
    const swapped = { ...fcOld, conditions: [fcOld.conditions[1], fcOld.conditions[0]] };
    expect(await fc.diff("id", fcOld, swapped)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: true });
  });

  it("an input the program stops declaring is no change (the service keeps it); one it starts declaring is", async () => {
    const { labels: _l, ...withoutLabels } = fcOld;
    expect(await fc.diff("id", fcOld, withoutLabels)).toMatchObject({ changes: false });
    expect(await fc.diff("id", withoutLabels, fcOld)).toMatchObject({ changes: true });
  });

  it("a value not known yet is a change", async () => {
    expect(await fc.diff("id", fcOld, { ...fcOld, conditions: [fcOld.conditions[0], { group: { name: UNKNOWN }, value: true }] })).toMatchObject({ changes: true, replaces: [] });
  });

  it("a new environment or flag replaces, created before the old is removed; the same identity (a connection change) removes the old first", async () => {
    expect(await fc.diff("id", fcOld, { ...fcOld, environment: "Staging" })).toEqual({ changes: true, replaces: ["environment"], deleteBeforeReplace: false });
    const viaWrapper = await fc.diff("id", { ...fcOld, connection: "a" }, { ...fcOld, connection: "b" });
    expect(viaWrapper).toEqual({ changes: true, replaces: ["connection"], deleteBeforeReplace: true });
  });

  it("Flag: availableValues as a set (default [false, true]); a change replaces, deleting the old flag first since the name stays", async () => {
    const old = { applicationId: APP, name: "color", availableValues: ["red", "green"], isPermanent: false };
    expect(await flag.diff("id", old, { applicationId: APP, name: "color", availableValues: ["green", "red"] })).toMatchObject({ changes: false, replaces: [] });
    expect(await flag.diff("id", old, { applicationId: APP, name: "color", availableValues: ["red", "blue"] })).toEqual({ changes: true, replaces: ["availableValues"], deleteBeforeReplace: true });
    expect(await flag.diff("id", old, { applicationId: APP, name: "colour", availableValues: ["red", "blue"] })).toEqual({ changes: true, replaces: ["name", "availableValues"], deleteBeforeReplace: false });
    const bool = { applicationId: APP, name: "b", availableValues: [false, true], isPermanent: false };
    expect(await flag.diff("id", bool, { applicationId: APP, name: "b" })).toMatchObject({ changes: false });
    expect(await flag.diff("id", bool, { applicationId: APP, name: "b", isPermanent: true })).toMatchObject({ changes: true, replaces: [] });
    // A connection change replaces with the same name: the old flag must go first.
    expect(await flag.diff("id", { ...bool, connection: "a" }, { applicationId: APP, name: "b", connection: "b" })).toEqual({ changes: true, replaces: ["connection"], deleteBeforeReplace: true });
    expect(await flag.diff("id", bool, { applicationId: APP, name: UNKNOWN })).toEqual({ changes: true, replaces: ["name"], deleteBeforeReplace: true });
  });

  it("TargetGroup: conditions a set; an input the program starts declaring is a change (the update then writes only if the service differs)", async () => {
    const old = { applicationId: APP, name: "beta", operator: "and", conditions: [{ property: "a", operator: "is-true" }, { property: "email", operator: "in-array", operand: ["x", "y"] }] };
    const same = { applicationId: APP, name: "beta", operator: "and", conditions: [{ property: "email", operator: "in-array", operand: ["y", "x", "x"] }, { property: "a", operator: "is-true" }] };
    expect(await tg.diff("id", old, same)).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
    expect(await tg.diff("id", old, { ...same, description: "" })).toMatchObject({ changes: true });
    expect(await tg.diff("id", old, { ...same, operator: "or" })).toMatchObject({ changes: true, replaces: [] });
    expect(await tg.diff("id", old, { ...same, name: "beta2" })).toMatchObject({ changes: true, replaces: ["name"] });
  });

  it("Environment: description only when given; a name change replaces (delete leaves the old one, so the default order is safe)", async () => {
    const old = { applicationId: APP, name: "Staging", key: "k", description: "x" };
    expect(await env.diff("id", old, { applicationId: APP, name: "Staging" })).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
    expect(await env.diff("id", old, { applicationId: APP, name: "Staging", description: "y" })).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    expect(await env.diff("id", old, { applicationId: APP, name: "QA" })).toEqual({ changes: true, replaces: ["name"], deleteBeforeReplace: false });
  });
});

describe("values against the flag's available values (the rules create and update apply before any write)", () => {
  const run = (rule: (c: InputChecker) => void) => {
    const c = new InputChecker({}, []);
    rule(c);
    return c.failures;
  };
  const COLORS = ["red", "green"];

  it.each([
    ["a boolean flag's value outside", "maybe", [false, true], "value", /value "maybe" is not one of the flag's available values \(false, true\)/],
    ["a boolean flag's split option outside", [{ option: "maybe", percentage: 10 }], [false, true], "value[0].option", /split option "maybe" is not one of/],
    ["a string flag's value that is a boolean", true, COLORS, "value", /value true is not one of/],
    ["a string flag's value outside its values, past the bound", "x".repeat(300), COLORS, "value", /is 300 characters long; at most \d+ are allowed/],
    ["scheduled values on a non-boolean flag", [{ from: "2026-01-01T00:00:00Z", percentage: 10 }], COLORS, "value", /scheduled values .* apply to boolean flags only/],
  ])("%s", (_name, value, options, property, reason) => {
    expect(run((c) => checkValue(c, "value", value, options))).toEqual([{ property, reason: expect.stringMatching(reason) }]);
  });

  it("a dependency value outside a boolean flag's values; \"true\" is a boolean flag's true", () => {
    const optionsOf = (flag: string) => (flag === "b" ? [false, true] : undefined);
    expect(run((c) => checkConditions(c, "conditions", [{ dependency: { flag: "b", value: "maybe" }, value: true }], undefined, optionsOf))).toEqual([
      { property: "conditions[0].dependency.value", reason: expect.stringMatching(/flag "b"'s value "maybe" is not one of/) },
    ]);
    expect(run((c) => checkConditions(c, "conditions", [{ dependency: { flag: "b", value: "true" }, value: true }], undefined, optionsOf))).toEqual([]);
    expect(run((c) => checkValue(c, "value", "true", [false, true]))).toEqual([]);
    expect(run((c) => checkValue(c, "value", [{ from: "2026-01-01", percentage: 10 }], [false, true]))).toEqual([]);
    // The strings "true" and "false" make a string flag, as the emulator judges it: no schedule on it.
    expect(run((c) => checkValue(c, "value", [{ from: "2026-01-01", percentage: 10 }], ["true", "false"]))).toEqual([
      { property: "value", reason: expect.stringMatching(/apply to boolean flags only/) },
    ]);
  });
});

describe("a configuration's value: null is a value (the code's default), not an absent input", () => {
  it("null against a split is a change; null against null is none", async () => {
    const old = { ...base, value: [{ option: true, percentage: 50 }] };
    expect(await fc.diff("id", old, { ...base, value: null })).toMatchObject({ changes: true });
    expect(await fc.diff("id", { ...base, value: null }, { ...base, value: null })).toMatchObject({ changes: false });
    expect(await fc.diff("id", { ...base, value: null }, { ...base, value: [] })).toMatchObject({ changes: false });
  });
});
