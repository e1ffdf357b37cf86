/* istanbul ignore file */
import * as fs from "node:fs";
import * as path from "node:path";
import { CheckFailedError, ProviderHostError, UNKNOWN, type ManagedResource } from "../harness";
import { calls, copyBundles, startActionWorld, type ActionWorld } from "./helpers";

let w: ActionWorld;
let bundlesDir: string;
const CHECK_OUT = "POST /cjoc/casc-bundle/check-out";

beforeAll(async () => {
  bundlesDir = copyBundles();
  w = await startActionWorld({ emulator: { bundlesDir } });
});
afterAll(async () => {
  await w?.close();
  fs.rmSync(bundlesDir, { recursive: true, force: true });
});

describe("BundleCheckout through the real provider host", () => {
  let r: ManagedResource;

  it("creates: checks out once and outputs the remotes and the bundles", async () => {
    w.emu.journal.clear();
    r = w.action("bundleCheckout", "checkout", { timeoutSeconds: 120, triggers: ["v1"] });
    expect(await r.up()).toMatchObject({ op: "create" });
    expect(r.state!.id).toBe("bundle-checkout");
    expect(calls(w)).toEqual([CHECK_OUT]);
    expect(w.emu.journal.entries()[0]!.query).toEqual({ timeout: "120" });
    const { __provider, ...outs } = r.state!.outputs;
    expect(__provider).toBe(w.actionTexts.bundleCheckout);
    expect(outs).toEqual({
      timeoutSeconds: 120,
      triggers: ["v1"],
      remotes: [{ name: "local-folder", bundles: expect.arrayContaining([expect.objectContaining({ bundleName: "base" })]) }],
      bundles: ["base", "team-a", "team-b"],
    });
  });

  it("the same inputs make no diff and no request; a refresh reads nothing and changes nothing", async () => {
    w.emu.journal.clear();
    expect(await r.up()).toMatchObject({ op: "same" });
    const before = r.state;
    expect(await r.refresh()).toMatchObject({ op: "refresh", changedFields: [] });
    expect(r.state!.outputs).toEqual(before!.outputs);
    expect(calls(w)).toEqual([]);
  });

  it("a trigger change checks out again and sees a bundle added to the location since", async () => {
    fs.cpSync(path.join(bundlesDir, "team-b"), path.join(bundlesDir, "team-c"), { recursive: true });
    w.emu.journal.clear();
    expect(await r.up({ timeoutSeconds: 120, triggers: ["v2"] })).toMatchObject({ op: "update", changedFields: ["triggers"], replaces: [] });
    expect(calls(w)).toEqual([CHECK_OUT]);
    expect(r.state!.outputs.bundles).toEqual(["base", "team-a", "team-b", "team-c"]);
    expect(w.emu.state.bundles()).toContain("team-c");
  });

  it("timeoutSeconds alone is recorded without a check-out; a trigger not known yet previews as an update", async () => {
    w.emu.journal.clear();
    expect(await r.up({ timeoutSeconds: 60, triggers: ["v2"] })).toMatchObject({ op: "update" });
    expect(calls(w)).toEqual([]);
    expect(r.state!.outputs).toMatchObject({ timeoutSeconds: 60, bundles: ["base", "team-a", "team-b", "team-c"] });
    expect(await r.preview({ timeoutSeconds: 60, triggers: [UNKNOWN] })).toMatchObject({ op: "update", replaces: [] });
    expect(await r.preview({ timeoutSeconds: 60, triggers: ["v2"] })).toMatchObject({ op: "same" });
  });

  it("deletes without a request", async () => {
    w.emu.journal.clear();
    await r.destroy();
    expect(calls(w)).toEqual([]);
  });

  it("a failed check-out fails the create with the server's words, and nothing is recorded", async () => {
    w.emu.faults.inject({ method: "POST", path: "/cjoc/casc-bundle/check-out", status: 400, body: '{"error":"timeout must be a positive integer"}' });
    const x = w.action("bundleCheckout", "x", {});
    const error = (await x.up().catch((e: unknown) => e)) as ProviderHostError;
    expect(error).toBeInstanceOf(ProviderHostError);
    expect(error.details).toMatch(/^creating BundleCheckout \(bundle-checkout\): checking out bundles \(POST \/cjoc\/casc-bundle\/check-out\): .*timeout must be a positive integer/);
    expect(x.state).toBeUndefined();
  });

  it.each([
    [{ timeoutSeconds: 0 }, "timeoutSeconds", /whole number from 1 to 86400, got number 0/],
    // Once a RangeError of the deadline timer, retried as a network failure.
    [{ timeoutSeconds: 1e12 }, "timeoutSeconds", /whole number from 1 to 86400, got number 1000000000000/],
    [{ timeoutSeconds: "600" }, "timeoutSeconds", /got "600"/],
    [{ triggers: "v1" }, "triggers", /must be a list of values/],
  ])("bad input %j fails in check, naming the input, with no request", async (inputs, property, reason) => {
    w.emu.journal.clear();
    const error = (await w.action("bundleCheckout", "bad", inputs).up().catch((e: unknown) => e)) as CheckFailedError;
    expect(error).toBeInstanceOf(CheckFailedError);
    expect(error.failures).toEqual([{ property, reason: expect.stringMatching(reason) }]);
    expect(calls(w)).toEqual([]);
  });
});
