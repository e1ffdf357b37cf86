/**
 * What the vendor's SDK (rox-node 6.0.16, through startRoxClient and its loopback guard) makes of the forms the real
 * service wrote (issue 39; the corpus is test/fixtures/real-experiments), as the emulator serves them. rox-node's Rox
 * is one per process: one client for this file.
 */
import { startRoxClient, type RoxClient, type RoxSdk } from "../../testing";
import { startFlagSetup, type FlagSetup } from "../emulator/feature-flag-setup";
import { installTripwire, isLoopbackTarget, type Tripwire } from "./network-tripwire";

let tripwire: Tripwire;
let s: FlagSetup;
let sdk: RoxClient;
const PROD = "Production";

beforeAll(async () => {
  tripwire = installTripwire();
  s = await startFlagSetup();
  const app = await s.newApplication("real-forms");
  const key = s.emu.state.environments(app)[0]!.key;
  const put = (flag: string, more: Record<string, unknown>) => s.client.putExperiment(app, PROD, { type: "experiment", flag, ...more });
  await s.client.putTargetGroup(app, { type: "target-group", name: "staff", conditions: [{ property: "email", operator: "regex", operand: "@cloudbees\\.com$" }] });
  // The group the service kept with the pattern JavaScript cannot compile (target_groups/Internal Tester.yml).
  await s.client.putTargetGroup(app, { type: "target-group", name: "Internal Tester", conditions: [{ property: "email", operator: "regex", operand: "*@cloudbees.com" }] });
  await put("schedule.with.option", { value: [{ from: "2001-01-01T00:00:00.000Z", percentage: 100, option: true }] });
  await put("all.users", { conditions: [{ value: true }], value: false });
  await put("nor.staff", { conditions: [{ group: { operator: "nor", name: ["staff"] }, value: true }], value: false });
  await put("no.value", { conditions: [{ group: { name: "staff" } }], value: true });
  await put("never.version", { conditions: [{ version: { operator: "semver-gte", semver: null }, value: true }], value: false });
  await put("bad.group", { conditions: [{ group: { name: "Internal Tester" }, value: true }], value: false });
  // default.followingComponent (e3aa286): the pattern in the flag's own condition, before an "All users" rule.
  await put("bad.property", { conditions: [{ property: { name: "email", operator: "regex", operand: "*@cloudbees.com" }, value: false }, { value: true }], value: true });
  sdk = await startRoxClient({ roxyUrl: s.emu.roxyUrl(key), rox: require("rox-node") as RoxSdk });
});
afterAll(async () => {
  await sdk?.close();
  await s?.close();
  tripwire?.restore();
});

const staff = { email: "ann@cloudbees.com" };
const other = { email: "bob@example.com" };

it("a schedule entry's option, the All users rule, nor, a condition without value, a null version", () => {
  expect([sdk.isEnabled("schedule.with.option", other), sdk.isEnabled("all.users", other)]).toEqual([true, true]);
  expect([sdk.isEnabled("nor.staff", staff), sdk.isEnabled("nor.staff", other)]).toEqual([false, true]);
  // No value: the flag's off value for the group's members; the others get the default value.
  expect([sdk.isEnabled("no.value", staff), sdk.isEnabled("no.value", other)]).toEqual([false, true]);
  expect(sdk.isEnabled("never.version", other)).toBe(false);
});

it("a regex JavaScript cannot compile: the group matches nobody; in a flag's own condition the whole flag is false", () => {
  const errors = jest.spyOn(console, "error").mockImplementation(() => undefined);
  try {
    expect([sdk.isEnabled("bad.group", staff), sdk.isEnabled("bad.group", { email: "*@cloudbees.com" })]).toEqual([false, false]);
    // The "All users: true" rule after it and the default value true never apply: the evaluation fails as a whole.
    expect([sdk.isEnabled("bad.property", staff, true), sdk.isEnabled("bad.property", other, true)]).toEqual([false, false]);
  } finally {
    errors.mockRestore();
  }
});

it("reached only the emulator", () => {
  expect(sdk.guard().refused).toBe(0);
  expect(tripwire.connections().length).toBeGreaterThan(0);
  expect(tripwire.connections().filter((c) => !isLoopbackTarget(c))).toEqual([]);
});
