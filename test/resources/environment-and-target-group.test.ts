/* istanbul ignore file */
import { CheckFailedError } from "../harness";
import { lines, startFlagWorld, writes, type FlagWorld } from "./feature-flag-helpers";

// Environment and TargetGroup through the real provider host against the emulator (rate limit on). Neither has a
// delete endpoint: destroy leaves the object and warns, so a replacement in the engine's default order loses nothing.
let w: FlagWorld;
let app: string;
beforeAll(async () => {
  w = await startFlagWorld();
  app = (await w.fm.createApplication("envs")).id;
});
afterAll(async () => {
  await w?.close();
});

describe("Environment", () => {
  it("takes over Production without a write; creates Staging; outputs the key; description only when given", async () => {
    let mark = w.mark();
    const prod = w.ff("environment", "prod", { applicationId: app, name: "Production" });
    await prod.up();
    const key = w.emu.state.environments(app)[0]!.key;
    expect(prod.state!.id).toBe(key);
    expect(prod.state!.outputs).toMatchObject({ applicationId: app, name: "Production", key });
    expect(lines(w.since(mark))).toEqual([`GET /applications/${app}/environments`]);

    mark = w.mark();
    const staging = w.ff("environment", "staging", { applicationId: app, name: "Staging", description: "pre-production" });
    await staging.up();
    expect(writes(w.since(mark))).toEqual([`PUT /applications/${app}/environments/key`]);
    expect(staging.state!.outputs.key).toMatch(/^[0-9a-f]{24}$/);
    expect(w.emu.state.environments(app).map((e) => [e.name, e.description])).toEqual([["Production", ""], ["Staging", "pre-production"]]);

    await w.nextDeployment();
    mark = w.mark();
    expect(await prod.refresh()).toMatchObject({ changedFields: [] });
    expect(await staging.refresh()).toMatchObject({ changedFields: [] });
    // One list serves both reads.
    expect(lines(w.since(mark))).toEqual([`GET /applications/${app}/environments`]);

    // Changed in the UI: shown on refresh, corrected by up.
    await w.fm.createEnvironment(app, { name: "Staging", description: "changed by hand" });
    await w.nextDeployment();
    expect(await staging.refresh()).toMatchObject({ changedFields: ["description"] });
    mark = w.mark();
    expect(await staging.up()).toMatchObject({ op: "update", changedFields: ["description"] });
    expect(writes(w.since(mark))).toEqual([`PUT /applications/${app}/environments/key`]);
    expect(w.emu.state.environments(app).find((e) => e.name === "Staging")!.description).toBe("pre-production");

    // Destroy leaves it and warns.
    w.host.takeOutput();
    mark = w.mark();
    const stagingKey = staging.state!.id;
    await staging.destroy();
    expect(await w.host.waitForOutput(/stays in application/)).toContain(`Environment "Staging" (${stagingKey}) stays in application ${app}`);
    expect(w.since(mark)).toEqual([]);
    expect(w.emu.state.environments(app)).toHaveLength(2);
  });

  it("a name a path cannot carry fails in check", async () => {
    const error = (await w.ff("environment", "bad", { applicationId: app, name: "a/b" }).up().catch((e: unknown) => e)) as CheckFailedError;
    expect(error.failures).toEqual([{ property: "name", reason: 'name "a/b" holds a slash, which a URL path cannot carry as part of a name: the API names it in request paths; choose a name without it' }]);
  });
});

describe("replacements that keep the name (a connection change)", () => {
  it("Environment and TargetGroup: created before the old is deleted, and the old's delete writes nothing, so both exist at the end", async () => {
    const env = w.ff("environment", "qa", { applicationId: app, name: "QA" });
    const group = w.ff("targetGroup", "staff", { applicationId: app, name: "staff", conditions: [{ property: "staff", operator: "is-true" }] });
    await env.up();
    await group.up();
    const deferred: (() => Promise<void>)[] = [];
    const deferDelete = (d: () => Promise<void>) => deferred.push(d);
    expect(await env.up({ applicationId: app, name: "QA", connection: "same" }, { deferDelete })).toMatchObject({ op: "replace", replaces: ["connection"], deleteBeforeReplace: false });
    expect(await group.up({ applicationId: app, name: "staff", conditions: [{ property: "staff", operator: "is-true" }], connection: "same" }, { deferDelete })).toMatchObject({ op: "replace", deleteBeforeReplace: false });
    const mark = w.mark();
    for (const d of deferred) await d();
    expect(w.since(mark)).toEqual([]);
    expect(w.emu.state.environments(app).map((e) => e.name)).toContain("QA");
    expect(w.emu.state.targetGroups(app).map((g) => g.name)).toContain("staff");
  });
});

describe("TargetGroup", () => {
  const betaHeld = () => w.emu.state.targetGroups(app).find((g) => g.name === "beta");
  const beta = () => ({
    applicationId: app,
    name: "beta",
    conditions: [
      { property: "email", operator: "in-array", operand: ["a@x.com", "b@x.com"] },
      { property: "beta", operator: "is-true" },
    ],
  });

  it("creates, refreshes with no change, takes over without a write, shows a change by hand, corrects it keeping what was not declared", async () => {
    let mark = w.mark();
    const g = w.ff("targetGroup", "beta", beta());
    await g.up();
    expect(writes(w.since(mark))).toEqual([`PUT /applications/${app}/target-groups`]);
    expect(betaHeld()).toEqual({ name: "beta", description: "", operator: "and", conditions: beta().conditions });

    // The same set in another order, the operand list reordered: no diff, and a second declaration writes nothing.
    const reordered = { ...beta(), conditions: [{ property: "beta", operator: "is-true" }, { property: "email", operator: "in-array", operand: ["b@x.com", "a@x.com"] }] };
    expect(await g.up(reordered)).toMatchObject({ op: "same" });
    mark = w.mark();
    await w.ff("targetGroup", "beta-twin", reordered).up();
    expect(writes(w.since(mark))).toEqual([]);

    await w.nextDeployment();
    expect(await g.refresh()).toMatchObject({ changedFields: [] });

    // In the UI: a description (not declared) and another condition (declared).
    await w.fm.putTargetGroup(app, { type: "target-group", name: "beta", description: "from the UI", operator: "and", conditions: [{ property: "beta", operator: "is-true" }] });
    await w.nextDeployment();
    expect(await g.refresh()).toMatchObject({ changedFields: ["conditions"] });
    mark = w.mark();
    expect(await g.up(reordered)).toMatchObject({ op: "update", changedFields: ["conditions"] });
    expect(writes(w.since(mark))).toEqual([`PUT /applications/${app}/target-groups`]);
    expect(betaHeld()).toEqual({ name: "beta", description: "from the UI", operator: "and", conditions: reordered.conditions });

    // Destroy leaves it and warns.
    w.host.takeOutput();
    mark = w.mark();
    await g.destroy();
    expect(await w.host.waitForOutput(/cannot delete target groups/)).toContain(`TargetGroup "beta"`);
    expect(w.since(mark)).toEqual([]);
    expect(betaHeld()).toBeDefined();
  });

  it("check refuses an operand where the operator takes none, naming it", async () => {
    const error = (await w.ff("targetGroup", "bad", { applicationId: app, name: "x", conditions: [{ property: "beta", operator: "is-true", operand: "yes" }] }).up().catch((e: unknown) => e)) as CheckFailedError;
    expect(error.failures).toEqual([{ property: "conditions[0].operand", reason: "conditions[0].operand: the operator is-true takes no operand; leave it out" }]);
  });

  it("never went over one request per second", () => {
    expect(w.since(0).filter((e) => e.status === 555)).toEqual([]);
  });
});
