/* istanbul ignore file */
import { CheckFailedError, ProviderHostError } from "../harness";
import { lines, startFlagWorld, writes, type FlagWorld } from "./feature-flag-helpers";

// FlagConfiguration through the real provider host against the emulator. The flags, the Staging
// environment and the target group are made "in the UI" (the client) to keep the requests few.
let w: FlagWorld;
let app: string;
beforeAll(async () => {
  w = await startFlagWorld();
  app = (await w.fm.createApplication("checkout")).id;
  await w.fm.createEnvironment(app, { name: "Staging" });
  await w.fm.createFlag(app, { name: "newCheckout" });
  await w.fm.createFlag(app, { name: "color", availableValues: ["red", "green"] });
  await w.fm.putTargetGroup(app, { type: "target-group", name: "beta", conditions: [{ property: "beta", operator: "is-true" }] });
});
afterAll(async () => {
  await w?.close();
});

const configOf = (flag: string, env: string) => w.emu.state.flags(app).find((f) => f.name === flag)?.configurations[env];
const released = () => ({
  applicationId: app,
  environment: "Production",
  flag: "newCheckout",
  value: [{ option: true, percentage: 50 }],
  conditions: [{ group: { name: "beta" }, value: true }],
  labels: ["checkout"],
});

describe("FlagConfiguration life cycle", () => {
  it("creates, refreshes with no change, shows a change by hand as drift of that configuration only, corrects it without overwriting what was not declared", async () => {
    let mark = w.mark();
    const prod = w.ff("flagConfiguration", "prod", released());
    expect(await prod.up()).toMatchObject({ op: "create" });
    expect(prod.state!.id).toBe(`${app}/Production/newCheckout`);
    // The lists it needs (configurations, environments, flags, target groups: the group exists), then one write.
    expect(lines(w.since(mark))).toEqual([
      `GET /applications/${app}/Production/experiments`,
      `GET /applications/${app}/environments`,
      `GET /applications/${app}/Production/flags`,
      `GET /applications/${app}/target-groups`,
      `PUT /applications/${app}/Production/experiments`,
    ]);
    expect(configOf("newCheckout", "Production")).toMatchObject({ enabled: true, value: [{ option: true, percentage: 50 }], conditions: [{ group: { name: "beta" }, value: true }], labels: ["checkout"] });

    const staging = w.ff("flagConfiguration", "staging", { applicationId: app, environment: "Staging", flag: "color", value: "green" });
    await staging.up();

    await w.nextDeployment();
    expect(await prod.refresh()).toMatchObject({ changedFields: [] });
    expect(await staging.refresh()).toMatchObject({ changedFields: [] });
    expect(await prod.up()).toMatchObject({ op: "same" });

    // In the UI: targeting off (not declared: neither drift nor overwritten) and the default value changed (declared).
    await w.fm.patchExperiment(app, "Production", "newCheckout", [
      { op: "replace", path: "/enabled", value: false },
      { op: "replace", path: "/value", value: true },
    ]);
    await w.nextDeployment();
    expect(await prod.refresh()).toMatchObject({ changedFields: ["value"] });
    expect(prod.state!.inputs.value).toBe(true);
    expect(await staging.refresh()).toMatchObject({ changedFields: [] });

    mark = w.mark();
    expect(await prod.up(released())).toMatchObject({ op: "update", changedFields: ["value"] });
    expect(writes(w.since(mark))).toEqual([`PUT /applications/${app}/Production/experiments`]);
    expect(configOf("newCheckout", "Production")).toMatchObject({ enabled: false, value: [{ option: true, percentage: 50 }], labels: ["checkout"] });
    expect(await prod.refresh()).toMatchObject({ changedFields: [] });
  });

  it("conditions are ordered: a new order updates; the same meaning in another form does not", async () => {
    const r = w.ff("flagConfiguration", "chain", {
      applicationId: app,
      environment: "Staging",
      flag: "newCheckout",
      conditions: [
        { group: { name: "beta" }, value: true },
        { property: { name: "email", operator: "in-array", operand: ["a@x.com", "b@x.com"] }, value: false },
      ],
    });
    await r.up();
    const sameMeaning = {
      applicationId: app,
      environment: "Staging",
      flag: "newCheckout",
      conditions: [
        { group: { name: ["beta"], operator: "or" }, value: "true" },
        { property: { name: "email", operator: "in-array", operand: ["b@x.com", "a@x.com"] }, value: false },
      ],
    };
    expect(await r.up(sameMeaning)).toMatchObject({ op: "same" });
    const mark = w.mark();
    expect(await r.up({ ...sameMeaning, conditions: [sameMeaning.conditions[1], sameMeaning.conditions[0]] })).toMatchObject({ op: "update" });
    expect(writes(w.since(mark))).toEqual([`PUT /applications/${app}/Staging/experiments`]);
    expect(configOf("newCheckout", "Staging")!.conditions[0]).toMatchObject({ property: { name: "email" } });

    // Takeover: a second declaration of what the service holds writes nothing.
    const mark2 = w.mark();
    await w.ff("flagConfiguration", "chain-twin", { ...sameMeaning, conditions: [sameMeaning.conditions[1], sameMeaning.conditions[0]] }).up();
    expect(writes(w.since(mark2))).toEqual([]);

    // Destroy removes the configuration in that environment; the flag stays (the legacy rule).
    await r.destroy();
    expect(configOf("newCheckout", "Staging")).toBeUndefined();
    expect(w.emu.state.flags(app).map((f) => f.name)).toContain("newCheckout");
  });

  it("refuses before any write: a value outside the flag's values, a condition naming an unknown group or flag, an unknown flag", async () => {
    // A string flag takes a text outside its values (the service keeps one); a boolean it never takes.
    const badValue = { applicationId: app, environment: "Production", flag: "color", value: true };
    // A new deployment has not read the flag's values: check lets it through, create refuses it before any write.
    await w.nextDeployment();
    const mark = w.mark();
    const fail = async (name: string, inputs: Record<string, unknown>) =>
      ((await w.ff("flagConfiguration", name, inputs).up().catch((e: unknown) => e)) as ProviderHostError).details;
    expect(await fail("bad-value", badValue)).toMatch(
      /^creating FlagConfiguration "color" in "Production": value: value true is not one of the flag's available values \("red", "green"\)/,
    );
    expect(await fail("bad-group", { applicationId: app, environment: "Production", flag: "color", conditions: [{ group: { name: "gamma" }, value: "red" }] })).toMatch(
      /conditions name the target group "gamma", which application "\w+" does not have\. Fix: declare it as TargetGroup resources/,
    );
    expect(await fail("bad-dependency", { applicationId: app, environment: "Production", flag: "color", conditions: [{ dependency: { flag: "nope", value: true }, value: "red" }] })).toMatch(
      /conditions depend on "nope", which is no flag of application/,
    );
    expect(await fail("no-flag", { applicationId: app, environment: "Production", flag: "nope" })).toMatch(/flag "nope" does not exist in application "\w+"\. Fix: declare it/);
    expect(await fail("no-env", { applicationId: app, environment: "QA", flag: "color" })).toMatch(/has no environment "QA"/);
    // This deployment has read the flag's values now: check (preview) refuses it, naming the input.
    const checked = (await w.ff("flagConfiguration", "bad-value-2", badValue).up().catch((e: unknown) => e)) as CheckFailedError;
    expect(checked.failures).toEqual([{ property: "value", reason: 'value: value true is not one of the flag\'s available values ("red", "green"): use one of them' }]);
    expect(writes(w.since(mark))).toEqual([]);
  });

  it("a connection change replaces with the same identity: the old configuration is removed first, and it exists at the end", async () => {
    const r = w.ff("flagConfiguration", "conn", { applicationId: app, environment: "Staging", flag: "color", value: "red" });
    await r.up();
    const deferred: (() => Promise<void>)[] = [];
    const replaced = await r.up({ applicationId: app, environment: "Staging", flag: "color", value: "red", connection: "same" }, { deferDelete: (d) => deferred.push(d) });
    expect(replaced).toMatchObject({ op: "replace", replaces: ["connection"], deleteBeforeReplace: true });
    for (const d of deferred) await d();
    expect(configOf("color", "Staging")).toMatchObject({ value: "red" });
  });

  it("value null (the code's default) is a value: written over another, read back without a change", async () => {
    await w.fm.putExperiment(app, "Production", { type: "experiment", flag: "color", value: "red", labels: ["kept"] });
    await w.nextDeployment();
    const r = w.ff("flagConfiguration", "null-value", { applicationId: app, environment: "Production", flag: "color", value: null });
    await r.up();
    expect(configOf("color", "Production")).toMatchObject({ value: null, labels: ["kept"] });
    await w.nextDeployment();
    expect(await r.refresh()).toMatchObject({ changedFields: [] });
  });
});
