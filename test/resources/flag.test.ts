/* istanbul ignore file */
import { ProviderHostError } from "../harness";
import { startFlagWorld, writes, lines, type FlagWorld } from "./feature-flag-helpers";

// Flag through the real provider host against the emulator (rate limit on): create, refresh, a change by hand,
// update, replace (keeping the name: the old flag is deleted first), delete, takeover with zero writes.
let w: FlagWorld;
let app: string;
beforeAll(async () => {
  w = await startFlagWorld();
  app = (await w.fm.createApplication("flags")).id;
});
afterAll(async () => {
  await w?.close();
});

const flagsOf = () => w.emu.state.flags(app).map((f) => ({ name: f.name, availableValues: f.availableValues, isPermanent: f.isPermanent }));

describe("Flag life cycle", () => {
  it("creates the flag in every environment (one list to find it absent, one write)", async () => {
    const mark = w.mark();
    const f = w.ff("flag", "color", { applicationId: app, name: "color", availableValues: ["red", "green"] });
    expect(await f.up()).toMatchObject({ op: "create" });
    expect(f.state!.id).toBe(`${app}/color`);
    expect(f.state!.outputs).toMatchObject({ applicationId: app, name: "color", availableValues: ["red", "green"], isPermanent: false });
    expect(flagsOf()).toEqual([{ name: "color", availableValues: ["red", "green"], isPermanent: false }]);
    expect(lines(w.since(mark))).toEqual([`GET /applications/${app}/environments`, `GET /applications/${app}/Production/flags`, `PUT /applications/${app}/flags`]);

    // A refresh in the next deployment changes nothing; the same inputs in another order make no diff.
    await w.nextDeployment();
    expect(await f.refresh()).toMatchObject({ changedFields: [] });
    expect(await f.up({ applicationId: app, name: "color", availableValues: ["green", "red"] })).toMatchObject({ op: "same" });

    // Takeover: a second declaration of the same flag (same values, another order) writes nothing.
    const mark2 = w.mark();
    const twin = w.ff("flag", "color-twin", { applicationId: app, name: "color", availableValues: ["green", "red"] });
    await twin.up();
    expect(writes(w.since(mark2))).toEqual([]);
    expect(twin.state!.outputs).toMatchObject({ availableValues: ["green", "red"] });

    // Other values than the service's: fails with the fix, writing nothing.
    const clash = (await w.ff("flag", "clash", { applicationId: app, name: "color", availableValues: ["red", "blue"] }).up().catch((e: unknown) => e)) as ProviderHostError;
    expect(clash).toBeInstanceOf(ProviderHostError);
    expect(clash.details).toMatch(/^creating Flag "color": the application already has a flag "color" with availableValues \["red","green"\], and a flag's values cannot change\. Fix: declare availableValues: \["red","green"\]/);
    expect(writes(w.since(mark2))).toEqual([]);

    // Deleted by hand: the refresh drops it; the next up creates it again.
    await w.fm.deleteFlag(app, "color");
    await w.nextDeployment();
    expect(await f.refresh()).toMatchObject({ dropped: true });
    await f.up();
    expect(flagsOf().map((x) => x.name)).toEqual(["color"]);

    // A change of values keeps the name: the engine must delete the old flag first, or its late delete would remove
    // the new one. The provider says so (deleteBeforeReplace), and the flag exists at the end with the new values.
    const deferred: (() => Promise<void>)[] = [];
    const replaced = await f.up({ applicationId: app, name: "color", availableValues: ["red", "green", "blue"] }, { deferDelete: (d) => deferred.push(d) });
    expect(replaced).toMatchObject({ op: "replace", replaces: ["availableValues"], deleteBeforeReplace: true });
    for (const d of deferred) await d();
    expect(flagsOf()).toEqual([{ name: "color", availableValues: ["red", "green", "blue"], isPermanent: false }]);

    // Destroy deletes the flag.
    const mark3 = w.mark();
    await f.destroy();
    expect(writes(w.since(mark3))).toEqual([`DELETE /applications/${app}/flags/color`]);
    expect(flagsOf()).toEqual([]);
  });

  it("isPermanent changes in place, through the configuration the flag has (nothing else changes)", async () => {
    const f = w.ff("flag", "perm", { applicationId: app, name: "perm" });
    await f.up();
    await w.fm.putExperiment(app, "Production", { type: "experiment", flag: "perm", value: true, labels: ["kept"] });
    await w.nextDeployment();
    expect(await f.up({ applicationId: app, name: "perm", isPermanent: true })).toMatchObject({ op: "update" });
    const held = w.emu.state.flags(app).find((x) => x.name === "perm")!;
    expect(held.isPermanent).toBe(true);
    expect(held.configurations.Production).toMatchObject({ value: true, labels: ["kept"], enabled: true });
    expect(await f.refresh()).toMatchObject({ changedFields: [] });
  });

  it("a replacement on a connection change keeps the name: the old flag is deleted first and the flag exists at the end", async () => {
    const f = w.ff("flag", "conn", { applicationId: app, name: "conn" });
    await f.up();
    const deferred: (() => Promise<void>)[] = [];
    const replaced = await f.up({ applicationId: app, name: "conn", connection: "same" }, { deferDelete: (d) => deferred.push(d) });
    expect(replaced).toMatchObject({ op: "replace", replaces: ["connection"], deleteBeforeReplace: true });
    for (const d of deferred) await d();
    expect(flagsOf().map((x) => x.name)).toContain("conn");
  });

  it("never went over one request per second", () => {
    expect(w.since(0).filter((e) => e.status === 555)).toEqual([]);
  });
});
