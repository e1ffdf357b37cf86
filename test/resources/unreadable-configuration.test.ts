/* istanbul ignore file */
import { ProviderHostError } from "../harness";
import { FM_PREFIX, startFlagWorld, writes, type FlagWorld } from "./feature-flag-helpers";

// One configuration the client cannot read never breaks the others (issue 39): the configurations of an environment
// refresh from its one experiment list, so an experiment in a form this version does not understand fails only the
// resource that manages it, naming its flag, its environment and the field; the others refresh as usual.
let w: FlagWorld;
let app: string;
beforeAll(async () => {
  w = await startFlagWorld();
  app = (await w.fm.createApplication("unreadable")).id;
  await w.fm.createFlag(app, { name: "fine" });
  await w.fm.createFlag(app, { name: "odd" });
  await w.fm.putTargetGroup(app, { type: "target-group", name: "beta", conditions: [{ property: "beta", operator: "is-true" }] });
});
afterAll(async () => {
  await w?.close();
});

it("refreshes every configuration it can read; the one it cannot fails alone, naming flag, environment and field", async () => {
  const fine = w.ff("flagConfiguration", "fine", { applicationId: app, environment: "Production", flag: "fine", value: true });
  const odd = w.ff("flagConfiguration", "odd", { applicationId: app, environment: "Production", flag: "odd", conditions: [{ group: { name: "beta" }, value: true }] });
  await fine.up();
  await odd.up();

  // The service answers `odd` with a group operator no version of this package knows.
  const answer = (await w.fm.listExperiments(app, "Production")).map((e) => (e.flag === "odd" ? { ...e, conditions: [{ group: { operator: "xor", name: "beta" }, value: true }] } : e));
  await w.nextDeployment();
  w.emu.faults.inject({ method: "GET", path: `${FM_PREFIX}applications/${app}/Production/experiments`, status: 200, body: JSON.stringify(answer), times: 1 });

  expect(await fine.refresh()).toMatchObject({ changedFields: [] });
  const error = (await odd.refresh().catch((e: unknown) => e)) as ProviderHostError;
  expect(error).toBeInstanceOf(ProviderHostError);
  expect(error.details).toMatch(
    /^reading FlagConfiguration \([^)]*\): the service holds the configuration of flag "odd" in environment "Production", in a form this version of pulumi-cloudbees cannot read \(conditions\[0\]\.group\.operator: [^)]*\); the other items of that list were read\. Fix: /,
  );
  // A write of it (create or update) would replace it whole, over what cannot be read: refused before any write.
  const mark = w.mark();
  const update = (await w.ff("flagConfiguration", "odd", { applicationId: app, environment: "Production", flag: "odd", value: false }).up().catch((e: unknown) => e)) as ProviderHostError;
  expect(update.details).toMatch(/the configuration of flag "odd" in environment "Production", in a form this version of pulumi-cloudbees cannot read/);
  expect(writes(w.since(mark))).toEqual([]);
  expect(await fine.up()).toMatchObject({ op: "same" });
});
