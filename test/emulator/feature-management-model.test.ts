import { FeatureManagementClient, NotFoundError } from "../../provider";
import { FeatureManagementService } from "../../emulator/feature-management";
import { ApplicationFlags } from "../../emulator/feature-flags";
import { FAST } from "../clients/fast-options";
import { call } from "./helpers";
import { startFlagSetup, type FlagSetup } from "./feature-flag-setup";

// The emulator's model of an application through its API: environments, flags across environments, target groups,
// audit logs, the state views, accounts, and the 1 request/second rule on the new endpoints.

let s: FlagSetup;
beforeAll(async () => {
  s = await startFlagSetup();
});
afterAll(async () => s.close());
afterEach(() => s.emu.setFeatureManagementRateLimit(false));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("environments", () => {
  it("a new application has one environment, Production; E2 adds one, and on an existing name answers its key with the description updated", async () => {
    const app = await s.newApplication();
    const [prod] = s.emu.state.environments(app);
    expect(prod).toEqual({ name: "Production", key: expect.stringMatching(/^[0-9a-f]{24}$/), description: "" });

    // E2 answers the key itself (the real service's answer): the client gives it with the name sent.
    const staging = await s.client.createEnvironment(app, { name: "Staging" });
    expect(staging).toEqual({ name: "Staging", key: expect.stringMatching(/^[0-9a-f]{24}$/) });
    const again = await s.client.createEnvironment(app, { name: "Staging", description: "pre-production" });
    expect(again).toEqual({ ...staging, description: "pre-production" });
    expect((await s.client.createEnvironment(app, { name: "Staging" })).key).toBe(staging.key);
    // Names ignore case (the docs write both Production and production): no second environment.
    expect((await s.client.createEnvironment(app, { name: "staging" })).key).toBe(staging.key);
    expect(await s.client.listEnvironments(app)).toEqual([prod, { name: "Staging", key: staging.key, description: "pre-production" }]);
    expect(new Set([prod!.key, staging.key]).size).toBe(2);
  });
});

describe("flags across environments", () => {
  it("F3 is idempotent for the same available values (any order); F5 deletes the flag with its configuration in every environment", async () => {
    const app = await s.newApplication();
    await s.client.createEnvironment(app, { name: "Staging" });
    const made = await s.client.createFlag(app, { name: "mode", availableValues: ["a", "b"] });
    expect(await s.client.createFlag(app, { name: "mode", availableValues: ["b", "a"] })).toEqual(made);
    await s.client.setFlagConfiguration(app, "Production", { name: "mode", value: "a" });
    await s.client.setFlagConfiguration(app, "Staging", { name: "mode", value: "b", isPermanent: true });
    expect(s.emu.state.flags(app)).toEqual([
      expect.objectContaining({ name: "mode", isPermanent: true, configurations: { Production: expect.objectContaining({ value: "a" }), Staging: expect.objectContaining({ value: "b" }) } }),
    ]);

    await s.client.deleteFlag(app, "mode");
    expect(s.emu.state.flags(app)).toEqual([]);
    await expect(s.client.deleteFlag(app, "mode")).rejects.toThrow(NotFoundError);
    // A new flag of the old name starts unconfigured everywhere.
    await s.client.createFlag(app, { name: "mode", availableValues: ["x"] });
    expect(await s.client.listExperiments(app, "Staging")).toEqual([]);
  });

  it("serves the vendor's Jenkins plugin: the same Flag Request to F3 then F4, twice, on a string flag", async () => {
    // strangelookingnerd/cloudbees-feature-management-plugin, FeatureManagementAPI.setFlag: PUT .../flags ("ensure that
    // the flag exists") then PUT .../{env}/flags/{name} with the same body; the body is help-flagConfigInstructions.html's.
    const app = await s.newApplication();
    await s.client.createFlag(app, { name: "acmeFlagControl", availableValues: ["foo", "bar"] });
    const body = JSON.stringify({ name: "acmeFlagControl", description: "Applies foo to our Nifty App", enabled: true, labels: ["do-not-merge"], stickinessProperty: "fixed" });
    const put = (path: string) =>
      call(s.emu, `${s.emu.featureManagementUrl}public-api/applications/${app}/${path}`, {
        method: "PUT",
        authorization: `Bearer ${s.emu.credentials.featureManagementToken}`,
        headers: { "content-type": "application/json" },
        body,
      });
    for (let round = 0; round < 2; round++) {
      const created = await put("flags");
      expect([created.status, created.json]).toEqual([200, { name: "acmeFlagControl", availableValues: ["foo", "bar"], isPermanent: false }]);
      const configured = await put("Production/flags/acmeFlagControl");
      expect(configured.status).toBe(200);
      expect(configured.json).toMatchObject({ enabled: true, labels: ["do-not-merge"], stickinessProperty: "fixed", value: null });
    }
  });

  it("an unconfigured flag reads as targeting off with its default value (false for boolean, null otherwise)", async () => {
    const app = await s.newApplication();
    await s.client.createFlag(app, { name: "bool" });
    await s.client.createFlag(app, { name: "text", availableValues: ["x", "y"] });
    expect(await s.client.getFlag(app, "Production", "bool")).toEqual({
      name: "bool",
      availableValues: [false, true],
      isPermanent: false,
      description: "",
      enabled: false,
      labels: [],
      stickinessProperty: "rox.distinct_id",
      platforms: [],
      conditions: [],
      value: false,
    });
    expect((await s.client.getFlag(app, "Production", "text")).value).toBeNull();
  });
});

describe("target groups", () => {
  it("T2 upserts by name: the whole group is replaced; conditions use it by name", async () => {
    const app = await s.newApplication();
    await s.client.putTargetGroup(app, { type: "target-group", name: "qa", description: "testers", operator: "or", conditions: [{ property: "email", operator: "in-array", operand: ["a@x.io"] }] });
    const replaced = await s.client.putTargetGroup(app, { type: "target-group", name: "qa", conditions: [{ property: "rox.platform", operator: "is-undefined" }] });
    expect(replaced).toEqual({ type: "target-group", name: "qa", description: "", operator: "and", conditions: [{ property: "rox.platform", operator: "is-undefined" }] });
    expect(await s.client.listTargetGroups(app)).toEqual([replaced]);
    expect(s.emu.state.targetGroups(app)).toEqual([{ name: "qa", description: "", operator: "and", conditions: [{ property: "rox.platform", operator: "is-undefined" }] }]);
    await s.client.putExperiment(app, "Production", { type: "experiment", flag: "f", conditions: [{ group: { name: ["qa"], operator: "not" }, value: true }] });
  });
});

describe("audit logs (L1)", () => {
  it("records each change in the environment it concerns, under the token's user, never the token", async () => {
    const app = await s.newApplication();
    const start = new Date(Date.now() - 1000);
    await s.client.createEnvironment(app, { name: "Staging" });
    await s.client.putExperiment(app, "Staging", { type: "experiment", flag: "f", value: true });
    await s.client.deleteExperiment(app, "Staging", "f");
    const staging = await s.client.getAuditLogs(app, "Staging", start);
    expect(staging.map((r) => [r.action, r.experiment])).toEqual([
      ["created environment", undefined],
      ["created flag", "f"],
      ["turned targeting on", "f"],
      ["deleted flag configuration", "f"],
    ]);
    const key = s.emu.state.environments(app)[1]!.key;
    for (const r of staging) {
      expect(r).toMatchObject({ application: app, environmentId: key, userName: "acme API user 1", userEmail: "api-user-1@acme.example", __v: 0 });
      expect(JSON.stringify(r)).not.toContain(s.emu.credentials.featureManagementToken);
    }
    // Production saw the app-wide change (the flag's creation) only.
    expect((await s.client.getAuditLogs(app, "Production", start)).map((r) => r.action)).toEqual(["created environment", "created flag"]);
    expect(s.emu.state.auditLogs(app, "Staging")).toEqual(staging);
  });

  it("answers the records from startDate on, oldest first, at most 30", async () => {
    const app = await s.newApplication();
    for (let i = 0; i < 3; i++) await s.client.createFlag(app, { name: `early-${i}` });
    await sleep(5);
    const middle = new Date();
    await sleep(5);
    for (let i = 0; i < 34; i++) await s.client.createFlag(app, { name: `late-${i}` });

    const page = await s.client.getAuditLogs(app, "Production", middle);
    expect(page).toHaveLength(30);
    expect(page.map((r) => r.experiment)).toEqual(Array.from({ length: 30 }, (_, i) => `late-${i}`));
    const dates = page.map((r) => Date.parse(r.creation_date));
    expect([...dates].sort((a, b) => a - b)).toEqual(dates);
    expect((await s.client.getAuditLogs(app, "Production", new Date(0)))[0]!.action).toBe("created environment");
  });

  it("refuses a missing or unreadable startDate with 400", async () => {
    const app = await s.newApplication();
    const url = `${s.emu.featureManagementUrl}public-api/applications/${app}/Production/auditlogs`;
    const auth = { authorization: `Bearer ${s.emu.credentials.featureManagementToken}` };
    expect((await call(s.emu, url, auth)).json.error).toMatch(/^startDate: is required/);
    expect((await call(s.emu, `${url}?startDate=yesterday`, auth)).json.error).toMatch(/^startDate: "yesterday" is not an ISO-8601 instant/);
  });
});

describe("accounts and the rate limit", () => {
  it("another account's token cannot see or change the application's flags (404)", async () => {
    const app = await s.newApplication();
    const other = new FeatureManagementClient({ baseUrl: s.emu.featureManagementUrl, token: s.emu.credentials.otherFeatureManagementToken, minRequestIntervalMs: 1, ...FAST });
    try {
      await expect(other.listEnvironments(app)).rejects.toThrow(NotFoundError);
      await expect(other.createFlag(app, { name: "intruder" })).rejects.toThrow(NotFoundError);
      expect(s.emu.state.flags(app)).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it("keeps the 1 request/second rule (555) on every new endpoint when the limit is on", async () => {
    const app = await s.newApplication();
    const auth = { authorization: `Bearer ${s.emu.credentials.featureManagementToken}` };
    const base = `${s.emu.featureManagementUrl}public-api/applications/${app}`;
    s.emu.setFeatureManagementRateLimit(true);
    expect((await call(s.emu, `${base}/Production/flags`, auth)).status).toBe(200);
    expect((await call(s.emu, `${base}/Production/experiments`, auth)).status).toBe(555);
    expect((await call(s.emu, `${base}/target-groups`, { ...auth, method: "PUT", body: "{}" })).status).toBe(555);
    expect(s.emu.state.targetGroups(app)).toEqual([]);
  });
});

describe("the model's read accessors (for readers such as the SDK's configuration)", () => {
  it("answer copies, find an environment by its key, and count changes", () => {
    let n = 0;
    const model = new ApplicationFlags("app", () => (++n).toString(16).padStart(24, "0"));
    const user = { _id: "u", email: "u@x.example", name: "u" };
    const prod = model.putEnvironment("Production", "", user);
    model.createFlag({ name: "f", availableValues: [false, true], isPermanent: false }, user);
    const before = model.revision();
    model.setConfiguration("f", "Production", { description: "", enabled: true, labels: [], stickinessProperty: "rox.distinct_id", platforms: [], conditions: [], value: true }, user);
    expect(model.revision()).toBeGreaterThan(before);

    expect(model.environmentByKey(prod.key)).toEqual(prod);
    expect(model.configuredFlags("Production")).toEqual([{ flag: { name: "f", availableValues: [false, true], isPermanent: false }, configuration: expect.objectContaining({ value: true }) }]);
    (model.configuration("f", "Production")!.labels as string[]).push("mutated");
    model.flags()[0]!.availableValues.push("mutated");
    expect(model.configuration("f", "Production")!.labels).toEqual([]);
    expect(model.flag("f")!.availableValues).toEqual([false, true]);
    expect(model.configuration("f", "Staging")).toBeUndefined();
  });

  it("lead from an SDK key to its application's model (FeatureManagementService.environmentOfKey)", () => {
    const service = new FeatureManagementService([{ token: "t", account: "a" }], false);
    const request = (method: string, path: string, body: unknown) => {
      const reply = service.handle(
        { method, path: `/feature-management/${path}`, query: {}, headers: { authorization: "Bearer t" }, body: Buffer.from(JSON.stringify(body ?? "")), clientIp: "127.0.0.1" },
        path,
      );
      return JSON.parse(reply.body.toString() || "null");
    };
    const app = request("POST", "public-api/applications", { applicationName: "sdk" });
    request("PUT", `public-api/applications/${app.id}/target-groups`, { name: "beta", conditions: [{ property: "beta", operator: "is-true" }] });
    request("PUT", `public-api/applications/${app.id}/Production/experiments`, { type: "experiment", flag: "f", value: true });
    const key = service.applicationModel(app.id)!.environments()[0]!.key;

    const found = service.environmentOfKey(key)!;
    expect([found.account, found.applicationId, found.environment.name]).toEqual(["a", app.id, "Production"]);
    expect(found.model.configuredFlags(found.environment.name).map((c) => [c.flag.name, c.configuration.value])).toEqual([["f", true]]);
    expect(found.model.targetGroups().map((g) => g.name)).toEqual(["beta"]);
    expect(service.environmentOfKey("0".repeat(24))).toBeUndefined();
  });
});
