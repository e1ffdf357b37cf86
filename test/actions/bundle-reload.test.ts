/* istanbul ignore file */
import * as fs from "node:fs";
import * as path from "node:path";
import { CheckFailedError, ProviderHostError, UNKNOWN, type ManagedResource } from "../harness";
import { expectOneQuotedLine, HOSTILE_VALUES } from "../harness/hostile-text";
import { calls, copyBundles, startActionWorld, type ActionWorld } from "./helpers";

let w: ActionWorld;
let bundlesDir: string;
let url: string;
const A = "team-a/controller-a";
const CHECK = "GET /controllers/team-a/controller-a/casc-bundle-mgnt/check-bundle-update";
const RELOAD = "POST /controllers/team-a/controller-a/casc-bundle-mgnt/reload-bundle";

beforeAll(async () => {
  bundlesDir = copyBundles();
  w = await startActionWorld({ emulator: { bundlesDir } });
  url = w.emu.controllerUrls[A]!;
  await w.oc.setControllerToBundle("team-a", A);
});
afterAll(async () => {
  await w?.close();
  fs.rmSync(bundlesDir, { recursive: true, force: true });
});

const applied = () => w.emu.state.appliedBundle(A);

/** A new version of team-a in the bundle location, checked out: the controller then has an update. */
async function newVersionOfTeamA(message: string): Promise<void> {
  const file = path.join(bundlesDir, "team-a", "jenkins.yaml");
  fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(/systemMessage: .*/, `systemMessage: "${message}"`));
  await w.oc.checkOut();
}

async function failure(r: ManagedResource, inputs?: Record<string, unknown>): Promise<ProviderHostError> {
  const error = (await r.up(inputs).catch((e: unknown) => e)) as ProviderHostError;
  expect(error).toBeInstanceOf(ProviderHostError);
  return error;
}

describe("BundleReload through the real provider host", () => {
  let r: ManagedResource;

  it("creates on a controller with an update: checks, then reloads; outputs what happened", async () => {
    expect(applied()).toBeNull();
    w.emu.journal.clear();
    r = w.action("bundleReload", "reload-a", { instanceUrl: url, triggers: ["v1"] });
    expect(await r.up()).toMatchObject({ op: "create" });
    expect(calls(w)).toEqual([CHECK, RELOAD]);
    expect(r.state!.id).toBe(`bundle-reload/${url}`);
    expect(applied()).toMatchObject({ bundle: "team-a" });
    const { __provider, ...outs } = r.state!.outputs;
    expect(outs).toEqual({ instanceUrl: url, triggers: ["v1"], updateAvailable: true, reloaded: true, reason: "", version: applied()!.version });
  });

  it("the same inputs make no diff and no request; a refresh reads nothing", async () => {
    w.emu.journal.clear();
    expect(await r.up()).toMatchObject({ op: "same" });
    expect(await r.refresh()).toMatchObject({ changedFields: [] });
    expect(calls(w)).toEqual([]);
  });

  it("a trigger change without an update checks and does not reload", async () => {
    const version = applied()!.version;
    w.emu.journal.clear();
    expect(await r.up({ instanceUrl: url, triggers: ["v2"] })).toMatchObject({ op: "update", replaces: [] });
    expect(calls(w)).toEqual([CHECK]);
    expect(r.state!.outputs).toMatchObject({
      updateAvailable: false,
      reloaded: false,
      reason: `no bundle update available (current version "${version}")`,
      version,
    });
  });

  it("a refusal fails the update with the instance's reason and the fix; reload-bundle was sent once", async () => {
    await newVersionOfTeamA("team A, second version");
    const version = applied()!.version;
    w.emu.setReloadRefusal(A, "Bundle is not hot reloadable");
    const before = r.state;
    w.emu.journal.clear();
    const error = await failure(r, { instanceUrl: url, triggers: ["v3"] });
    expect(error.details).toMatch(new RegExp(`^updating BundleReload \\(bundle-reload/${url.replace(/[./]/g, "\\$&")}\\): the instance at ${url.replace(/[./]/g, "\\$&")} did not reload its bundle update \\(version "\\w+"\\): it said "Bundle is not hot reloadable"\\. Fix:`));
    expect(error.details).toContain("allowRestartRequired: true");
    expect(calls(w)).toEqual([CHECK, RELOAD]);
    expect(r.state).toEqual(before);
    expect(applied()!.version).toBe(version);
  });

  // Issue 37: the instance's words are data, quoted on the error's one line, whatever they hold.
  it.each(HOSTILE_VALUES)("a refusal whose reason holds %s: the error quotes it on one line", async (_name, reason) => {
    w.emu.setReloadRefusal(A, reason);
    try {
      expectOneQuotedLine((await failure(r, { instanceUrl: url, triggers: ["v3"] })).details, reason);
    } finally {
      w.emu.setReloadRefusal(A, "Bundle is not hot reloadable");
    }
  });

  it("with allowRestartRequired: true the refusal is reported in the outputs, with a warning, and the deployment goes on", async () => {
    w.host.takeOutput();
    w.emu.journal.clear();
    expect(await r.up({ instanceUrl: url, allowRestartRequired: true, triggers: ["v3"] })).toMatchObject({ op: "update" });
    expect(calls(w)).toEqual([CHECK, RELOAD]);
    expect(r.state!.outputs).toMatchObject({ updateAvailable: true, reloaded: false, reason: "Bundle is not hot reloadable", allowRestartRequired: true });
    expect(await w.host.waitForOutput(/did not reload its bundle update: it said "Bundle is not hot reloadable" \(allowRestartRequired: true, going on\)/)).toContain("warning:");
  });

  it("allowRestartRequired alone is recorded without a request", async () => {
    w.emu.journal.clear();
    expect(await r.up({ instanceUrl: url, allowRestartRequired: false, triggers: ["v3"] })).toMatchObject({ op: "update" });
    expect(calls(w)).toEqual([]);
    expect(r.state!.outputs).toMatchObject({ allowRestartRequired: false, reloaded: false, reason: "Bundle is not hot reloadable" });
  });

  it("a reload already in progress fails a create, which records nothing", async () => {
    w.emu.setReloadRefusal(A, "A reload is already in progress, please wait for it to complete");
    const x = w.action("bundleReload", "reload-x", { instanceUrl: url });
    const error = await failure(x);
    expect(error.details).toContain('it said "A reload is already in progress, please wait for it to complete". Fix:');
    expect(x.state).toBeUndefined();
  });

  it("an update of type RESTART is refused without sending reload-bundle", async () => {
    w.emu.setReloadRefusal(A, null);
    const body = JSON.stringify({
      "update-available": true,
      "update-type": "RESTART",
      versions: { "current-bundle": { version: "1", validations: [] }, "new-version": { version: "2", valid: true, validations: [] } },
      items: { deletions: [] },
    });
    w.emu.faults.inject({ method: "GET", path: "/controllers/team-a/controller-a/casc-bundle-mgnt/check-bundle-update", status: 200, body, headers: { "content-type": "application/json" } });
    w.emu.journal.clear();
    const error = await failure(r, { instanceUrl: url, triggers: ["v4"] });
    expect(error.details).toMatch(/the update needs a restart \(check-bundle-update says update-type RESTART\); reload-bundle was not sent/);
    expect(calls(w)).toEqual([CHECK]);
  });

  it("once the instance accepts, a trigger change reloads the new version", async () => {
    w.emu.journal.clear();
    expect(await r.up({ instanceUrl: url, triggers: ["v5"] })).toMatchObject({ op: "update" });
    expect(calls(w)).toEqual([CHECK, RELOAD]);
    expect(r.state!.outputs).toMatchObject({ updateAvailable: true, reloaded: true, reason: "", version: applied()!.version });
  });

  it("a reload still running when the instance answers (completed: false) says so in reason", async () => {
    await newVersionOfTeamA("team A, third version");
    w.emu.faults.inject({ method: "POST", path: RELOAD.slice(5), status: 200, body: '{"reloaded":true,"completed":false}' });
    expect(await r.up({ instanceUrl: url, triggers: ["v6"] })).toMatchObject({ op: "update" });
    expect(r.state!.outputs).toMatchObject({
      updateAvailable: true,
      reloaded: true,
      reason: "the reload started and was still running when the instance answered: see its update log",
    });
    // The emulator did not really reload (a fault answered): apply the version for the tests that follow.
    await w.emu.faults.clear();
    expect(await r.up({ instanceUrl: url, triggers: ["v7"] })).toMatchObject({ op: "update" });
    expect(r.state!.outputs).toMatchObject({ reloaded: true, reason: "" });
  });

  it("a new version the instance finds invalid fails, and nothing is reloaded", async () => {
    const file = path.join(bundlesDir, "team-a", "bundle.yaml");
    const original = fs.readFileSync(file, "utf8");
    fs.writeFileSync(file, original.replace('  - "jenkins.yaml"', '  - "jenkins.yaml"\n  - "missing.yaml"'));
    try {
      await w.oc.checkOut();
      const version = applied()!.version;
      w.emu.journal.clear();
      const error = await failure(r, { instanceUrl: url, triggers: ["v6"] });
      expect(error.details).toMatch(/has a new bundle version that is not valid, so there is nothing it can reload/);
      expect(error.details).toContain("missing.yaml");
      expect(calls(w)).toEqual([CHECK]);
      expect(applied()!.version).toBe(version);
    } finally {
      fs.writeFileSync(file, original);
      await w.oc.checkOut();
    }
  });

  it("an instanceUrl change replaces; deletes send nothing", async () => {
    expect(await r.preview({ instanceUrl: UNKNOWN, triggers: ["v5"] })).toMatchObject({ op: "replace", replaces: ["instanceUrl"] });
    w.emu.journal.clear();
    expect(await r.up({ triggers: ["v5"] })).toMatchObject({ op: "replace", replaces: ["instanceUrl"] });
    // The operations center has no bundle assigned: nothing to reload.
    expect(calls(w)).toEqual(["GET /cjoc/casc-bundle-mgnt/check-bundle-update"]);
    expect(r.state!.id).toBe("bundle-reload/operations-center");
    expect(r.state!.outputs).toMatchObject({ updateAvailable: false, reloaded: false, version: "N/A" });
    w.emu.journal.clear();
    await r.destroy();
    expect(calls(w)).toEqual([]);
  });

  it.each([
    [{ instanceUrl: "ftp://ci.example.com/" }, "instanceUrl", /must be an http\(s\) URL/],
    // A credential in the value: no property, whose value the engine would print (issueCheckFailures); the reason names the input.
    [{ instanceUrl: "https://admin:secret@ci.example.com/team-a/" }, "", /^instanceUrl must not hold credentials.*write "https:\/\/ci\.example\.com\/team-a\/"/],
    [{ instanceUrl: "controller-a" }, "instanceUrl", /is not a URL/],
    [{ allowRestartRequired: "yes" }, "allowRestartRequired", /must be true or false/],
  ])("bad input %j fails in check with no request", async (inputs, property, reason) => {
    w.emu.journal.clear();
    const error = (await w.action("bundleReload", "bad", inputs).up().catch((e: unknown) => e)) as CheckFailedError;
    expect(error).toBeInstanceOf(CheckFailedError);
    expect(error.failures).toEqual([{ property, reason: expect.stringMatching(reason) }]);
    expect(calls(w)).toEqual([]);
  });
});
