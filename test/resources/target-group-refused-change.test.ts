/* istanbul ignore file */
import { ProviderHostError } from "../harness";
import { startFlagWorld, writes, type FlagWorld } from "./feature-flag-helpers";

// Under the reading putExistingTargetGroup=409 the service only creates target groups: T2 of an existing one is a
// conflict ("Target group 'beta' already exists"), and no other call changes one. A changed TargetGroup then fails
// at that resource alone, typed, with the server's words once and the ways out; the other resources of the update
// go on (issue 43). Through the real provider host, over HTTP.
let w: FlagWorld;
let app: string;
beforeAll(async () => {
  w = await startFlagWorld({ emulator: { readings: { putExistingTargetGroup: "409" } } });
  app = (await w.fm.createApplication("refused")).id;
  await w.fm.createFlag(app, { name: "newCheckout" });
});
afterAll(async () => {
  await w?.close();
});

const BETA = [{ property: "email", operator: "regex", operand: "@example\\.com$" }];

it("a change of an existing group fails that resource alone, naming the ways out, with the server's words said once", async () => {
  const group = w.ff("targetGroup", "beta", { applicationId: app, name: "beta", conditions: BETA });
  expect(await group.up()).toMatchObject({ op: "create" });
  const configuration = w.ff("flagConfiguration", "checkout", { applicationId: app, environment: "Production", flag: "newCheckout", conditions: [{ group: { name: "beta" }, value: true }] });
  await configuration.up();

  const mark = w.mark();
  const error = (await group.up({ applicationId: app, name: "beta", conditions: [...BETA, { property: "plan", operator: "eq", operand: "beta" }] }).catch((e: unknown) => e)) as ProviderHostError;
  expect(error).toBeInstanceOf(ProviderHostError);
  const message = error.details;
  expect(message).toMatch(/^updating TargetGroup "beta" \([^)]*\): the service refused to change the existing target group "beta" \(409, saying "Target group 'beta' already exists"\): /);
  expect(message).toContain("Fix: change the group in the CloudBees Feature Management UI");
  expect(message).toContain("or declare the changed group under a new name and point the flags' conditions at that name");
  expect(message.split("already exists")).toHaveLength(2);
  expect(writes(w.since(mark))).toEqual([`PUT /applications/${app}/target-groups`]);
  expect(w.emu.state.targetGroups(app).find((g) => g.name === "beta")?.conditions).toEqual(BETA);

  // The other resources go on: the configuration changes, and the group as it was still refreshes clean.
  expect(await configuration.up({ applicationId: app, environment: "Production", flag: "newCheckout", conditions: [{ group: { name: "beta" }, value: false }] })).toMatchObject({ op: "update" });
  expect(await group.refresh()).toMatchObject({ changedFields: [] });

  // The way out the message names: a group of a new name, which the service creates, and the flags pointed at it.
  const betaTwo = w.ff("targetGroup", "beta-2", { applicationId: app, name: "beta-2", conditions: [...BETA, { property: "plan", operator: "eq", operand: "beta" }] });
  expect(await betaTwo.up()).toMatchObject({ op: "create" });
  expect(await configuration.up({ applicationId: app, environment: "Production", flag: "newCheckout", conditions: [{ group: { name: "beta-2" }, value: false }] })).toMatchObject({ op: "update" });
});
