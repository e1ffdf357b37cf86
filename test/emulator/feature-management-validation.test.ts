import { call } from "./helpers";
import { startFlagSetup, type FlagSetup } from "./feature-flag-setup";

// What the emulator refuses, as a careful server would (issue 15, item 2; the note's section 3 schemas): a 400 with
// a JSON {error} that starts with the field, 404 for unknown names in paths, 409 for a state conflict. It refuses
// nothing the real service wrote itself (issue 39): those forms are accepted below, and the whole corpus of them is
// test/emulator/real-experiments.test.ts.

let s: FlagSetup;
let app: string;
beforeAll(async () => {
  s = await startFlagSetup();
  app = await s.newApplication("validation");
  await s.client.createFlag(app, { name: "b" });
  await s.client.createFlag(app, { name: "color", availableValues: ["red", "green", "blue"] });
  await s.client.createFlag(app, { name: "limit", availableValues: [1, 5, 10] });
  await s.client.putTargetGroup(app, { type: "target-group", name: "beta", conditions: [{ property: "rox.language", operator: "eq", operand: "fr" }] });
});
afterAll(async () => s.close());

async function send(method: string, path: string, body?: unknown) {
  const r = await call(s.emu, `${s.emu.featureManagementUrl}public-api/applications/${app}/${path}`, {
    method,
    authorization: `Bearer ${s.emu.credentials.featureManagementToken}`,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: r.status, json: r.json, error: String(r.json?.error ?? "") };
}

const experiment = (flag: string, more: Record<string, unknown>) => ({ type: "experiment", flag, ...more });
const when = (clause: Record<string, unknown>, value: unknown = true) => ({ conditions: [{ ...clause, value }] });

describe("experiment and flag configuration bodies (X3, F4)", () => {
  const refused: [string, unknown, RegExp][] = [
    ["a body that is not JSON", "{not json", /^body: not JSON/],
    ["an array body", [], /^body: must be a JSON object/],
    ["no type", { flag: "b", value: true }, /^type: is required and must be "experiment"/],
    ["an unknown field", experiment("b", { stickyness: "x" }), /^stickyness: unknown field/],
    ["a boolean flag's value that is not true or false", experiment("b", { value: "maybe" }), /^value: "maybe" is not one of the available values of flag "b"/],
    ["a string flag's value that is a boolean", experiment("color", { value: true }), /^value: must be a string or a number/],
    ["a string flag's value outside its values, past the bound", experiment("color", { value: "x".repeat(300) }), /^value: longer than \d+ characters/],
    ["a split option outside a boolean flag's values", experiment("b", { value: [{ option: "maybe", percentage: 10 }] }), /^value\[0\]\.option: "maybe"/],
    ["a percentage over 100", experiment("b", { value: [{ option: true, percentage: 120 }] }), /^value\[0\]\.percentage: must be a number from 0 to 100/],
    ["a negative percentage", experiment("b", { value: [{ option: true, percentage: -1 }] }), /^value\[0\]\.percentage/],
    ["a split summing over 100", experiment("color", { value: [{ option: "red", percentage: 60 }, { option: "blue", percentage: 50 }] }), /^value: the split's percentages sum to 110, over 100/],
    ["scheduled values on a non-boolean flag", experiment("color", { value: [{ from: "2026-01-01T00:00:00Z", percentage: 50 }] }), /^value: scheduled values .* boolean flags only/],
    ["a schedule date that is not a date", experiment("b", { value: [{ from: "soon", percentage: 50 }] }), /^value\[0\]\.from: must be an ISO-8601 date/],
    ["an unknown property operator", experiment("b", when({ property: { name: "plan", operator: "contains", operand: "pro" } })), /^conditions\[0\]\.property\.operator: "contains" is not an operator/],
    ["an unknown version operator", experiment("b", when({ version: { operator: "gt", semver: "1.0.0" } })), /^conditions\[0\]\.version\.operator/],
    ["a version that is neither text nor null", experiment("b", when({ version: { operator: "semver-gt", semver: 2 } })), /^conditions\[0\]\.version\.semver: 2 is not a version/],
    ["an operand missing where needed", experiment("b", when({ property: { name: "plan", operator: "eq" } })), /^conditions\[0\]\.property\.operand: operator "eq" needs an operand/],
    ["an operand where none is taken", experiment("b", when({ property: { name: "beta", operator: "is-true", operand: "x" } })), /^conditions\[0\]\.property\.operand: operator "is-true" takes no operand/],
    ["an in-array operand that is not an array", experiment("b", when({ property: { name: "email", operator: "in-array", operand: "a@b.c" } })), /^conditions\[0\]\.property\.operand: must be an array/],
    ["a semver operand that is not a version", experiment("b", when({ property: { name: "v", operator: "semver-lt", operand: "two" } })), /is not a version/],
    ["an unknown group operator", experiment("b", when({ group: { operator: "xor", name: "beta" } })), /^conditions\[0\]\.group\.operator/],
    ["a group naming an unknown target group", experiment("b", when({ group: { name: ["beta", "gamma"] } })), /^conditions\[0\]\.group\.name: no target group named "gamma"/],
    ["a dependency on an unknown flag", experiment("b", when({ dependency: { flag: "nope", value: true } })), /^conditions\[0\]\.dependency\.flag: no flag named "nope"/],
    ["a dependency value outside a boolean flag's values", experiment("color", when({ dependency: { flag: "b", value: "maybe" } }, "red")), /^conditions\[0\]\.dependency\.value: "maybe" is not one of the available values of flag "b"/],
    ["a flag depending on itself", experiment("b", when({ dependency: { flag: "b", value: true } })), /cannot depend on itself/],
    ["a condition value outside a boolean flag's values", experiment("b", when({ group: { name: "beta" } }, "pink")), /^conditions\[0\]\.value: "pink"/],
    ["a schedule entry's option outside a boolean flag's values", experiment("b", { value: [{ from: "2026-01-01T00:00:00Z", percentage: 50, option: "yes" }] }), /^value\[0\]\.option: "yes"/],
    ["more than 1,000 conditions", experiment("b", { conditions: Array.from({ length: 1001 }, () => ({ group: { name: "beta" }, value: true })) }), /^conditions: more than 1000 entries/],
    ["a label that is not a string", experiment("b", { labels: ["ok", 3] }), /^labels\[1\]: must be a non-empty string/],
    ["a platform configured twice", experiment("b", { platforms: [{ name: "iOS" }, { name: "iOS" }] }), /^platforms\[1\]\.name: platform "iOS" is configured twice/],
    ["enabled that is not a boolean", experiment("b", { enabled: "yes" }), /^enabled: must be true or false/],
  ];
  it.each(refused)("X3 refuses %s (400 naming the field)", async (_what, body, message) => {
    const before = s.emu.state.flags(app);
    const r = await send("PUT", "Production/experiments", body);
    expect(r.status).toBe(400);
    expect(r.error).toMatch(message);
    expect(s.emu.state.flags(app)).toEqual(before);
  });

  it("F4 refuses the same body errors, an unknown flag (404) and a name other than the path's", async () => {
    expect((await send("PUT", "Production/flags/color", { value: [{ option: "red", percentage: 101 }] })).error).toMatch(/^value\[0\]\.percentage/);
    expect((await send("PUT", "Production/flags/ghost", { value: true })).status).toBe(404);
    const renamed = await send("PUT", "Production/flags/color", { name: "colour", value: "red" });
    expect([renamed.status, renamed.error]).toEqual([400, 'name: must be the flag in the path ("color") when given']);
    const values = await send("PUT", "Production/flags/color", { availableValues: ["red"], value: "red" });
    expect(values.status).toBe(409);
  });

  it("a refused X3 of a new flag creates no flag (nothing is half-applied)", async () => {
    const r = await send("PUT", "Production/experiments", experiment("brand-new", { value: "maybe", conditions: [{ value: "no" }] }));
    expect(r.status).toBe(400);
    expect(s.emu.state.flags(app).map((f) => f.name)).not.toContain("brand-new");
  });

  it("X3 naming other availableValues than the flag's is a 409", async () => {
    const r = await send("PUT", "Production/experiments", experiment("color", { availableValues: ["red", "green"], value: "red" }));
    expect(r.status).toBe(409);
    expect(r.error).toMatch(/^availableValues: flag 'color' offers/);
  });

  it("stores values in the flag's own type and fills the documented defaults", async () => {
    const r = await send("PUT", "Production/experiments", {
      type: "experiment",
      flag: "b",
      value: "true",
      labels: "single",
      conditions: [
        { group: { name: "beta" }, value: [{ from: "2026-03-01T00:00:00Z" }] },
        { dependency: { flag: "limit", value: "5" }, value: [{ option: "false", percentage: 30 }] },
      ],
      platforms: [{ name: "Android" }],
    });
    expect(r.status).toBe(200);
    // Labels as text and a dependency's value as sent: the service writes both so (`labels: internal`, `value: 'true'`).
    // A platform without a value keeps none: its conditions fall through to the default platform's rules.
    expect(r.json).toMatchObject({
      value: true,
      labels: "single",
      conditions: [
        { group: { operator: "or", name: "beta" }, value: [{ from: "2026-03-01T00:00:00Z", percentage: 100 }] },
        { dependency: { flag: "limit", value: "5" }, value: [{ option: false, percentage: 30 }] },
      ],
      platforms: [{ name: "Android", conditions: [] }],
    });
    expect(r.json.platforms[0]).not.toHaveProperty("value");
    const limit = await send("PUT", "Production/experiments", experiment("limit", {}));
    expect(limit.json.value).toBeNull();
  });
});

describe("flags, environments and target groups (F3, E2, T2)", () => {
  const refused: [string, string, unknown, RegExp][] = [
    ["a flag without a name", "flags", { availableValues: [true, false] }, /^name: must be a non-empty string/],
    ["booleans mixed with strings", "flags", { name: "x", availableValues: [true, "maybe"] }, /^availableValues: a boolean flag offers exactly \[false, true\]/],
    ["a flag name a path cannot carry", "flags", { name: ".." }, /^name: ".." cannot be carried in a path/],
    ["an environment without a name", "environments/key", { description: "x" }, /^name: must be a non-empty string/],
    ["a target group whose conditions are not a list", "target-groups", { type: "target-group", name: "g", conditions: "all" }, /^conditions: must be an array/],
    ["a target group of another type", "target-groups", { type: "experiment", name: "g", conditions: [] }, /^type: must be "target-group"/],
    ["an unknown target-group operator", "target-groups", { name: "g", operator: "xor", conditions: [] }, /^operator: "xor" is not an operator/],
    ["a target-group condition without its operand", "target-groups", { name: "g", conditions: [{ property: "p", operator: "gt" }] }, /^conditions\[0\]\.operand: operator "gt" needs an operand/],
    ["a target-group condition with an unknown operator", "target-groups", { name: "g", conditions: [{ property: "p", operator: "like", operand: "x" }] }, /^conditions\[0\]\.operator: "like"/],
  ];
  it.each(refused)("refuses %s (400 naming the field)", async (_what, path, body, message) => {
    const r = await send("PUT", path, body);
    expect(r.status).toBe(400);
    expect(r.error).toMatch(message);
  });

  it("answers unknown names in paths with 404", async () => {
    expect((await send("GET", "Staging/flags")).error).toBe(`Environment 'Staging' not found in application '${app}'`);
    expect((await send("GET", "Prod/experiments")).status).toBe(404);
    expect((await send("DELETE", "flags/ghost")).error).toBe("Flag 'ghost' not found");
    expect((await send("GET", "Production/experiments/ghost")).status).toBe(404);
    expect((await send("DELETE", "Production/experiments/ghost")).status).toBe(404);
    expect((await send("GET", "Production/unknown")).status).toBe(404);
    const r = await call(s.emu, `${s.emu.featureManagementUrl}public-api/applications/0123456789abcdef01234567/Production/flags`, {
      authorization: `Bearer ${s.emu.credentials.featureManagementToken}`,
    });
    expect([r.status, r.json.error]).toEqual([404, "Application '0123456789abcdef01234567' not found"]);
  });
});

describe("JSON Patch (X4)", () => {
  beforeAll(async () => {
    await s.client.putExperiment(app, "Production", { type: "experiment", flag: "color", value: "red", labels: ["a"] });
  });

  const refused: [string, unknown, number, RegExp][] = [
    ["a body that is not an array", { op: "replace", path: "/value", value: "blue" }, 400, /^body: a JSON Patch is an array/],
    ["an empty patch", [], 400, /^body: the JSON Patch has no operation/],
    ["an unknown op", [{ op: "merge", path: "/value", value: "blue" }], 400, /^patch\[0\]\.op: must be one of add, remove, replace, move, copy, test/],
    ["a path that is not a pointer", [{ op: "replace", path: "value", value: "blue" }], 400, /^patch\[0\]\.path: "value" is not a JSON Pointer/],
    ["a replace without value", [{ op: "replace", path: "/value" }], 400, /^patch\[0\]\.value: "replace" needs a value/],
    ["a move without from", [{ op: "move", path: "/value" }], 400, /^patch\[0\]\.from/],
    ["a remove of nothing", [{ op: "remove", path: "/labels/5" }], 400, /^patch\[0\]\.path: index 5 is out of bounds/],
    ["a replace of a missing member", [{ op: "replace", path: "/nothing", value: 1 }], 400, /^patch\[0\]\.path: nothing at "\/nothing"/],
    ["a test that fails", [{ op: "test", path: "/value", value: "green" }, { op: "replace", path: "/value", value: "blue" }], 409, /^patch\[0\]: test failed/],
    ["a change of the flag", [{ op: "replace", path: "/flag", value: "colour" }], 400, /^flag: the flag in the path \("color"\) is the identity/],
    ["a result the service refuses", [{ op: "replace", path: "/value", value: [{ option: "red", percentage: 101 }] }], 400, /^value\[0\]\.percentage/],
    ["a result without type", [{ op: "remove", path: "/type" }], 400, /^type: is required/],
  ];
  it.each(refused)("refuses %s, changing nothing", async (_what, body, status, message) => {
    const r = await send("PATCH", "Production/experiments/color", body);
    expect([r.status, r.error]).toEqual([status, expect.stringMatching(message)]);
    expect(await s.client.getExperiment(app, "Production", "color")).toMatchObject({ value: "red", labels: ["a"] });
  });

  it("applies add, remove, copy, move and a passing test, in order", async () => {
    const r = await send("PATCH", "Production/experiments/color", [
      { op: "test", path: "/value", value: "red" },
      { op: "add", path: "/labels/-", value: "b" },
      { op: "add", path: "/labels/0", value: "first" },
      { op: "remove", path: "/labels/1" },
      { op: "copy", from: "/labels/0", path: "/description" },
      { op: "add", path: "/conditions/-", value: { group: { name: "beta" }, value: "blue" } },
    ]);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ labels: ["first", "b"], description: "first", conditions: [{ group: { operator: "or", name: "beta" }, value: "blue" }] });
    const moved = await send("PATCH", "Production/experiments/color", [{ op: "move", from: "/description", path: "/stickinessProperty" }]);
    expect(moved.json).toMatchObject({ description: "", stickinessProperty: "first" });
  });

  it("answers 404 for a flag that is not configured in the environment", async () => {
    await s.client.createFlag(app, { name: "unconfigured" });
    const r = await send("PATCH", "Production/experiments/unconfigured", [{ op: "replace", path: "/enabled", value: false }]);
    expect([r.status, r.error]).toEqual([404, "Flag 'unconfigured' has no configuration (experiment) in environment 'Production'"]);
  });
});

describe("what the vendor's own configuration-as-code wrote is accepted", () => {
  // GitHub cedricmc/test: the README Rollout's CasC generator wrote (its experiment and target-group examples) and
  // experiments/titleColors.yml and y.yml, files the service itself wrote; here as JSON bodies of T2 and X3.
  it("accepts the README's target groups and experiments, and the service-written files", async () => {
    const tg = await s.newApplication("casc-examples");
    await s.client.putTargetGroup(tg, {
      type: "target-group",
      name: "QA",
      conditions: [{ operator: "in-array", property: "soundcloud_id", operand: ["5c0588007cd291cca474454f", "5c0588027cd291cca4744550"] }],
    });
    await s.client.putTargetGroup(tg, { type: "target-group", name: "DJ", conditions: [{ operator: "gte", property: "playlist_count", operand: 100 }], description: "Users with a lot of playlists" });
    await s.client.putTargetGroup(tg, { type: "target-group", name: "Beta Users", conditions: [{ operator: "is-true", property: "beta" }] });

    const base = { type: "experiment" as const, flag: "default.followingView", name: "following view" };
    await s.client.putExperiment(tg, "Production", { ...base, value: false });
    await s.client.putExperiment(tg, "Production", { ...base, value: [{ option: true, percentage: 50 }] });
    await s.client.putExperiment(tg, "Production", {
      ...base,
      conditions: [{ group: { name: ["QA", "Beta Users"] }, version: { operator: "semver-gte", semver: "3.0.1" }, value: true }],
      value: false,
    });
    const platforms = await s.client.putExperiment(tg, "Production", { ...base, platforms: [{ name: "Android", value: false }], value: true });
    expect(platforms.platforms).toEqual([{ name: "Android", conditions: [], value: false }]);

    const colors = await s.client.putExperiment(tg, "Production", { type: "experiment", name: "title colors", flag: "titleColors", availableValues: ["Yellow", "White", "Green", "Blue"], value: [] });
    expect([colors.availableValues, colors.value]).toEqual([["Yellow", "White", "Green", "Blue"], []]);
    expect((await s.client.putExperiment(tg, "Production", { type: "experiment", flag: "y", value: false })).name).toBe("y");
  });
});
