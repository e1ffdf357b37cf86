/* istanbul ignore file */
import { CheckFailedError, ProviderHostError, UNKNOWN, type ManagedResource } from "../harness";
import { calls, startActionWorld, type ActionWorld } from "./helpers";

let w: ActionWorld;
const A = "team-a/controller-a";
const REGENERATE = "POST /cjoc/casc-bundle/regenerate-token";
const LINK = "GET /cjoc/config-bundle-download-link";

beforeAll(async () => {
  w = await startActionWorld();
  // team-a's bundle.yaml makes it available to team-a/*; base is made available to sandbox for the replace below.
  await w.oc.setControllerToBundle("team-a", A);
  await w.oc.setAvailabilityPattern("base", "sandbox");
  await w.oc.setControllerToBundle("base", "sandbox");
});
afterAll(async () => {
  await w?.close();
});

const token = (controller: string) => w.emu.state.controllerToken(controller);

describe("ControllerBundleToken through the real provider host", () => {
  let r: ManagedResource;

  it("creates: regenerates the token, then reads the link; outputs url, token and the link file content", async () => {
    const before = token(A);
    w.emu.journal.clear();
    r = w.action("controllerBundleToken", "token-a", { controllerPath: A, triggers: [1] });
    expect(await r.up()).toMatchObject({ op: "create", changedFields: ["controllerPath", "triggers"] });
    expect(calls(w)).toEqual([REGENERATE, LINK]);
    expect(r.state!.id).toBe("bundle-token/team-a/controller-a");
    const now = token(A);
    expect(now).not.toBe(before);
    const { __provider, ...outs } = r.state!.outputs;
    expect(outs).toEqual({
      controllerPath: A,
      triggers: [1],
      url: `${w.emu.operationsCenterUrl}config-bundle/team-a`,
      token: now,
      linkFileContent: `${w.emu.operationsCenterUrl}config-bundle/team-a\n${now}`,
    });
    // The credentials of the stack never reach the state.
    expect(JSON.stringify(r.state)).not.toContain(w.emu.credentials.admin.apiToken);
  });

  it("the same inputs make no diff and no request; a refresh with no change outside shows nothing", async () => {
    w.emu.journal.clear();
    expect(await r.up()).toMatchObject({ op: "same" });
    expect(calls(w)).toEqual([]);
    expect(await r.refresh()).toMatchObject({ changedFields: [] });
    expect(calls(w)).toEqual([LINK]);
  });

  it("a token regenerated outside Pulumi shows as drift on refresh; the state then holds the token that works", async () => {
    const mine = r.state!.outputs.token;
    await w.oc.regenerateToken(A);
    const theirs = token(A);
    expect(theirs).not.toBe(mine);
    expect(await r.refresh()).toMatchObject({ op: "refresh", changedFields: ["linkFileContent", "token"] });
    expect(r.state!.outputs).toMatchObject({ token: theirs, linkFileContent: expect.stringMatching(new RegExp(`\\n${theirs}$`)) });
    w.emu.journal.clear();
    // Nothing to run again: the next up keeps the working token and regenerates nothing.
    expect(await r.up()).toMatchObject({ op: "same" });
    expect(calls(w)).toEqual([]);
    expect(token(A)).toBe(theirs);
  });

  it("a trigger change regenerates the token again (a rotation)", async () => {
    const old = token(A);
    w.emu.journal.clear();
    expect(await r.up({ controllerPath: A, triggers: [2] })).toMatchObject({ op: "update", replaces: [] });
    expect(calls(w)).toEqual([REGENERATE, LINK]);
    expect(token(A)).not.toBe(old);
    expect(r.state!.outputs.token).toBe(token(A));
    expect(await r.preview({ controllerPath: A, triggers: [UNKNOWN] })).toMatchObject({ op: "update" });
  });

  it("a controllerPath change replaces: the new controller gets a token, the old one keeps its own", async () => {
    const oldA = token(A);
    expect(await r.preview({ controllerPath: UNKNOWN, triggers: [2] })).toMatchObject({ op: "replace", replaces: ["controllerPath"] });
    w.emu.journal.clear();
    expect(await r.up({ controllerPath: "sandbox", triggers: [2] })).toMatchObject({ op: "replace", replaces: ["controllerPath"] });
    expect(calls(w)).toEqual([REGENERATE, LINK]);
    expect(r.state!.id).toBe("bundle-token/sandbox");
    expect(r.state!.outputs.token).toBe(token("sandbox"));
    expect(token(A)).toBe(oldA);
  });

  it("deletes without a request: the controller keeps its token", async () => {
    const current = token("sandbox");
    w.emu.journal.clear();
    await r.destroy();
    expect(calls(w)).toEqual([]);
    expect(token("sandbox")).toBe(current);
  });

  it("is dropped on refresh when the controller no longer has a bundle link", async () => {
    const x = w.action("controllerBundleToken", "token-x", { controllerPath: A });
    await x.up();
    w.emu.faults.inject({ method: "GET", path: "/cjoc/config-bundle-download-link", status: 404, body: '{"error":"No CasC bundle is assigned to controller \'team-a/controller-a\'"}' });
    expect(await x.refresh()).toMatchObject({ dropped: true });
  });

  it("a controller without a bundle: the create fails naming controllerPath and the fix, with no token issued", async () => {
    const before = token("team-b/controller-b");
    const x = w.action("controllerBundleToken", "token-b", { controllerPath: "team-b/controller-b" });
    const error = (await x.up().catch((e: unknown) => e)) as ProviderHostError;
    expect(error).toBeInstanceOf(ProviderHostError);
    expect(error.details).toMatch(/^creating ControllerBundleToken \(bundle-token\/team-b\/controller-b\): controllerPath "team-b\/controller-b" names no controller with a CasC bundle/);
    expect(error.details).toContain("ControllerBundleAssignment");
    expect(error.details).toContain("No CasC bundle is assigned to controller");
    expect(x.state).toBeUndefined();
    expect(token("team-b/controller-b")).toBe(before);
  });

  it("a link that cannot be read after the token was regenerated: recorded as partially created, with no token in it", async () => {
    w.emu.faults.inject({ method: "GET", path: "/cjoc/config-bundle-download-link", status: 503, times: 5 });
    const x = w.action("controllerBundleToken", "token-partial", { controllerPath: A });
    const error = (await x.up().catch((e: unknown) => e)) as ProviderHostError;
    expect(error.details).toMatch(/the token was regenerated: run `pulumi refresh` or `pulumi up` to read the new one/);
    expect(error.initFailure).toMatchObject({ id: "bundle-token/team-a/controller-a", properties: { token: "", linkFileContent: "" } });
    expect(x.state).toMatchObject({ id: "bundle-token/team-a/controller-a" });
    w.emu.faults.clear();
    expect(await x.refresh()).toMatchObject({ changedFields: ["linkFileContent", "token", "url"] });
    expect(x.state!.outputs.token).toBe(token(A));
  });

  it.each([
    [{ controllerPath: "/team-a/controller-a" }, "controllerPath", /write "team-a\/controller-a"/],
    [{}, "controllerPath", /controllerPath is required/],
    [{ controllerPath: A, triggers: { a: 1 } }, "triggers", /must be a list/],
  ])("bad input %j fails in check with no request", async (inputs, property, reason) => {
    w.emu.journal.clear();
    const error = (await w.action("controllerBundleToken", "bad", inputs).up().catch((e: unknown) => e)) as CheckFailedError;
    expect(error).toBeInstanceOf(CheckFailedError);
    expect(error.failures).toEqual([{ property, reason: expect.stringMatching(reason) }]);
    expect(calls(w)).toEqual([]);
  });
});
