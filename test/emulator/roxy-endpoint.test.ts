import { roxyData, targetGroupId } from "../../emulator/roxy-configuration";
import { call } from "./helpers";
import { startFlagSetup, type FlagSetup } from "./feature-flag-setup";

// The emulator's SDK endpoint (issue 16): what `emulator.roxyUrl(key)` serves is the environment's configured flags
// and the application's target groups, in the payload rox-node reads (rox-node@6.0.16 dist/rox-node.js:
// fetchFromRoxyAPI GETs the roxy URL as is, without a token; processApiResponse wants 200 and a JSON object).

let s: FlagSetup;
beforeAll(async () => {
  s = await startFlagSetup();
});
afterAll(async () => s.close());

const PROD = "Production";
const get = (url: string, method = "GET") => call(s.emu, url, { method, authorization: null });

describe("GET roxyUrl(environment key)", () => {
  it("answers each environment's configured flags and the application's target groups, without a token", async () => {
    const app = await s.newApplication();
    const staging = await s.client.createEnvironment(app, { name: "Staging" });
    const prod = s.emu.state.environments(app).find((e) => e.name === PROD)!;
    await s.client.putTargetGroup(app, { type: "target-group", name: "beta", conditions: [{ property: "email", operator: "regex", operand: "@beta$" }] });
    await s.client.createFlag(app, { name: "unconfigured" });
    await s.client.createFlag(app, { name: "color", availableValues: ["red", "blue"] });
    await s.client.putExperiment(app, PROD, { type: "experiment", flag: "checkout", value: false, conditions: [{ group: { name: "beta" }, value: true }] });
    await s.client.putExperiment(app, "Staging", { type: "experiment", flag: "color", value: "blue" });

    const r = await get(s.emu.roxyUrl(prod.key));
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    expect(Object.keys(r.json).sort()).toEqual(["data", "signature_v0", "signed_date"]);
    expect(Number.isNaN(Date.parse(r.json.signed_date))).toBe(false);
    const data = JSON.parse(r.json.data);
    expect(data.application).toBe(prod.key);
    // Only the flags configured in this environment (the experiment list's rule); the target groups are app-wide.
    expect(data.experiments.map((e: { name: string }) => e.name)).toEqual(["checkout"]);
    expect(data.experiments[0].deploymentConfiguration.condition).toContain(`isInTargetGroup("${targetGroupId("beta")}")`);
    expect(data.targetGroups.map((g: { name: string }) => g.name)).toEqual(["beta"]);
    // Exactly the translation of what the model holds.
    const model = s.emu.state.flags(app);
    const expected = roxyData({
      key: prod.key,
      flags: model.filter((f) => f.configurations[PROD]).map((f) => ({ name: f.name, availableValues: f.availableValues, configuration: f.configurations[PROD]! })),
      targetGroups: s.emu.state.targetGroups(app),
    });
    expect(data).toEqual(expected);

    const other = JSON.parse((await get(s.emu.roxyUrl(staging.key))).json.data);
    expect(other.experiments.map((e: { name: string }) => e.name)).toEqual(["color"]);
    expect(other.experiments[0].deploymentConfiguration.condition).toBe('"blue"');
  });

  it("follows changes: the next GET shows a new value, and a removed configuration is gone", async () => {
    const app = await s.newApplication();
    const key = s.emu.state.environments(app)[0]!.key;
    await s.client.putExperiment(app, PROD, { type: "experiment", flag: "f", value: true });
    const conditionOf = async () => JSON.parse((await get(s.emu.roxyUrl(key))).json.data).experiments.map((e: any) => e.deploymentConfiguration.condition);
    expect(await conditionOf()).toEqual(['"true"']);
    await s.client.patchExperiment(app, PROD, "f", [{ op: "replace", path: "/value", value: false }]);
    expect(await conditionOf()).toEqual(['"false"']);
    await s.client.deleteExperiment(app, PROD, "f");
    expect(await conditionOf()).toEqual([]);
  });

  it("serves the Go SDK's request too (device/request_configuration resolved against the roxy URL, with its query)", async () => {
    const app = await s.newApplication();
    const key = s.emu.state.environments(app)[0]!.key;
    // rox-go core/network BuildForRoxy: url.ResolveReference(roxyURL, "device/request_configuration"), then a GET
    // with the device properties as query parameters.
    const goUrl = new URL("device/request_configuration?app_key=x&distinct_id=y", s.emu.roxyUrl(key)).toString();
    const noSlash = s.emu.roxyUrl(key).replace(/\/$/, "");
    for (const url of [goUrl, noSlash]) {
      const r = await get(url);
      expect([url, r.status, JSON.parse(r.json.data).application]).toEqual([url, 200, key]);
    }
  });

  it("unknown key: 404 naming it; another method: 405; another path: 404", async () => {
    const unknown = await get(s.emu.roxyUrl("0123456789abcdef01234567"));
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({ error: "No environment has the key '0123456789abcdef01234567'" });
    const app = await s.newApplication();
    const key = s.emu.state.environments(app)[0]!.key;
    const posted = await get(s.emu.roxyUrl(key), "POST");
    expect([posted.status, posted.headers.get("allow")]).toEqual([405, "GET"]);
    expect((await get(`${s.emu.roxyUrl(key)}elsewhere`)).status).toBe(404);
  });

  it("is not under the REST API's rate limit (the SDK's CDN is not)", async () => {
    const app = await s.newApplication();
    const key = s.emu.state.environments(app)[0]!.key;
    s.emu.setFeatureManagementRateLimit(true);
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await get(s.emu.roxyUrl(key))).status);
      expect(statuses).toEqual([200, 200, 200]);
    } finally {
      s.emu.setFeatureManagementRateLimit(false);
    }
  });

  it("the URL is the emulator's base URL, roxy/, the key and a slash", () => {
    expect(s.emu.roxyUrl("abc")).toBe(`${s.emu.baseUrl}roxy/abc/`);
  });
});
