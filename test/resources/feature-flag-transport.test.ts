/* istanbul ignore file */
import { TYPES } from "./helpers";
import { FM_PREFIX, lines, startFlagWorld, writes, type FlagWorld } from "./feature-flag-helpers";

// Two ways the real service may answer that held before issue 39 and failed after it (issue 43), through the real
// provider host against the emulator over HTTP:
// - E2 (PUT .../environments/key) answered 204 No Content (the reading environmentKeyBody=no-content): the
//   Environment's key is read back from the service's list, never guessed;
// - answers whose records carry a field the API does not define (`_links`, the reading recordLinks=present), under
//   a service that refuses unknown request fields (unknownFields=refused, the default): every write sends only the
//   fields the API defines, whatever the service answered before.
// The readings' life cycles (test/readings/life-cycles.test.ts) run both in the second tier; these run in npm test.

const bodiesOf = (w: FlagWorld, mark: number) =>
  w.emu.journal
    .entries()
    .filter((e) => e.path.startsWith(FM_PREFIX))
    .slice(mark)
    .filter((e) => e.method !== "GET")
    .map((e) => e.body.toString("utf8"));

describe("E2 answered 204 No Content (environmentKeyBody=no-content)", () => {
  let w: FlagWorld;
  let app: string;
  beforeAll(async () => {
    w = await startFlagWorld({ emulator: { readings: { environmentKeyBody: "no-content" } } });
    app = (await w.fm.createApplication("no-content")).id;
  });
  afterAll(async () => {
    await w?.close();
  });

  it("creates the Environment with the key the service lists (read back after the write), and a refresh changes nothing", async () => {
    const mark = w.mark();
    const env = w.ff("environment", "staging", { applicationId: app, name: "Staging", description: "pre-production" });
    expect(await env.up()).toMatchObject({ op: "create" });
    const held = w.emu.state.environments(app).find((e) => e.name === "Staging")!;
    expect(env.state!.id).toBe(held.key);
    expect(env.state!.outputs).toMatchObject({ applicationId: app, name: "Staging", key: held.key, description: "pre-production" });
    // The key came from the service's list after the write, not from the answer.
    expect(lines(w.since(mark)).slice(-2)).toEqual([`PUT /applications/${app}/environments/key`, `GET /applications/${app}/environments`]);

    await w.nextDeployment();
    expect(await env.refresh()).toMatchObject({ changedFields: [] });
    expect(await env.up({ applicationId: app, name: "Staging", description: "the last stop" })).toMatchObject({ op: "update" });
    expect(env.state!.outputs).toMatchObject({ key: held.key, description: "the last stop" });
  });

  it("the client reads the environment back too", async () => {
    const created = await w.fm.createEnvironment(app, { name: "QA" });
    expect(created).toEqual(w.emu.state.environments(app).find((e) => e.name === "QA"));
  });
});

describe("answers carrying fields the API does not define (recordLinks=present, unknownFields=refused)", () => {
  let w: FlagWorld;
  let app: string;
  beforeAll(async () => {
    w = await startFlagWorld({ emulator: { readings: { recordLinks: "present" } } });
  });
  afterAll(async () => {
    await w?.close();
  });

  it("every feature-flag resource is created and updated without sending them back; reads keep them", async () => {
    const mark = w.mark();
    const application = w.lc.resource(TYPES.application, "app", w.texts.application, { name: "links" });
    await application.up();
    app = String(application.state!.outputs.applicationId);

    const environment = w.ff("environment", "env", { applicationId: app, name: "Staging", description: "one" });
    const group = w.ff("targetGroup", "group", { applicationId: app, name: "beta", conditions: [{ property: "beta", operator: "is-true" }] });
    const flag = w.ff("flag", "flag", { applicationId: app, name: "newCheckout" });
    const member = w.ff("teamMember", "member", { email: "links@example.com", name: "Links", applications: { [app]: { environments: { Production: "read" } } } });
    for (const r of [environment, group, flag, member]) expect(await r.up()).toMatchObject({ op: "create" });
    const configuration = w.ff("flagConfiguration", "configuration", {
      applicationId: app,
      environment: "Production",
      flag: "newCheckout",
      value: true,
      conditions: [{ group: { name: "beta" }, value: false }],
    });
    expect(await configuration.up()).toMatchObject({ op: "create" });

    // Each update sends back what the service holds and the program does not declare: the echo the reading refuses.
    await w.nextDeployment();
    expect(await environment.up({ applicationId: app, name: "Staging", description: "two" })).toMatchObject({ op: "update" });
    expect(await group.up({ applicationId: app, name: "beta", description: "testers", conditions: [{ property: "beta", operator: "is-true" }] })).toMatchObject({ op: "update" });
    expect(await configuration.up({ applicationId: app, environment: "Production", flag: "newCheckout", value: false })).toMatchObject({ op: "update" });
    expect(await flag.up({ applicationId: app, name: "newCheckout", isPermanent: true })).toMatchObject({ op: "update" });
    expect(await member.up({ email: "links@example.com", teamAdmin: true })).toMatchObject({ op: "update" });

    expect(writes(w.since(mark))).toEqual([
      "POST /applications",
      `PUT /applications/${app}/environments/key`,
      `PUT /applications/${app}/target-groups`,
      `PUT /applications/${app}/flags`,
      "PUT /users",
      `PUT /applications/${app}/Production/experiments`,
      `PUT /applications/${app}/environments/key`,
      `PUT /applications/${app}/target-groups`,
      `PUT /applications/${app}/Production/experiments`,
      `PUT /applications/${app}/Production/flags/newCheckout`,
      "PUT /users",
    ]);
    expect(w.since(mark).filter((e) => e.status >= 400)).toEqual([]);
    for (const body of bodiesOf(w, mark)) expect(body).not.toContain("_links");

    // The service holds what was declared, the rest as it was: nothing lost by leaving its own fields out.
    const held = w.emu.state.flags(app).find((f) => f.name === "newCheckout")!;
    expect(held.isPermanent).toBe(true);
    expect(held.configurations["Production"]).toMatchObject({ value: false, conditions: [{ group: { name: "beta" }, value: false }] });
    expect(w.emu.state.targetGroups(app).find((g) => g.name === "beta")).toMatchObject({ description: "testers", conditions: [{ property: "beta", operator: "is-true" }] });
    expect(w.emu.state.teamMembers("acme").find((m) => m.email === "links@example.com")).toMatchObject({ name: "Links", teamAdmin: true });

    // Reads keep what the service answered: the client's records carry the field, the refresh shows no change.
    expect((await w.fm.listExperiments(app, "Production"))[0]).toHaveProperty("_links");
    await w.nextDeployment();
    for (const r of [environment, group, flag, member, configuration]) expect(await r.refresh()).toMatchObject({ changedFields: [] });
  });

  it("a configuration sent back whole leaves out the service's own fields at every depth", async () => {
    await w.fm.createFlag(app, { name: "nested" });
    await w.fm.putExperiment(app, "Production", {
      type: "experiment",
      flag: "nested",
      value: true,
      conditions: [{ group: { name: "beta" }, value: false }],
      platforms: [{ name: "Android", conditions: [{ property: { name: "plan", operator: "eq", operand: "x" }, value: true }] }],
    });
    // The service's answer with fields of its own inside the conditions and platforms too.
    const answer = (await w.fm.listExperiments(app, "Production")).map((e) =>
      e.flag !== "nested"
        ? e
        : {
            ...e,
            conditions: e.conditions!.map((c) => ({ ...c, _id: "c1", group: { ...c.group!, _id: "g1" } })),
            platforms: e.platforms!.map((p) => ({ ...p, _id: "p1", conditions: p.conditions!.map((c) => ({ ...c, _id: "pc1" })) })),
          },
    );
    await w.nextDeployment();
    w.emu.faults.inject({ method: "GET", path: `${FM_PREFIX}applications/${app}/Production/experiments`, status: 200, body: JSON.stringify(answer), times: 1 });
    const mark = w.mark();
    // Only the value is declared: the conditions and platforms go back as the service holds them.
    const r = w.ff("flagConfiguration", "nested", { applicationId: app, environment: "Production", flag: "nested", value: false });
    expect(await r.up()).toMatchObject({ op: "create" });
    expect(writes(w.since(mark))).toEqual([`PUT /applications/${app}/Production/experiments`]);
    for (const body of bodiesOf(w, mark)) expect(body).not.toMatch(/"_id"|"_links"/);
    expect(w.emu.state.flags(app).find((f) => f.name === "nested")!.configurations["Production"]).toMatchObject({
      value: false,
      conditions: [{ group: { name: "beta" }, value: false }],
      platforms: [{ name: "Android", conditions: [{ property: { name: "plan", operator: "eq", operand: "x" }, value: true }] }],
    });
  });
});
