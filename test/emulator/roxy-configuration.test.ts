/**
 * The roxy translator's output, evaluated by the vendor's SDK itself: rox-node@6.0.16 parses the payload
 * (dist/rox-node.js: ConfigurationParser, ExperimentsParser, TargetGroupsParser) and evaluates every expression
 * (RoxxParser, RoxxOperators), so these tests check our translation against code we did not write.
 *
 * No network at all here: the SDK's `networkApi` option (rox-node: Client.handleOptions) is an in-memory answer, and
 * rox-node's Rox is one per process, so the whole file shares one setup and each test uses flags of its own.
 */
import {
  experimentId,
  literal,
  roxyData,
  roxyPayload,
  targetGroupId,
  type RoxyEnvironment,
  type RoxyFlag,
} from "../../emulator/roxy-configuration";
import type { Condition, FlagValue, TargetGroup } from "../../provider/clients/feature-flag-types";
import type { RoxContext, RoxFetchResult, RoxSdk } from "../../testing/flags-sdk/rox-sdk";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const Rox = require("rox-node") as RoxSdk;

const KEY = "5f0c1a2b3c4d5e6f7a8b9c0d";
let served: unknown = null;
let lastUrl = "";
const waiters: ((r: RoxFetchResult) => void)[] = [];

// rox-node reports new flags with a 5 s debounce whose timer would keep jest waiting; setup cancels it
// (rox-node: Client._sendState), as startRoxClient's close() does.
let setupOptions: Record<string, unknown>;
afterAll(async () => {
  await Rox.setup(KEY, setupOptions);
});

beforeAll(async () => {
  setupOptions = {
    roxy: "http://127.0.0.1:9/never-contacted",
    fetchIntervalInSec: 0,
    disablePushUpdateListener: true,
    // rox-node: fetchFromRoxyAPI -> networkSender.get(url) must answer {status: 200, data: object} (processApiResponse).
    networkApi: {
      get: async (url: string) => {
        lastUrl = url;
        return { status: 200, data: served, headers: {} };
      },
      post: async () => {
        throw new Error("the SDK must not POST in roxy mode");
      },
    },
    configurationFetchedHandler: (r: RoxFetchResult) => waiters.shift()?.(r),
  };
  await Rox.setup(KEY, setupOptions);
  // The stickiness property and the release version read from the evaluation context, so one process can play many users.
  Rox.setCustomStringProperty("rox.distinct_id", (ctx) => ctx?.["userId"] as string | undefined);
  Rox.setCustomSemverProperty("rox.app_release", (ctx) => (ctx?.["version"] as string | undefined) ?? "0");
  Rox.setCustomDateProperty("rox.now", (ctx) => (ctx?.["now"] as Date | undefined) ?? new Date());
});

async function serve(env: Partial<RoxyEnvironment> & { flags: RoxyFlag[] }): Promise<RoxFetchResult> {
  served = roxyPayload({ key: KEY, targetGroups: [], ...env }, new Date("2026-01-01T00:00:00Z"));
  const done = new Promise<RoxFetchResult>((resolve) => waiters.push(resolve));
  Rox.fetch();
  const result = await done;
  expect(result.fetcherStatus).toBe("APPLIED_FROM_NETWORK");
  return result;
}

const boolFlag = (name: string, configuration: RoxyFlag["configuration"]): RoxyFlag => ({ name, configuration });
const stringFlag = (name: string, availableValues: string[], configuration: RoxyFlag["configuration"]): RoxyFlag => ({
  name,
  availableValues,
  configuration,
});
const on = (name: string, ctx: RoxContext = {}, fallback = false) => Rox.dynamicApi.isEnabled(name, fallback, ctx);
const str = (name: string, ctx: RoxContext = {}, fallback = "code-default") => Rox.dynamicApi.value(name, fallback, ctx);
const ids = (n: number) => Array.from({ length: n }, (_, i) => `user-${i}`);

describe("the payload rox-node reads", () => {
  it("is {data, signature_v0, signed_date} with data a JSON string of {application, experiments, targetGroups}", async () => {
    const group: TargetGroup = { name: "beta", conditions: [{ property: "email", operator: "regex", operand: "@beta\\.example$" }] };
    const payload = roxyPayload(
      { key: KEY, flags: [boolFlag("shape.flag", { value: true, labels: ["a"], stickinessProperty: "userId" })], targetGroups: [group] },
      new Date("2026-02-03T04:05:06Z"),
    );
    expect(Object.keys(payload).sort()).toEqual(["data", "signature_v0", "signed_date"]);
    expect(payload.signed_date).toBe("2026-02-03T04:05:06.000Z");
    const data = JSON.parse(payload.data);
    expect(data).toEqual({
      application: KEY,
      experiments: [
        {
          _id: experimentId(KEY, "shape.flag"),
          name: "shape.flag",
          archived: false,
          sticky: false,
          labels: ["a"],
          stickinessProperty: "userId",
          featureFlags: [{ name: "shape.flag" }],
          deploymentConfiguration: { condition: '"true"' },
        },
      ],
      targetGroups: [{ _id: targetGroupId("beta"), name: "beta", condition: expect.stringContaining("match(") }],
    });
    expect(experimentId(KEY, "shape.flag")).toMatch(/^[0-9a-f]{24}$/);
  });

  it("is fetched from exactly the roxy URL, and the SDK applies it", async () => {
    await serve({ flags: [boolFlag("shape.applied", { value: true })] });
    expect(lastUrl).toBe("http://127.0.0.1:9/never-contacted");
    expect(on("shape.applied")).toBe(true);
  });
});

describe("values", () => {
  it("a boolean flag's value, a string flag's option and a number flag's option reach the SDK as written", async () => {
    await serve({
      flags: [
        boolFlag("v.bool-true", { value: true }),
        boolFlag("v.bool-false", { value: false }),
        boolFlag("v.bool-text", { value: "true" }),
        stringFlag("v.color", ["red", "blue"], { value: "blue" }),
        { name: "v.limit", availableValues: [10, 20], configuration: { value: 20 } },
      ],
    });
    expect(on("v.bool-true")).toBe(true);
    expect(on("v.bool-false", {}, true)).toBe(false);
    expect(on("v.bool-text")).toBe(true);
    expect(str("v.color")).toBe("blue");
    expect(Rox.dynamicApi.getNumber("v.limit", 1)).toBe(20);
  });

  it("null leaves the default from code; enabled:false gives a boolean flag false and other flags the code default", async () => {
    await serve({
      flags: [
        boolFlag("v.null", { value: null }),
        boolFlag("v.off", { enabled: false, value: true, conditions: [{ value: true }] }),
        stringFlag("v.off-color", ["red", "blue"], { enabled: false, value: "blue" }),
      ],
    });
    expect(on("v.null", {}, true)).toBe(true);
    expect(on("v.null", {}, false)).toBe(false);
    expect(on("v.off", {}, true)).toBe(false);
    expect(str("v.off-color")).toBe("code-default");
  });

  it("text with quotes, backslashes and roxx delimiters survives the tokenizer (b64d)", async () => {
    const odd = ['say "hi"', "C:\\path\\", "a, (b) [c] {d}", "", "ünïcødé ✓", "trailing\\"];
    await serve({ flags: odd.map((v, i) => stringFlag(`v.odd-${i}`, odd, { value: v })) });
    odd.forEach((v, i) => expect(str(`v.odd-${i}`)).toBe(v));
    expect(literal('say "hi"')).toMatch(/^b64d\("[A-Za-z0-9+/=]+"\)$/);
    expect(literal("plain text")).toBe('"plain text"');
  });
});

describe("conditions: an ordered if / else-if chain", () => {
  it("the first condition that holds wins; none: the flag's value", async () => {
    const conditions: Condition[] = [
      { property: { name: "tier", operator: "eq", operand: "gold" }, value: "gold-view" },
      { property: { name: "tier", operator: "in-array", operand: ["gold", "silver"] }, value: "metal-view" },
    ];
    await serve({ flags: [stringFlag("c.order", ["gold-view", "metal-view", "plain"], { value: "plain", conditions })] });
    expect(str("c.order", { tier: "gold" })).toBe("gold-view");
    expect(str("c.order", { tier: "silver" })).toBe("metal-view");
    expect(str("c.order", { tier: "tin" })).toBe("plain");
  });

  it("every clause of one condition must hold (property and version)", async () => {
    const conditions: Condition[] = [
      { property: { name: "country", operator: "eq", operand: "FR" }, version: { operator: "semver-gte", semver: "2.0.0" }, value: true },
    ];
    await serve({ flags: [boolFlag("c.and", { value: false, conditions })] });
    expect(on("c.and", { country: "FR", version: "2.1.0" })).toBe(true);
    expect(on("c.and", { country: "FR", version: "1.9.9" })).toBe(false);
    expect(on("c.and", { country: "DE", version: "2.1.0" })).toBe(false);
  });

  it("version clauses compare rox.app_release (the SDK's `version` option) with every semver operator", async () => {
    const ops = ["semver-eq", "semver-ne", "semver-gt", "semver-gte", "semver-lt", "semver-lte"] as const;
    await serve({ flags: ops.map((operator) => boolFlag(`c.${operator}`, { value: false, conditions: [{ version: { operator, semver: "1.10.0" }, value: true }] })) });
    const truth = (version: string) => Object.fromEntries(ops.map((o) => [o, on(`c.${o}`, { version })]));
    expect(truth("1.10.0")).toEqual({ "semver-eq": true, "semver-ne": false, "semver-gt": false, "semver-gte": true, "semver-lt": false, "semver-lte": true });
    // Numeric parts, not text: 1.9.0 < 1.10.0.
    expect(truth("1.9.0")).toEqual({ "semver-eq": false, "semver-ne": true, "semver-gt": false, "semver-gte": false, "semver-lt": true, "semver-lte": true });
    expect(truth("2.0")).toMatchObject({ "semver-gt": true, "semver-lt": false });
  });

  it("a dependency holds when the other flag's value equals the declared one (boolean and string flags)", async () => {
    await serve({
      flags: [
        boolFlag("d.base", { value: false, conditions: [{ property: { name: "beta", operator: "is-true" }, value: true }] }),
        stringFlag("d.theme", ["light", "dark"], { value: "light", conditions: [{ property: { name: "night", operator: "is-true" }, value: "dark" }] }),
        boolFlag("d.on-base", { value: false, conditions: [{ dependency: { flag: "d.base", value: true }, value: true }] }),
        stringFlag("d.on-theme", ["stars", "sun"], { value: "sun", conditions: [{ dependency: { flag: "d.theme", value: "dark" }, value: "stars" }] }),
      ],
    });
    expect(on("d.on-base", { beta: true })).toBe(true);
    expect(on("d.on-base", { beta: false })).toBe(false);
    expect(str("d.on-theme", { night: true })).toBe("stars");
    expect(str("d.on-theme", { night: false })).toBe("sun");
  });

  it("platforms: rules for the SDK's platform (rox.platform, NodeJS by default) replace the main ones", async () => {
    await serve({
      flags: [
        stringFlag("p.screen", ["node", "ios", "main"], {
          value: "main",
          platforms: [
            { name: "iOS", value: "ios" },
            { name: "NodeJS", conditions: [{ property: { name: "vip", operator: "is-true" }, value: "node" }] },
          ],
        }),
      ],
    });
    expect(str("p.screen", { vip: true })).toBe("node");
    // The NodeJS platform has no value of its own: what its conditions leave falls through to the main rules.
    expect(str("p.screen", { vip: false })).toBe("main");
  });
});

describe("target groups and property operators", () => {
  const groups: TargetGroup[] = [
    { name: "beta", conditions: [{ property: "email", operator: "regex", operand: "@beta\\.example\\.com$" }] },
    { name: "staff", conditions: [{ property: "team", operator: "in-array", operand: ["core", "ops"] }] },
    {
      name: "eu-adults",
      operator: "and",
      conditions: [
        { property: "region", operator: "eq", operand: "eu" },
        { property: "age", operator: "gte", operand: 18 },
      ],
    },
    {
      name: "either",
      operator: "or",
      conditions: [
        { property: "region", operator: "eq", operand: "us" },
        { property: "age", operator: "lt", operand: 13 },
      ],
    },
  ];
  const released = (name: string, group: Condition["group"]): RoxyFlag => boolFlag(name, { value: false, conditions: [{ group, value: true }] });

  beforeAll(async () => {
    await serve({
      targetGroups: groups,
      flags: [
        released("g.beta", { name: "beta" }),
        released("g.staff", { name: ["staff"] }),
        released("g.eu-adults", { name: "eu-adults" }),
        released("g.either", { name: "either" }),
        released("g.beta-or-staff", { operator: "or", name: ["beta", "staff"] }),
        released("g.beta-and-staff", { operator: "and", name: ["beta", "staff"] }),
        released("g.not-beta", { operator: "not", name: ["beta"] }),
        released("g.unknown", { name: "nobody-declared-this" }),
      ],
    });
  });

  it("regex and in-array conditions on custom properties: members get true, others false", () => {
    expect(on("g.beta", { email: "ann@beta.example.com" })).toBe(true);
    expect(on("g.beta", { email: "ann@example.com" })).toBe(false);
    expect(on("g.beta", {})).toBe(false);
    expect(on("g.staff", { team: "ops" })).toBe(true);
    expect(on("g.staff", { team: "sales" })).toBe(false);
  });

  it("a group's operator combines its conditions (and, or)", () => {
    expect(on("g.eu-adults", { region: "eu", age: 30 })).toBe(true);
    expect(on("g.eu-adults", { region: "eu", age: 12 })).toBe(false);
    expect(on("g.either", { region: "us", age: 40 })).toBe(true);
    expect(on("g.either", { region: "eu", age: 10 })).toBe(true);
    expect(on("g.either", { region: "eu", age: 40 })).toBe(false);
  });

  it("a group clause's operator combines its groups (or, and, not); an unknown group holds nobody", () => {
    const beta = { email: "x@beta.example.com" };
    const staff = { team: "core" };
    expect([on("g.beta-or-staff", beta), on("g.beta-or-staff", staff), on("g.beta-or-staff", {})]).toEqual([true, true, false]);
    expect([on("g.beta-and-staff", beta), on("g.beta-and-staff", { ...beta, ...staff })]).toEqual([false, true]);
    expect([on("g.not-beta", beta), on("g.not-beta", staff)]).toEqual([false, true]);
    expect(on("g.unknown", beta)).toBe(false);
  });

  it("every operator of an inline property clause, as the SDK's operators decide it", async () => {
    const cases: [string, Condition["property"], RoxContext, boolean][] = [
      ["is-undefined", { name: "p", operator: "is-undefined" }, {}, true],
      ["is-undefined set", { name: "p", operator: "is-undefined" }, { p: "x" }, false],
      ["is-true", { name: "p", operator: "is-true" }, { p: true }, true],
      ["is-true text", { name: "p", operator: "is-true" }, { p: "true" }, false],
      ["is-false", { name: "p", operator: "is-false" }, { p: false }, true],
      // rox-node: eq treats undefined as false, so is-false holds for a missing property.
      ["is-false missing", { name: "p", operator: "is-false" }, {}, true],
      ["eq text", { name: "p", operator: "eq", operand: "a" }, { p: "a" }, true],
      ["eq number", { name: "p", operator: "eq", operand: 3 }, { p: 3 }, true],
      ["eq number as text", { name: "p", operator: "eq", operand: 3 }, { p: "3" }, true],
      ["ne text", { name: "p", operator: "ne", operand: "a" }, { p: "b" }, true],
      ["ne number", { name: "p", operator: "ne", operand: 3 }, { p: 3 }, false],
      ["gt", { name: "p", operator: "gt", operand: 5 }, { p: 6 }, true],
      ["gte", { name: "p", operator: "gte", operand: 5 }, { p: 5 }, true],
      ["lt", { name: "p", operator: "lt", operand: 5 }, { p: 5 }, false],
      ["lte", { name: "p", operator: "lte", operand: 5 }, { p: 5 }, true],
      ["gt missing", { name: "p", operator: "gt", operand: -1 }, {}, false],
      ["in-array", { name: "p", operator: "in-array", operand: ["a", "b"] }, { p: "b" }, true],
      ["in-array quoted", { name: "p", operator: "in-array", operand: ['say "x"', "y"] }, { p: 'say "x"' }, true],
      ["in-array quoted miss", { name: "p", operator: "in-array", operand: ['say "x"', "y"] }, { p: "z" }, false],
      ["regex", { name: "p", operator: "regex", operand: "^v[0-9]+$" }, { p: "v12" }, true],
      ["regex missing", { name: "p", operator: "regex", operand: "undef" }, {}, false],
      ["semver-lt", { name: "p", operator: "semver-lt", operand: "2.0.0" }, { p: "1.2.3" }, true],
    ];
    await serve({ flags: cases.map(([label, property]) => boolFlag(`op.${label}`, { value: false, conditions: [{ property, value: true }] })) });
    expect(cases.map(([label, , ctx]) => [label, on(`op.${label}`, ctx)])).toEqual(cases.map(([label, , , expected]) => [label, expected]));
  });
});

describe("percentages", () => {
  it("a 50 % split gives true to between 40 % and 60 % of 1,000 ids, the same id always the same value", async () => {
    await serve({ flags: [boolFlag("s.half", { value: [{ option: true, percentage: 50 }, { option: false, percentage: 50 }] })] });
    const first = ids(1000).map((userId) => on("s.half", { userId }));
    const share = first.filter(Boolean).length / 1000;
    expect(share).toBeGreaterThanOrEqual(0.4);
    expect(share).toBeLessThanOrEqual(0.6);
    expect(ids(1000).map((userId) => on("s.half", { userId }))).toEqual(first);
  });

  it("keeps each id in its bucket when the configuration changes (the experiment id seeds the bucket)", async () => {
    await serve({ flags: [boolFlag("s.keep", { value: [{ option: true, percentage: 30 }] })] });
    const at30 = ids(500).map((userId) => on("s.keep", { userId }));
    await serve({ flags: [boolFlag("s.keep", { value: [{ option: true, percentage: 60 }] })] });
    const at60 = ids(500).map((userId) => on("s.keep", { userId }));
    // Widening a share only adds users: everyone who had it keeps it.
    at30.forEach((had, i) => had && expect(at60[i]).toBe(true));
    expect(at60.filter(Boolean).length).toBeGreaterThan(at30.filter(Boolean).length);
  });

  it("a three-way string split covers every id; a split under 100 % leaves the rest the default from code", async () => {
    await serve({
      flags: [
        stringFlag("s.three", ["a", "b", "c"], { value: [{ option: "a", percentage: 20 }, { option: "b", percentage: 30 }, { option: "c", percentage: 50 }] }),
        stringFlag("s.partial", ["a"], { value: [{ option: "a", percentage: 25 }] }),
      ],
    });
    const counts: Record<string, number> = {};
    for (const userId of ids(1000)) counts[str("s.three", { userId })] = (counts[str("s.three", { userId })] ?? 0) + 1;
    expect(Object.keys(counts).sort()).toEqual(["a", "b", "c"]);
    expect(counts["a"]).toBeGreaterThan(120);
    expect(counts["a"]).toBeLessThan(280);
    expect(counts["c"]).toBeGreaterThan(400);
    const partial = ids(1000).map((userId) => str("s.partial", { userId }));
    expect(new Set(partial)).toEqual(new Set(["a", "code-default"]));
  });

  it("buckets by the configured stickiness property", async () => {
    await serve({ flags: [boolFlag("s.by-account", { stickinessProperty: "account", value: [{ option: true, percentage: 50 }] })] });
    // Same account, different users: one answer; the users' own ids do not matter.
    const answers = ids(50).map((userId) => on("s.by-account", { userId, account: "acct-7" }));
    expect(new Set(answers).size).toBe(1);
    const accounts = ids(400).map((a) => on("s.by-account", { account: a }));
    expect(new Set(accounts)).toEqual(new Set([true, false]));
  });

  it("scheduled values: false before the date, the percentage after it (rox.now)", async () => {
    const value: FlagValue = [
      { from: "2001-01-01T00:00:00Z", percentage: 50 },
      { from: "2002-01-01T00:00:00Z", percentage: 100 },
    ];
    await serve({
      flags: [
        boolFlag("t.past", { value: [{ from: "2000-01-01T00:00:00Z" }] }),
        boolFlag("t.future", { value: [{ from: "2999-01-01T00:00:00Z" }] }),
        boolFlag("t.steps", { value }),
      ],
    });
    expect(on("t.past", {}, false)).toBe(true);
    expect(on("t.future", {}, true)).toBe(false);
    const at = (iso: string) => ids(400).map((userId) => on("t.steps", { userId, now: new Date(iso) }));
    expect(new Set(at("2000-06-01T00:00:00Z"))).toEqual(new Set([false]));
    const half = at("2001-06-01T00:00:00Z").filter(Boolean).length;
    expect(half).toBeGreaterThan(120);
    expect(half).toBeLessThan(280);
    expect(new Set(at("2002-01-01T00:00:00Z"))).toEqual(new Set([true]));
  });
});

describe("translation details", () => {
  it("leaves a disabled non-boolean flag out of the payload, and keeps target groups even when unused", () => {
    const data = roxyData({
      key: KEY,
      flags: [stringFlag("x.off", ["a"], { enabled: false, value: "a" }), boolFlag("x.on", { value: true })],
      targetGroups: [{ name: "g", conditions: [] }],
    });
    expect(data.experiments.map((e) => e.name)).toEqual(["x.on"]);
    expect(data.targetGroups).toEqual([{ _id: targetGroupId("g"), name: "g", condition: "true" }]);
  });
});
