/**
 * The example program (examples/index.ts, the program of the top-level Pulumi.yaml) run under the SDK's mocks with
 * its dynamic resources forwarded to Pulumi's real provider host, against the emulator: the life cycle `npm start`
 * shows, with what a user would check after each step.
 */
import * as path from "node:path";
import { startEmulator, type Emulator } from "../emulator";
import { emulatorStackConfig } from "../testing/emulator-config";
import { OperationsCenterClient } from "../provider";
import { ProgramRunner, type ProgramPlan } from "./harness";

const ROOT = path.join(__dirname, "..");
let emu: Emulator;
let runner: ProgramRunner;
let oc: OperationsCenterClient;

beforeAll(async () => {
  emu = await startEmulator();
  runner = await ProgramRunner.start({ cwd: ROOT, config: emulatorStackConfig(emu) });
  oc = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...emu.credentials.admin });
}, 60_000);
afterAll(async () => {
  await oc?.close();
  await runner?.close();
  await emu?.close();
});

const ops = (plan: ProgramPlan) => Object.fromEntries(plan.map((e) => [e.name, e.op]));
const changed = (plan: ProgramPlan, name: string) => plan.find((e) => e.name === name)?.changedFields ?? [];

const TEAM_B_PATTERN = "^(?:team-b/controller-b)$";

describe("the example program's life cycle", () => {
  jest.setTimeout(60_000);

  it("up creates everything the program declares, in the services", async () => {
    const plan = await runner.up();
    expect(new Set(plan.map((e) => e.op))).toEqual(new Set(["create"]));
    expect(plan).toHaveLength(7);

    expect(emu.state.apiAvailabilityPatterns()).toEqual({ base: "sandbox", "team-b": TEAM_B_PATTERN });
    expect(emu.state.assignments()).toEqual({ sandbox: "base", "team-b/controller-b": "team-b" });
    expect(emu.state.defaultBundle()).toBe("base");
    expect(emu.state.globalVisibility()).toBe(false);
    const [app] = emu.state.applications("acme");
    expect(app.name).toBe("checkout-service");

    const outputs = runner.outputs();
    expect(outputs.applicationId).toBe(app.id);
    expect(outputs.teamBAvailableFor).toEqual(["team-b/controller-b"]);
    expect(outputs.teamBUsedBy).toEqual(["team-b/controller-b"]);
    expect(outputs.assigned).toEqual(["team-b/controller-b <- team-b", "sandbox <- base"]);
  });

  it("a second up changes nothing and sends no write; the drift job (preview --refresh, no changes expected) passes", async () => {
    emu.journal.clear();
    const plan = await runner.up();
    expect(new Set(plan.map((e) => e.op))).toEqual(new Set(["same"]));
    expect(emu.journal.entries().filter((e) => e.method === "POST")).toEqual([]);
    const drift = await runner.preview(undefined, { refresh: true, expectNoChanges: true });
    expect(drift.filter((e) => e.op === "refresh")).toHaveLength(7);
  });

  it("the state keeps the tokens out of plain text", () => {
    const text = JSON.stringify(runner.state());
    expect(text).not.toContain(emu.credentials.admin.apiToken);
    expect(text).not.toContain(emu.credentials.featureManagementToken);
  });

  it("refresh reveals changes made outside Pulumi, and the next up corrects them", async () => {
    await oc.setAvailabilityPattern("team-b", "team-b/.*|sandbox");
    await oc.setControllerToBundle("team-b", "sandbox");

    const refresh = await runner.refresh();
    expect(changed(refresh, "team-b")).toEqual(expect.arrayContaining(["regex", "controllers"]));
    expect(changed(refresh, "assign-sandbox")).toEqual(["bundleId"]);
    expect(changed(refresh, "base")).toEqual([]);

    const up = await runner.up();
    expect(ops(up)).toMatchObject({ "team-b": "update", "assign-sandbox": "update", base: "same", checkout: "same" });
    expect(emu.state.apiAvailabilityPatterns()["team-b"]).toBe(TEAM_B_PATTERN);
    expect(emu.state.assignments().sandbox).toBe("base");
    await expect(runner.preview(undefined, { refresh: true, expectNoChanges: true })).resolves.toBeDefined();
  });

  it("the drift job fails on a change made outside Pulumi, listing it; another controller's assignment is no drift", async () => {
    await oc.setAvailabilityPattern("base", "sandbox|team-a/controller-a");
    await oc.setControllerToBundle("base", "team-a/controller-a");
    const error = (await runner.preview(undefined, { refresh: true, expectNoChanges: true }).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/but 2 were found:\n/);
    expect(error.message).toMatch(/base\s+cloudbees:BundleAvailability\s+refresh\s+regex/);
    expect(error.message).toMatch(/base\s+cloudbees:BundleAvailability\s+update\s+regex/);
    await oc.setAvailabilityPattern("base", "sandbox");
  });

  it("destroy undoes what the APIs can undo, and says what stays", async () => {
    const plan = await runner.destroy();
    expect(new Set(plan.map((e) => e.op))).toEqual(new Set(["delete"]));
    expect(plan.map((e) => e.name).slice(0, 2).sort()).toEqual(["assign-sandbox", "assign-team-b-controller-b"]);
    expect(emu.state.apiAvailabilityPatterns()).toEqual({});
    expect(emu.state.globalVisibility()).toBe(false);
    // The APIs cannot delete an application, unassign a bundle or unset the default: the providers warn.
    expect(emu.state.applications("acme")).toHaveLength(1);
    const warnings = runner.last!.hostOutput;
    expect(warnings).toContain('Application "checkout-service"');
    expect(warnings).toContain('controller "sandbox" keeps bundle "base"');
    expect(runner.state().resources).toHaveLength(0);
  });
});
