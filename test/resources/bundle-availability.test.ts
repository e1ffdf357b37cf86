/* istanbul ignore file */
import * as fs from "node:fs";
import * as path from "node:path";
import { CheckFailedError, ProviderHostError, UNKNOWN, type ManagedResource } from "../harness";
import { cascSnapshot, copyBundles, requests, startWorld, TYPES, type World } from "./helpers";

let w: World;
let bundlesDir: string;

beforeAll(async () => {
  bundlesDir = copyBundles();
  w = await startWorld({ emulator: { bundlesDir } });
});
afterAll(async () => {
  await w?.close();
  fs.rmSync(bundlesDir, { recursive: true, force: true });
});

const availability = (name: string, inputs: Record<string, unknown>): ManagedResource =>
  w.lc.resource(TYPES.bundleAvailability, name, w.texts.bundleAvailability, inputs);
const apiPatterns = () => w.emu.state.apiAvailabilityPatterns();
const listed = async (bundle: string) => (await w.oc.listBundles()).find((b) => b.name === bundle);

describe("BundleAvailability life cycle through the real provider host", () => {
  let r: ManagedResource;

  it("creates from a list of controllers: sets the anchored, escaped pattern; the state is the pattern alone", async () => {
    r = availability("team-b", { bundleId: "team-b", controllers: ["team-b/controller-b", "sandbox"] });
    expect(await r.up()).toEqual({ urn: r.urn, name: "team-b", type: r.type, op: "create", changedFields: ["bundleId", "controllers"] });
    expect(r.state!.id).toBe("bundle-availability/team-b");
    expect(apiPatterns()["team-b"]).toBe("^(?:sandbox|team-b/controller-b)$");
    expect(r.state!.outputs).toEqual({
      bundleId: "team-b",
      controllers: ["team-b/controller-b", "sandbox"],
      regex: "^(?:sandbox|team-b/controller-b)$",
      __provider: w.texts.bundleAvailability,
    });
    // The operations center agrees.
    expect((await listed("team-b"))!.availableFor).toEqual(["sandbox", "team-b/controller-b"]);
  });

  it("reads back the same state, and the same inputs (in any order, with duplicates) make no diff", async () => {
    const before = r.state!;
    expect(await r.refresh()).toEqual({ urn: r.urn, name: "team-b", type: r.type, op: "refresh", changedFields: [] });
    expect(r.state).toEqual(before);
    expect(await r.up()).toEqual({ urn: r.urn, name: "team-b", type: r.type, op: "same", changedFields: [] });
    expect(await r.up({ bundleId: "team-b", controllers: ["sandbox", "team-b/controller-b", "sandbox"] })).toMatchObject({ op: "same" });
  });

  it("shows a pattern changed outside Pulumi on refresh (still as controllers), and up puts it back", async () => {
    await w.oc.setAvailabilityPattern("team-b", "^(?:sandbox)$");
    // A provider host keeps its bundle list for the deployment: the drift shows in the next one.
    await w.nextDeployment();
    const refreshed = await r.refresh();
    expect(refreshed.changedFields).toEqual(["controllers", "regex"]);
    expect(r.state!.inputs).toMatchObject({ bundleId: "team-b", controllers: ["sandbox"] });
    expect(r.state!.inputs).not.toHaveProperty("regex");
    expect(r.state!.outputs).toMatchObject({ regex: "^(?:sandbox)$", controllers: ["sandbox"] });

    const desired = { bundleId: "team-b", controllers: ["team-b/controller-b", "sandbox"] };
    expect(await r.preview(desired)).toMatchObject({ op: "update", changedFields: ["controllers"], replaces: [] });
    expect(await r.up(desired)).toMatchObject({ op: "update" });
    expect(apiPatterns()["team-b"]).toBe("^(?:sandbox|team-b/controller-b)$");
    expect((await listed("team-b"))!.availableFor).toEqual(["sandbox", "team-b/controller-b"]);
  });

  it("shows a pattern of another form as regex drift", async () => {
    await w.oc.setAvailabilityPattern("team-b", "team-b/.*");
    await w.nextDeployment();
    await r.refresh();
    expect(r.state!.inputs).toMatchObject({ bundleId: "team-b", regex: "team-b/.*" });
    expect(r.state!.inputs).not.toHaveProperty("controllers");
    expect(await r.up()).toMatchObject({ op: "update", changedFields: ["controllers", "regex"] });
    expect(apiPatterns()["team-b"]).toBe("^(?:sandbox|team-b/controller-b)$");
  });

  it("updates in place when the pattern changes, from controllers to a regex too", async () => {
    expect(await r.up({ bundleId: "team-b", regex: "team-b/.*|sandbox" })).toMatchObject({ op: "update", replaces: [] });
    expect(apiPatterns()["team-b"]).toBe("team-b/.*|sandbox");
    expect(r.state!.id).toBe("bundle-availability/team-b");
    expect(r.state!.outputs).not.toHaveProperty("controllers");
    expect(r.state!.outputs).toMatchObject({ regex: "team-b/.*|sandbox" });
    expect(await r.up()).toMatchObject({ op: "same" });
  });

  it("previews unknown values as changes (a bundleId not known yet as a replace), never as check failures", async () => {
    expect(await r.preview({ bundleId: "team-b", regex: UNKNOWN })).toMatchObject({ op: "update", replaces: [] });
    expect(await r.preview({ bundleId: "team-b", controllers: UNKNOWN })).toMatchObject({ op: "update" });
    expect(await r.preview({ bundleId: "team-b", controllers: ["sandbox", UNKNOWN] })).toMatchObject({ op: "update" });
    expect(await r.preview({ bundleId: UNKNOWN, regex: "sandbox" })).toMatchObject({ op: "replace", replaces: ["bundleId"] });
    const fresh = availability("fresh", { bundleId: UNKNOWN, regex: UNKNOWN });
    expect(await fresh.preview()).toMatchObject({ op: "create" });
    expect(apiPatterns()["team-b"]).toBe("team-b/.*|sandbox");
  });

  it("replaces when bundleId changes: the new bundle gets the pattern, the old one's is cleared", async () => {
    expect(await r.up({ bundleId: "base", regex: "sandbox" })).toMatchObject({
      op: "replace",
      replaces: ["bundleId"],
      deleteBeforeReplace: false,
    });
    expect(r.state!.id).toBe("bundle-availability/base");
    expect(apiPatterns()).toEqual({ base: "sandbox" });
    expect((await listed("base"))!.availableFor).toEqual(["sandbox"]);
  });

  it("deletes: the API pattern is cleared", async () => {
    expect(await r.destroy()).toMatchObject({ op: "delete" });
    expect(apiPatterns()).toEqual({});
    expect((await listed("base"))!.regex).toBe("");
  });
});

describe("BundleAvailability on a bundle whose bundle.yaml has a pattern", () => {
  it("overrides it, and delete lets bundle.yaml's apply again", async () => {
    expect((await listed("team-a"))!).toMatchObject({ regex: "team-a/.*", availabilityPatternFromYaml: true });
    const r = availability("team-a", { bundleId: "team-a", controllers: ["sandbox"] });
    await r.up();
    expect(r.state!.outputs).toMatchObject({ regex: "^(?:sandbox)$" });
    expect((await listed("team-a"))!).toMatchObject({ availabilityPatternFromYaml: false, availableFor: ["sandbox"] });
    await r.destroy();
    expect((await listed("team-a"))!).toMatchObject({ regex: "team-a/.*", availabilityPatternFromYaml: true });
  });

  it("a pattern cleared outside Pulumi drops the resource on refresh; the next up sets it again", async () => {
    const r = availability("team-a-cleared", { bundleId: "team-a", controllers: ["sandbox"] });
    await r.up();
    await w.oc.clearAvailabilityPattern("team-a");
    await w.nextDeployment();
    expect(await r.refresh()).toEqual({ urn: r.urn, name: "team-a-cleared", type: r.type, op: "refresh", changedFields: [], dropped: true });
    expect(r.state).toBeUndefined();
    expect(await r.up()).toMatchObject({ op: "create" });
    expect(apiPatterns()["team-a"]).toBe("^(?:sandbox)$");
    await r.destroy();
  });
});

describe("BundleAvailability takeover", () => {
  it("create (and update) of a pattern the server already holds reads and records it, with no write", async () => {
    await w.oc.setAvailabilityPattern("base", "^(?:sandbox|team-a/controller-a)$");
    await w.nextDeployment(); // a provider host reads the list once per deployment
    w.emu.journal.clear();
    const r = availability("taken-over", { bundleId: "base", controllers: ["team-a/controller-a", "sandbox"] });
    expect(await r.up()).toMatchObject({ op: "create" });
    expect(w.emu.journal.entries().map((e) => `${e.method} ${e.path}`)).toEqual(["GET /cjoc/casc-bundle/list"]);
    expect(r.state!.outputs).toMatchObject({ regex: "^(?:sandbox|team-a/controller-a)$", controllers: ["team-a/controller-a", "sandbox"] });
    expect(await r.refresh()).toMatchObject({ changedFields: [] });

    // Someone sets the pattern the program is about to ask for: the update finds it there.
    await w.oc.setAvailabilityPattern("base", "sandbox");
    await w.nextDeployment();
    w.emu.journal.clear();
    expect(await r.up({ bundleId: "base", regex: "sandbox" })).toMatchObject({ op: "update" });
    expect(requests(w.emu, "POST", "/cjoc/casc-bundle/set-availability-pattern")).toBe(0);
    await r.destroy();
  });

  it("a state written by 0.1 (availableFor, usedBy, availabilityPatternFromYaml) loses them at the next refresh, once", async () => {
    const r = availability("from-0.1", { bundleId: "base", regex: "sandbox" });
    await r.up();
    r.state = { ...r.state!, outputs: { ...r.state!.outputs, availableFor: ["sandbox"], usedBy: [], availabilityPatternFromYaml: false } };
    expect(await r.up()).toMatchObject({ op: "same" });
    expect(await r.refresh()).toMatchObject({ changedFields: ["availabilityPatternFromYaml", "availableFor", "usedBy"] });
    expect(await r.refresh()).toMatchObject({ changedFields: [] });
    await r.destroy();
  });

  it("bundle.yaml's pattern, even when equal, is not the API's: create sets it", async () => {
    w.emu.journal.clear();
    const r = availability("yaml-equal", { bundleId: "team-a", regex: "team-a/.*" });
    await r.up();
    expect(requests(w.emu, "POST", "/cjoc/casc-bundle/set-availability-pattern")).toBe(1);
    expect(apiPatterns()["team-a"]).toBe("team-a/.*");
    await r.destroy();
  });

  it("an assignment made outside Pulumi, to any controller, leaves every availability unchanged on refresh", async () => {
    const a = availability("a", { bundleId: "base", regex: ".*" });
    const b = availability("b", { bundleId: "team-b", controllers: ["team-b/controller-b", "sandbox"] });
    await a.up();
    await b.up();
    await w.oc.setControllerToBundle("base", "team-a/controller-a");
    await w.oc.setControllerToBundle("team-b", "sandbox");
    for (const r of [a, b]) {
      const before = r.state!;
      expect(await r.refresh()).toMatchObject({ changedFields: [] });
      expect(r.state).toEqual(before);
    }
    await a.destroy();
    await b.destroy();
  });
});

describe("BundleAvailability of a bundle removed from the bundle location", () => {
  it("is dropped on refresh, and delete of a vanished bundle succeeds", async () => {
    const r = availability("team-b-gone", { bundleId: "team-b", regex: "sandbox" });
    await r.up();
    const kept = { ...r.state! };
    fs.rmSync(path.join(bundlesDir, "team-b"), { recursive: true });
    await w.oc.checkOut();
    await w.nextDeployment();
    expect(await r.refresh()).toMatchObject({ op: "refresh", dropped: true });
    // A stack that never refreshed still destroys cleanly: the pattern left with the bundle.
    r.state = kept;
    await expect(r.destroy()).resolves.toMatchObject({ op: "delete" });
  });
});

describe("BundleAvailability create requests", () => {
  it("reads the list once (takeover) and writes once: the write's answer is the state, nothing is read back", async () => {
    const r = availability("once", { bundleId: "base", controllers: ["sandbox"] });
    await w.nextDeployment();
    w.emu.journal.clear();
    await r.up();
    expect(w.emu.journal.entries().map((e) => `${e.method} ${e.path}`)).toEqual([
      "GET /cjoc/casc-bundle/list",
      "POST /cjoc/casc-bundle/set-availability-pattern",
    ]);
    expect(r.state!.outputs).toEqual({ bundleId: "base", controllers: ["sandbox"], regex: "^(?:sandbox)$", __provider: w.texts.bundleAvailability });
    await w.nextDeployment();
    expect(await r.refresh()).toMatchObject({ changedFields: [] });
    await r.destroy();
    expect(apiPatterns()).not.toHaveProperty("base");
  });
});

describe("BundleAvailability bad input", () => {
  const cases: Array<[string, Record<string, unknown>, string, RegExp]> = [
    ["an invalid regex", { bundleId: "team-a", regex: "team-a/(" }, "regex", /regex "team-a\/\(" is not a valid regular expression: .*Fix the pattern/],
    ["both regex and controllers", { bundleId: "team-a", regex: "x", controllers: ["sandbox"] }, "regex", /either regex or controllers, not both/],
    ["neither regex nor controllers", { bundleId: "team-a" }, "controllers", /give either regex .* or controllers \(e\.g\. controllers: \["team-a\/controller-a"\]\)/],
    ["an empty bundleId", { bundleId: "", regex: "x" }, "bundleId", /bundleId must not be empty: give it, e\.g\. bundleId: "team-a"/],
    ["a missing bundleId", { regex: "x" }, "bundleId", /bundleId is required/],
    ["a controller path with a leading /", { bundleId: "team-a", controllers: ["/sandbox"] }, "controllers[0]", /must not start or end with "\/".*write "sandbox"/],
    ["a controller path with a trailing /", { bundleId: "team-a", controllers: ["team-a/controller-a/"] }, "controllers[0]", /write "team-a\/controller-a"/],
    ["an empty controller list", { bundleId: "team-a", controllers: [] }, "controllers", /at least one controller/],
  ];

  it.each(cases)("%s fails in check, naming the input and the fix, with no request sent", async (_what, inputs, property, reason) => {
    const before = await cascSnapshot(w);
    w.emu.journal.clear();
    const r = availability("bad", inputs);
    const error = (await r.up().catch((e: unknown) => e)) as CheckFailedError;
    expect(error).toBeInstanceOf(CheckFailedError);
    expect(error.failures).toEqual(expect.arrayContaining([{ property, reason: expect.stringMatching(reason) }]));
    expect(r.state).toBeUndefined();
    expect(w.emu.journal.entries()).toEqual([]);
    expect(await cascSnapshot(w)).toEqual(before);
  });

  it("an unknown bundle fails at create, naming bundleId and the bundles that exist; nothing changes", async () => {
    const before = await cascSnapshot(w);
    const r = availability("unknown", { bundleId: "no-such-bundle", controllers: ["sandbox"] });
    const error = (await r.up().catch((e: unknown) => e)) as ProviderHostError;
    expect(error).toBeInstanceOf(ProviderHostError);
    expect(error.details).toMatch(
      /^creating BundleAvailability \(bundle-availability\/no-such-bundle\): bundleId "no-such-bundle" names no bundle: the operations center lists "base", "team-a"\. Fix: set bundleId to one of them/,
    );
    expect(error.initFailure).toBeUndefined();
    expect(r.state).toBeUndefined();
    expect(await cascSnapshot(w)).toEqual(before);
  });

  it("a regex the server refuses (though valid for the check) fails at create, naming the input", async () => {
    // The server is Java; where its engine and check's disagree, its 400 decides. Faked with a fault, so the test
    // does not depend on where the emulator's engine and check's happen to differ.
    const before = await cascSnapshot(w);
    w.emu.faults.inject({
      method: "POST",
      path: "/cjoc/casc-bundle/set-availability-pattern",
      status: 400,
      body: JSON.stringify({ error: "Invalid regular expression '\\p{IsLatn}x': Unknown character property name" }),
    });
    const r = availability("refused", { bundleId: "base", regex: "\\p{IsLatn}x" });
    const error = (await r.up().catch((e: unknown) => e)) as ProviderHostError;
    expect(error.details).toMatch(
      /^creating BundleAvailability \(bundle-availability\/base\): the operations center refused the pattern "\\p\{IsLatn\}x" \("Invalid regular expression '\\\\p\{IsLatn\}x': Unknown character property name"\)\. Fix the regex input/,
    );
    expect(r.state).toBeUndefined();
    expect(await cascSnapshot(w)).toEqual(before);
  });
});
