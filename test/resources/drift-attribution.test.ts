/* istanbul ignore file */
import type { FeatureManagementClient } from "../../provider";
import { featureManagementClientAs } from "../../testing";
import { startFlagWorld, type FlagWorld } from "./feature-flag-helpers";

// Issue 29: a refresh that finds a feature-flag resource changed names who changed it, when and how, from the audit
// log (L1 of ../shared/notes/feature-management-api.md: GET .../{env}/auditlogs?startDate=, at most 30 records a
// call, oldest first). One read per application environment per deployment, only when drift was found.
let w: FlagWorld;
let app: string;
let alice: FeatureManagementClient;
beforeAll(async () => {
  w = await startFlagWorld();
  app = (await w.fm.createApplication("drift")).id;
  await w.fm.createEnvironment(app, { name: "Staging", description: "pre-production" });
  alice = featureManagementClientAs(w.emu, { email: "alice@example.com", name: "Alice" });
});
afterAll(async () => {
  await alice?.close();
  await w?.close();
});

const AUDIT = /\/auditlogs$/;
const auditReads = (mark: number) => w.since(mark).filter((e) => AUDIT.test(e.path)).map((e) => e.path);
/** The newest record's time, to the second, of the environment's log. */
const newest = (environment: string) => w.emu.state.auditLogs(app, environment).at(-1)!.creation_date.replace(/\.\d{3}Z$/, "Z");

async function warnings(): Promise<string[]> {
  await new Promise((r) => setTimeout(r, 50));
  return w.host
    .takeOutput()
    .split("\n")
    .filter((l) => l.startsWith("warning: "))
    .map((l) => l.slice("warning: ".length));
}

it("Environment and TargetGroup changed by a colleague: one warning each naming her; app-wide objects read the first environment's log; one read per environment", async () => {
  const staging = w.ff("environment", "staging", { applicationId: app, name: "Staging", description: "pre-production" });
  const group = w.ff("targetGroup", "beta", { applicationId: app, name: "beta", conditions: [{ property: "beta", operator: "is-true" }] });
  const flag = w.ff("flag", "flag", { applicationId: app, name: "checkout.newFlow" });
  const config = w.ff("flagConfiguration", "config", { applicationId: app, environment: "Staging", flag: "checkout.newFlow", value: true });
  for (const r of [staging, group, flag, config]) await r.up();

  await alice.createEnvironment(app, { name: "Staging", description: "Alice's now" });
  const stagingChange = newest("Staging");
  await alice.putTargetGroup(app, { type: "target-group", name: "beta", conditions: [{ property: "beta", operator: "is-false" }] });
  const groupChange = newest("Production");
  await alice.putExperiment(app, "Staging", { type: "experiment", flag: "checkout.newFlow", name: "checkout.newFlow", value: false });
  await alice.patchExperiment(app, "Staging", "checkout.newFlow", [{ op: "replace", path: "/enabled", value: false }]);
  const configChange = newest("Staging");

  await w.nextDeployment();
  w.host.takeOutput();
  const mark = w.mark();
  expect(await staging.refresh()).toMatchObject({ changedFields: ["description"] });
  expect(await group.refresh()).toMatchObject({ changedFields: ["conditions"] });
  expect(await flag.refresh()).toMatchObject({ changedFields: [] });
  expect(await config.refresh()).toMatchObject({ changedFields: ["value"] });
  expect((await warnings()).sort()).toEqual([
    `Environment Staging changed outside this stack by "alice@example.com" at ${stagingChange}: "updated environment"`,
    `FlagConfiguration checkout.newFlow/Staging changed outside this stack by "alice@example.com" at ${configChange}: "turned targeting off" (2 changes since this stack's last write at ${config.state!.outputs.writtenAt as string})`,
    `TargetGroup beta changed outside this stack by "alice@example.com" at ${groupChange}: "updated target group"`,
  ]);
  // The target group is app-wide: the first environment's log (Production); Staging's log serves two resources.
  expect(auditReads(mark).sort()).toEqual([`/applications/${app}/Production/auditlogs`, `/applications/${app}/Staging/auditlogs`]);
  // A refresh moves no writtenAt: the warning would repeat only if the state kept the old values.
  expect(config.state!.outputs.writtenAt).toMatch(/Z$/);

  // A flag deleted outside: dropped, naming who.
  await alice.deleteFlag(app, "checkout.newFlow");
  await w.nextDeployment();
  w.host.takeOutput();
  expect(await flag.refresh()).toMatchObject({ dropped: true });
  expect(await warnings()).toEqual([`Flag checkout.newFlow removed outside this stack by "alice@example.com" at ${newest("Production")}: "deleted flag"`]);
});

it("a log with more than a page of records since the last write is read page after page; the newest matching record is named", async () => {
  const group = w.ff("targetGroup", "paged", { applicationId: app, name: "paged", conditions: [{ property: "paged", operator: "is-true" }] });
  await group.up();
  // 35 other changes in Production, then the group's: 36 records, two pages of 30.
  for (let i = 0; i < 35; i++) await alice.putTargetGroup(app, { type: "target-group", name: `other-${i}`, conditions: [{ property: "x", operator: "is-true" }] });
  await alice.putTargetGroup(app, { type: "target-group", name: "paged", description: "by Alice", conditions: [{ property: "paged", operator: "is-false" }] });
  const change = newest("Production");
  await w.nextDeployment();
  w.host.takeOutput();
  const mark = w.mark();
  await group.refresh();
  expect(await warnings()).toEqual([`TargetGroup paged changed outside this stack by "alice@example.com" at ${change}: "updated target group"`]);
  expect(auditReads(mark)).toEqual([`/applications/${app}/Production/auditlogs`, `/applications/${app}/Production/auditlogs`]);
});

it("a log without a matching record says so; either way the refresh itself succeeds", async () => {
  const group = w.ff("targetGroup", "quiet", { applicationId: app, name: "quiet", conditions: [{ property: "quiet", operator: "is-true" }] });
  await group.up();
  await alice.putTargetGroup(app, { type: "target-group", name: "quiet", conditions: [{ property: "quiet", operator: "is-false" }] });
  // A service whose log has nothing for it (another kind of record, or none kept).
  w.emu.faults.inject({ method: "GET", path: `/feature-management/public-api/applications/${app}/Production/auditlogs`, status: 200, body: "[]" });
  await w.nextDeployment();
  w.host.takeOutput();
  expect(await group.refresh()).toMatchObject({ changedFields: ["conditions"] });
  const [warning] = await warnings();
  expect(warning).toMatch(
    /^TargetGroup quiet changed outside this stack; the audit log of environment "Production" has no entry for it since \d{4}-\d\d-\d\dT[\d:.]+Z, so who changed it cannot be told$/,
  );
});

it("two spellings of one environment share its one audit-log read", async () => {
  await w.fm.createFlag(app, { name: "spelled.a" });
  await w.fm.createFlag(app, { name: "spelled.b" });
  const a = w.ff("flagConfiguration", "spelled-a", { applicationId: app, environment: "Production", flag: "spelled.a", value: true });
  const b = w.ff("flagConfiguration", "spelled-b", { applicationId: app, environment: "production", flag: "spelled.b", value: true });
  await a.up();
  await b.up();
  await alice.patchExperiment(app, "Production", "spelled.a", [{ op: "replace", path: "/value", value: false }]);
  await alice.patchExperiment(app, "Production", "spelled.b", [{ op: "replace", path: "/value", value: false }]);
  await w.nextDeployment();
  w.host.takeOutput();
  const mark = w.mark();
  await Promise.all([a.refresh(), b.refresh()]);
  expect((await warnings()).map((x) => x.replace(/ at \S+: /, " at <time>: ")).sort()).toEqual([
    'FlagConfiguration spelled.a/Production changed outside this stack by "alice@example.com" at <time>: "updated flag configuration"',
    'FlagConfiguration spelled.b/production changed outside this stack by "alice@example.com" at <time>: "updated flag configuration"',
  ]);
  expect(auditReads(mark)).toHaveLength(1);
});
