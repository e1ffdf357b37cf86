/* istanbul ignore file */
/**
 * ControllerConfiguration through the real provider host, against the emulator's running configurations (issue 44):
 * a controller brought to its bundle, a hand change found by a refresh and named by its path, repaired by an up, what
 * a reload cannot put back said with the controller's words, a controller behind its bundle version, a parent's
 * change seen by its child before anything is checked out; who changed a path and from what to what (issue 65:
 * controller-changes.test.ts has the rest).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { CheckFailedError, dynamicType, ProviderHostError, type ManagedResource } from "../harness";
import { providerTextsOf } from "../harness/provider-texts";
import { calls, copyBundles } from "../actions/helpers";
import { startWorld, type World } from "../resources/helpers";

const TYPE = dynamicType("cloudbees", "ControllerConfiguration");
const A = "team-a/controller-a";
const B = "team-b/controller-b";
const CHECK = `GET /controllers/${A}/casc-bundle-mgnt/check-bundle-update`;
const EXPORT = `GET /controllers/${A}/core-casc-export/zipExport`;
const RELOAD = `POST /controllers/${A}/casc-bundle-mgnt/reload-bundle`;

let w: World;
let bundlesDir: string;
let text: string;

beforeAll(async () => {
  bundlesDir = copyBundles();
  w = await startWorld({ emulator: { bundlesDir } });
  text = (await providerTextsOf(["controllerConfiguration"])).controllerConfiguration;
  await w.oc.setControllerToBundle("team-a", A);
  await w.oc.setAvailabilityPattern("team-b", "team-b/.*");
  await w.oc.setControllerToBundle("team-b", B);
});
afterAll(async () => {
  await w?.close();
  fs.rmSync(bundlesDir, { recursive: true, force: true });
});

const inputsOf = (controllerPath: string, bundleId: string) => ({ controllerPath, instanceUrl: w.emu.controllerUrls[controllerPath]!, bundleTreePath: bundlesDir, bundleId });
let INPUTS_A: Record<string, string>;

function watch(name: string, controllerPath: string, bundleId: string): ManagedResource {
  return w.lc.resource(TYPE, name, text, inputsOf(controllerPath, bundleId));
}

async function failure(step: Promise<unknown>): Promise<ProviderHostError> {
  const error = (await step.catch((e: unknown) => e)) as ProviderHostError;
  expect(error).toBeInstanceOf(ProviderHostError);
  return error;
}

/** Each step as its own deployment (a new provider process, as the engine starts one): no read is shared across. */
async function next<T>(step: () => Promise<T>): Promise<T> {
  await w.nextDeployment();
  return step();
}

/** Sorted request lines, so that the two parallel reads compare whatever their order. */
const sortedCalls = () => calls(w).sort();

describe("ControllerConfiguration", () => {
  let a: ManagedResource;

  it("creates on a controller with its bundle waiting: reads, reloads once, reads again; then it runs its bundle", async () => {
    w.emu.journal.clear();
    INPUTS_A = inputsOf(A, "team-a");
    a = watch("a", A, "team-a");
    expect(await a.up()).toMatchObject({ op: "create" });
    expect(sortedCalls()).toEqual([CHECK, CHECK, RELOAD, EXPORT, EXPORT].sort());
    const outs = a.state!.outputs;
    expect(outs.drift).toEqual([]);
    expect(outs.pendingUpdate).toBe("none");
    expect(outs.bundleVersion).toBe(w.emu.state.appliedBundle(A)!.version);
    expect(a.state!.id).toBe(`controller-configuration/${A}`);
    // The bundle's declared paths, with team-a's parent (base) merged in.
    const keys = Object.keys(outs.configuration as Record<string, string>);
    expect(keys).toEqual(expect.arrayContaining(["jenkins.yaml: jenkins.systemMessage", "jenkins.yaml: jenkins.numExecutors", "plugins.yaml: cloudbees-folder"]));
  });

  it("an up with nothing changed sends nothing; a refresh reads once and changes nothing", async () => {
    w.emu.journal.clear();
    expect(await a.up()).toMatchObject({ op: "same" });
    expect(calls(w)).toEqual([]);
    expect(await next(() => a.refresh({ judge: "diff" }))).toMatchObject({ changedFields: [] });
    expect(sortedCalls()).toEqual([CHECK, EXPORT].sort());
  });

  it("a change in the controller's UI is drift, named by its path; an up reloads and repairs it", async () => {
    w.emu.changeConfiguration(A, "jenkins.yaml", "jenkins.systemMessage", "Changed in the UI");
    const refreshed = await next(() => a.refresh({ judge: "diff" }));
    expect(refreshed.changedFields).toEqual(expect.arrayContaining(["configuration", "drift"]));
    expect(a.state!.outputs.drift).toEqual(["jenkins.yaml: jenkins.systemMessage changed"]);
    expect(await w.host.waitForOutput(/differs from its bundle "team-a": jenkins\.yaml: jenkins\.systemMessage changed/)).toContain("warning:");
    // Who and from what to what (issue 65): a system message holds no secret, so it is shown as it is.
    expect((a.state!.outputs.configuration as Record<string, string>)["jenkins.yaml: jenkins.systemMessage"]).toBe('"Changed in the UI"');
    expect(await w.host.waitForOutput(/"jenkins\.yaml: jenkins\.systemMessage" changed by "admin" at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d \(controller time\): "[^"]+" → "Changed in the UI"/)).toContain("warning:");
    w.emu.journal.clear();
    expect(await a.up()).toMatchObject({ op: "update" });
    expect(calls(w)).toContain(RELOAD);
    expect(a.state!.outputs.drift).toEqual([]);
    expect(await next(() => a.refresh({ judge: "diff" }))).toMatchObject({ changedFields: [] });
  });

  it("a plugin installed by hand cannot be put back by a reload: the up fails saying so, and the drift stays", async () => {
    w.emu.installPlugin(A, "ssh-agent");
    await next(() => a.refresh({ judge: "diff" }));
    expect(a.state!.outputs.drift).toEqual(["plugins.yaml: +ssh-agent"]);
    const error = await failure(a.up());
    expect(error.message).toContain("plugins.yaml: +ssh-agent");
    expect(error.message).toMatch(/uninstall it on the controller/);
    expect(error.message.match(/plugins\.yaml: \+ssh-agent/g)).toHaveLength(1);
    const again = await next(() => a.refresh({ judge: "diff" }));
    expect(again.changedFields).toEqual([]);
    expect(a.state!.outputs.drift).toEqual(["plugins.yaml: +ssh-agent"]);
    // With the path ignored, the controller runs its bundle.
    expect(await a.up({ ...INPUTS_A, ignore: ["plugins.yaml: ssh-agent"] })).toMatchObject({ op: "update" });
    expect(a.state!.outputs.drift).toEqual([]);
  });

  it("a controller behind its bundle version is drift, with the version in force and the one waiting", async () => {
    const file = path.join(bundlesDir, "team-a", "jenkins.yaml");
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(/systemMessage: .*/, 'systemMessage: "team A, version 2"'));
    await w.oc.checkOut();
    const inForce = w.emu.state.appliedBundle(A)!.version;
    await next(() => a.refresh({ judge: "diff" }));
    expect(a.state!.outputs.pendingUpdate).toMatch(new RegExp(`^${inForce} -> \\S+ \\(RELOAD\\)$`));
    expect(await a.up()).toMatchObject({ op: "update" });
    expect(a.state!.outputs).toMatchObject({ pendingUpdate: "none", drift: [] });
    expect(w.emu.state.appliedBundle(A)!.version).not.toBe(inForce);
  });

  it("a reload the controller refuses fails the up with the controller's words and the way out; the drift stays", async () => {
    w.emu.changeConfiguration(A, "jenkins.yaml", "jenkins.quietPeriod", 99);
    w.emu.setReloadRefusal(A, "Bundle is not hot reloadable");
    try {
      await next(() => a.refresh({ judge: "diff" }));
      const error = await failure(a.up());
      expect(error.message).toContain('it refused to reload: "Bundle is not hot reloadable"');
      expect(error.message).toContain("jenkins.yaml: jenkins.quietPeriod changed");
      expect(error.message).toMatch(/Fix: restart the controller/);
      expect(a.state!.outputs.drift).toEqual(["jenkins.yaml: jenkins.quietPeriod changed"]);
    } finally {
      w.emu.setReloadRefusal(A, null);
    }
    expect(await a.up()).toMatchObject({ op: "update" });
    expect(a.state!.outputs.drift).toEqual([]);
  });

  it("a change to a parent bundle shows, in preview, on each controller that inherits it, before any check-out", async () => {
    const b = watch("b", B, "team-b");
    await b.up();
    const file = path.join(bundlesDir, "base", "plugins.yaml");
    fs.appendFileSync(file, '  - id: "git"\n');
    w.emu.journal.clear();
    const previewA = await next(() => a.preview());
    const previewB = await b.preview();
    expect(previewA).toMatchObject({ op: "update" });
    expect(previewB).toMatchObject({ op: "update" });
    expect(previewA.changedFields).toContain("configuration");
    expect(previewB.changedFields).toContain("configuration");
    expect(calls(w)).toEqual([]);
  });

  it("a bad bundle reference fails check, naming the input", async () => {
    const bad = watch("bad", A, "no-such-bundle");
    const error = (await bad.preview().catch((e: unknown) => e)) as CheckFailedError;
    expect(error).toBeInstanceOf(CheckFailedError);
    expect(error.message).toMatch(/bundleId/);
    expect(error.message).toContain("no-such-bundle");
  });
});
