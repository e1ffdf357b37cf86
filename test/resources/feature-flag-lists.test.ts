/* istanbul ignore file */
import type { ManagedResource } from "../harness";
import { lines, startFlagWorld, writes, type FlagWorld } from "./feature-flag-helpers";

// One request per second, spent well (issue 15, item 6): within one deployment one list per application and
// environment serves every read and every takeover, and writes update the lists from their answers. A stack of 2
// environments, a target group, 3 flags and their 6 configurations, through the real provider host (rate limit on).
let w: FlagWorld;
let app: string;
beforeAll(async () => {
  w = await startFlagWorld();
  app = (await w.fm.createApplication("lists")).id;
});
afterAll(async () => {
  await w?.close();
});

const FLAGS = ["a", "b", "c"];
const ENVS = ["Production", "Staging"];
let stack: ManagedResource[] = [];

describe("feature-flag lists shared within a deployment", () => {
  it("creating the stack reads each list once and writes each object once", async () => {
    const mark = w.mark();
    const envs = ENVS.map((name) => w.ff("environment", name, { applicationId: app, name }));
    const group = w.ff("targetGroup", "beta", { applicationId: app, name: "beta", conditions: [{ property: "beta", operator: "is-true" }] });
    const flags = FLAGS.map((name) => w.ff("flag", name, { applicationId: app, name }));
    const configs = FLAGS.flatMap((flag) =>
      ENVS.map((environment) =>
        w.ff("flagConfiguration", `${flag}-${environment}`, { applicationId: app, environment, flag, conditions: [{ group: { name: "beta" }, value: true }], value: environment === "Staging" }),
      ),
    );
    stack = [...envs, group, ...flags, ...configs];
    // In dependency order, as the engine would: environments, group and flags before the configurations.
    for (const r of [...envs, group, ...flags]) await r.up();
    await Promise.all(configs.map((r) => r.up()));
    const sent = w.since(mark);
    expect(writes(sent)).toHaveLength(1 + 1 + 3 + 6);
    expect(lines(sent.filter((e) => e.method === "GET")).sort()).toEqual(
      [
        `GET /applications/${app}/environments`,
        `GET /applications/${app}/target-groups`,
        `GET /applications/${app}/Production/flags`,
        `GET /applications/${app}/Production/experiments`,
        `GET /applications/${app}/Staging/experiments`,
      ].sort(),
    );
    expect(w.emu.state.flags(app).map((f) => Object.keys(f.configurations).sort())).toEqual([ENVS.slice().sort(), ENVS.slice().sort(), ENVS.slice().sort()]);
  });

  it("a refresh of the 12 resources (6 configurations) in a new deployment costs 5 requests: environments, flags, one experiment list per environment, target groups", async () => {
    await w.nextDeployment();
    const mark = w.mark();
    const refreshed = await Promise.all(stack.map((r) => r.refresh()));
    expect(refreshed.map((e) => e.changedFields)).toEqual(stack.map(() => []));
    const sent = w.since(mark);
    expect(lines(sent).sort()).toEqual(
      [
        `GET /applications/${app}/environments`,
        `GET /applications/${app}/Production/flags`,
        `GET /applications/${app}/Production/experiments`,
        `GET /applications/${app}/Staging/experiments`,
        `GET /applications/${app}/target-groups`,
      ].sort(),
    );
  });

  it("a second up sends nothing", async () => {
    await w.nextDeployment();
    const mark = w.mark();
    for (const r of stack) expect(await r.up()).toMatchObject({ op: "same" });
    expect(w.since(mark)).toEqual([]);
  });

  it("never went over one request per second", () => {
    expect(w.since(0).filter((e) => e.status === 555)).toEqual([]);
  });
});
