/**
 * Issue 16's "done when": flags declared in a Pulumi program (test/fixtures/flags-program), `up` through the real
 * provider host (ProgramTest), then the vendor's own SDK (rox-node@6.0.16, through startRoxClient and its loopback
 * guard) evaluates what the emulator serves for the environment. rox-node's Rox is one per process: this file has
 * one client, one program, and runs its steps in order.
 *
 * The provider spaces its feature-flag requests one second apart (the service's limit): each `up` costs seconds.
 */
import * as path from "node:path";
import { changesOf, ProgramTest, startRoxClient, type RoxClient, type RoxContext } from "../../testing";
import { installTripwire, isLoopbackTarget, type Tripwire } from "./network-tripwire";

const PROGRAM = path.resolve(__dirname, "..", "fixtures", "flags-program");
const STEP_MS = 180_000;

let tripwire: Tripwire;
let test: ProgramTest;
let sdk: RoxClient;
let environmentKey: string;

beforeAll(async () => {
  tripwire = installTripwire();
  test = await ProgramTest.start({ dir: PROGRAM });
}, STEP_MS);
afterAll(async () => {
  await sdk?.close();
  await test?.close();
  tripwire?.restore();
}, STEP_MS);

const ids = (n: number) => Array.from({ length: n }, (_, i) => `user-${i}`);
const on = (flag: string, context: RoxContext = {}, codeDefault = false) => sdk.isEnabled(flag, context, codeDefault);

describe("what the application sees after `up` (rox-node evaluating the emulator's configuration)", () => {
  it("up creates the application, Staging, the target group and five configured flags", async () => {
    const plan = await test.up();
    expect(plan.filter((e) => e.op === "create")).toHaveLength(13);
    environmentKey = test.outputs()["environmentKey"] as string;
    expect(environmentKey).toMatch(/^[0-9a-f]{24}$/);

    sdk = await startRoxClient({ roxyUrl: test.emulator.roxyUrl(environmentKey) });
    // rox-node reads these device properties from the device, not the call: read them from the context instead, so
    // that one process plays many users (rox-node: getDefaultCustomProperties, CustomProperty.getValue(context)).
    sdk.rox.setCustomStringProperty("rox.distinct_id", (ctx) => ctx?.["userId"] as string | undefined);
    sdk.rox.setCustomSemverProperty("rox.app_release", (ctx) => (ctx?.["version"] as string | undefined) ?? "1.0.0");
    sdk.rox.setCustomDateProperty("rox.now", (ctx) => (ctx?.["now"] as Date | undefined) ?? new Date());
  }, STEP_MS);

  it("a boolean flag released to a target group (regex and in-array on custom properties): true for members only", () => {
    expect(on("checkout.new", { email: "ann@beta.example.com" })).toBe(true);
    expect(on("checkout.new", { team: "ops" })).toBe(true);
    expect(on("checkout.new", { email: "bob@example.com", team: "sales" })).toBe(false);
    expect(on("checkout.new", {})).toBe(false);
  });

  it("enabled: false gives the off value to everyone, whatever the configured value and the code default", () => {
    expect([on("checkout.paused", { team: "ops" }, true), on("checkout.paused", { userId: "u" }, false)]).toEqual([false, false]);
  });

  it("a 50 % split: true for 40-60 % of 1,000 ids, and the same id always gets the same value", () => {
    const first = ids(1000).map((userId) => on("rollout.half", { userId }));
    const share = first.filter(Boolean).length / 1000;
    expect(share).toBeGreaterThanOrEqual(0.4);
    expect(share).toBeLessThanOrEqual(0.6);
    expect(ids(1000).map((userId) => on("rollout.half", { userId }))).toEqual(first);
  });

  it("a scheduled value: false before its date, true after (dates decades apart: no clock race)", () => {
    expect(on("launch", { now: new Date("2000-06-01T00:00:00Z") }, true)).toBe(false);
    expect(on("launch", { now: new Date("2001-01-01T00:00:01Z") })).toBe(true);
    expect(on("launch")).toBe(true);
  });

  it("a string flag with a version condition and a dependency on another flag gives the declared values", () => {
    const theme = (context: RoxContext) => sdk.getString("ui.theme", "code-default", context);
    expect(theme({ version: "2.1.0", email: "ann@beta.example.com" })).toBe("neon");
    expect(theme({ version: "2.1.0", email: "bob@example.com" })).toBe("dark");
    expect(theme({ version: "1.9.9", email: "ann@beta.example.com" })).toBe("light");
  });

  it("after the program changes a value and up runs, Rox.fetch() shows the new value", async () => {
    const old = { version: "1.0.0" };
    expect(sdk.getString("ui.theme", "code-default", old)).toBe("light");
    test.runner.setConfig("flags:themeDefault", "dark");
    const plan = await test.up();
    expect(changesOf(plan).map((e) => [e.op, e.name])).toEqual([["update", "staging-ui.theme"]]);
    // The SDK has what it fetched last, until it fetches again.
    expect(sdk.getString("ui.theme", "code-default", old)).toBe("light");
    await sdk.fetch();
    expect(sdk.getString("ui.theme", "code-default", old)).toBe("dark");
  }, STEP_MS);

  it("after destroy, the SDK's default from code applies", async () => {
    const plan = await test.destroy();
    expect(plan.filter((e) => e.op === "delete").length).toBeGreaterThanOrEqual(11);
    await sdk.fetch();
    expect([on("checkout.new", { team: "ops" }, false), on("checkout.new", { team: "ops" }, true)]).toEqual([false, true]);
    expect(sdk.getString("ui.theme", "code-default", { version: "2.1.0" })).toBe("code-default");
    expect(on("launch", {}, false)).toBe(false);
    expect(test.emulator.state.flags(test.emulator.state.applications("acme")[0]!.id)).toEqual([]);
  }, STEP_MS);

  it("the guard counted every SDK request and refused none; no connection of this process left loopback", () => {
    expect(sdk.guard()).toEqual({ allowed: 3, refused: 0, refusedUrls: [] });
    expect(tripwire.connections().length).toBeGreaterThan(0);
    expect(tripwire.connections().filter((c) => !isLoopbackTarget(c))).toEqual([]);
  });
});
