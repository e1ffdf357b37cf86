import { NotFoundError } from "../../provider";
import { call } from "./helpers";
import { appPath, startFlagSetup, type FlagSetup } from "./feature-flag-setup";

// The legacy experiment rules of /work/shared/specs/applications-api.md ("Legacy experiment behaviour that must
// hold"), one test per row of its table, through the client against the emulator. The note
// (feature-management-api.md section 4) gives the same rules from the vendor's REST API introduction (S1).

let s: FlagSetup;
beforeAll(async () => {
  s = await startFlagSetup();
});
afterAll(async () => s.close());

const PROD = "Production";

describe("legacy experiment rules (spec table)", () => {
  it("Create an experiment: creates a corresponding flag; the experiment name is ignored", async () => {
    const app = await s.newApplication();
    expect(await s.client.listFlags(app, PROD)).toEqual([]);

    const answer = await s.client.putExperiment(app, PROD, { type: "experiment", flag: "checkout.newFlow", name: "Black Friday test", value: true });
    expect(answer).toMatchObject({ type: "experiment", flag: "checkout.newFlow", name: "checkout.newFlow", value: true, enabled: true });

    // The flag exists app-wide, with the default available values, under the flag's name only.
    const flags = await s.client.listFlags(app, PROD);
    expect(flags.map((f) => [f.name, f.availableValues])).toEqual([["checkout.newFlow", [false, true]]]);
    await expect(s.client.getExperiment(app, PROD, "Black Friday test")).rejects.toThrow(NotFoundError);
    expect(s.emu.state.flags(app).map((f) => f.name)).toEqual(["checkout.newFlow"]);
  });

  it("Create an experiment with the docs' own example: legacy path, environment 'production', a property condition", async () => {
    // docs.cloudbees.com/docs/cloudbees-feature-flags/latest/rest-api/examples, "Create an experiment with property
    // matching": PUT /public-api/{appId}/production/experiments (no applications/, the default environment in lower case).
    const app = await s.newApplication();
    const url = `${s.emu.featureManagementUrl}public-api/${app}/production/experiments`;
    const body = {
      type: "experiment",
      name: "following view",
      flag: "default.followingView",
      conditions: [{ property: { name: "email", operator: "in-array", operand: ["bob@example.com"] }, value: true }],
      value: false,
    };
    const r = await call(s.emu, url, {
      method: "PUT",
      authorization: `Bearer ${s.emu.credentials.featureManagementToken}`,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ flag: "default.followingView", name: "default.followingView", conditions: body.conditions, value: false });
    expect(await s.client.getExperiment(app, PROD, "default.followingView")).toEqual(r.json);
    expect(Object.keys(s.emu.state.flags(app)[0]!.configurations)).toEqual([PROD]);
  });

  it("Create an experiment again replaces the whole configuration (no merge), and one flag remains", async () => {
    const app = await s.newApplication();
    await s.client.putExperiment(app, PROD, { type: "experiment", flag: "f", labels: ["web"], description: "first", enabled: false, value: true });
    const second = await s.client.putExperiment(app, PROD, { type: "experiment", flag: "f", value: false });
    expect(second).toEqual({
      type: "experiment",
      flag: "f",
      name: "f",
      availableValues: [false, true],
      description: "",
      enabled: true,
      labels: [],
      stickinessProperty: "rox.distinct_id",
      platforms: [],
      conditions: [],
      value: false,
    });
    expect(await s.client.listFlags(app, PROD)).toHaveLength(1);
  });

  it("Get an experiment: works as expected; the experiment name is ignored", async () => {
    const app = await s.newApplication();
    await s.client.putExperiment(app, PROD, { type: "experiment", flag: "search.v2", name: "first name", value: true });
    await s.client.putExperiment(app, PROD, { type: "experiment", flag: "search.v2", name: "second name", value: true });
    const got = await s.client.getExperiment(app, PROD, "search.v2");
    expect(got).toMatchObject({ flag: "search.v2", name: "search.v2", value: true });
    await expect(s.client.getExperiment(app, PROD, "second name")).rejects.toThrow(NotFoundError);
  });

  it("Patch an experiment: works as expected; the experiment name is ignored", async () => {
    const app = await s.newApplication();
    await s.client.putExperiment(app, PROD, { type: "experiment", flag: "banner", value: false, labels: ["ui"] });
    const patched = await s.client.patchExperiment(app, PROD, "banner", [
      { op: "replace", path: "/enabled", value: false },
      { op: "replace", path: "/value", value: true },
      { op: "replace", path: "/name", value: "renamed experiment" },
    ]);
    expect(patched).toMatchObject({ flag: "banner", name: "banner", enabled: false, value: true, labels: ["ui"] });
    expect(await s.client.getExperiment(app, PROD, "banner")).toEqual(patched);
    expect(s.emu.state.flags(app).map((f) => f.name)).toEqual(["banner"]);

    s.emu.journal.clear();
    await s.client.patchExperiment(app, PROD, "banner", [{ op: "replace", path: "/enabled", value: true }]);
    const [patch] = s.emu.journal.entries();
    expect([patch!.method, patch!.path, patch!.headers["content-type"]]).toEqual(["PATCH", `${appPath(app)}/${PROD}/experiments/banner`, "application/json"]);
  });

  it("Get experiments: only flags with at least one release rule configured; an unconfigured flag is in the flag list only", async () => {
    const app = await s.newApplication();
    await s.client.createFlag(app, { name: "plain" });
    await s.client.putExperiment(app, PROD, { type: "experiment", flag: "configured", value: true });
    await s.client.createEnvironment(app, { name: "Staging" });

    expect((await s.client.listExperiments(app, PROD)).map((e) => e.flag)).toEqual(["configured"]);
    expect((await s.client.listFlags(app, PROD)).map((f) => f.name).sort()).toEqual(["configured", "plain"]);
    // Configuration is per environment: in Staging neither is configured, both exist.
    expect(await s.client.listExperiments(app, "Staging")).toEqual([]);
    const staging = await s.client.listFlags(app, "Staging");
    expect(staging.map((f) => [f.name, f.enabled]).sort()).toEqual([["configured", false], ["plain", false]]);
    await expect(s.client.getExperiment(app, PROD, "plain")).rejects.toThrow(NotFoundError);
  });

  it("Delete an experiment: removes the flag's configuration in that environment; the flag itself is NOT deleted", async () => {
    const app = await s.newApplication();
    await s.client.createEnvironment(app, { name: "Staging" });
    await s.client.putExperiment(app, PROD, { type: "experiment", flag: "promo", value: true });
    await s.client.putExperiment(app, "Staging", { type: "experiment", flag: "promo", value: false });

    await s.client.deleteExperiment(app, PROD, "promo");

    expect(await s.client.listExperiments(app, PROD)).toEqual([]);
    await expect(s.client.getExperiment(app, PROD, "promo")).rejects.toThrow(NotFoundError);
    expect((await s.client.listFlags(app, PROD)).map((f) => f.name)).toEqual(["promo"]);
    expect((await s.client.getFlag(app, PROD, "promo")).enabled).toBe(false);
    // The other environment keeps its configuration.
    expect((await s.client.getExperiment(app, "Staging", "promo")).value).toBe(false);
    expect(s.emu.state.flags(app)).toEqual([expect.objectContaining({ name: "promo", configurations: { Staging: expect.objectContaining({ value: false }) } })]);
    // A repeated delete is harmless (the client retries DELETEs); only the flag DELETE removes the flag.
    await s.client.deleteExperiment(app, PROD, "promo");
    await s.client.deleteFlag(app, "promo");
    expect(await s.client.listFlags(app, PROD)).toEqual([]);
    expect(await s.client.listExperiments(app, "Staging")).toEqual([]);
  });
});
