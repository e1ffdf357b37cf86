/**
 * Issue 8, item 2, through the real provider host: after a lost answer of a call that is not safe to repeat, the
 * providers find out what the server did before failing or repeating it.
 */
import { ProviderHostError, type ManagedResource } from "../harness";
import { TYPES } from "../resources/helpers";
import { calls, startActionWorld, type ActionWorld } from "../actions/helpers";

let w: ActionWorld;
beforeAll(async () => {
  w = await startActionWorld();
});
afterAll(async () => {
  await w?.close();
});
beforeEach(() => {
  w.emu.faults.clear();
  w.emu.journal.clear();
});

const APPS = "/feature-management/public-api/applications";
const named = (name: string) => w.emu.state.applications("acme").filter((a) => a.name === name);
const app = (name: string): ManagedResource => w.lc.resource(TYPES.application, name, w.texts.application, { name });

describe("Application: a create whose answer is lost", () => {
  // The provider lists the account once per deployment (account-snapshot.ts): these tests share one deployment (its
  // first create lists), except the last, which starts its own.
  it("adopts the one new application of the name (the server created it, the answer was dropped)", async () => {
    w.emu.faults.inject({ method: "POST", path: APPS, dropAfterHandling: true });
    const r = app("lost-answer");
    expect(await r.up()).toMatchObject({ op: "create" });
    expect(named("lost-answer")).toHaveLength(1);
    expect(r.state!.id).toBe(named("lost-answer")[0]!.id);
    expect(r.state!.outputs).toMatchObject({ applicationId: r.state!.id, adopted: false });
    // List, create (answer lost), list again: never a second create.
    expect(calls(w)).toEqual([`GET ${APPS}`, `POST ${APPS}`, `GET ${APPS}`]);
  });

  it("creates again when the list shows the server did not create it", async () => {
    w.emu.faults.inject({ method: "POST", path: APPS, status: 503 });
    const r = app("not-created");
    expect(await r.up()).toMatchObject({ op: "create" });
    expect(named("not-created")).toHaveLength(1);
    // The deployment's list of the account was read by the first create: create, list (nothing new), create again.
    expect(calls(w)).toEqual([`POST ${APPS}`, `GET ${APPS}`, `POST ${APPS}`]);
  });

  it("keeps an application of the same name that existed before, and adopts only the new one", async () => {
    const first = app("twin");
    await first.up();
    w.emu.faults.inject({ method: "POST", path: APPS, dropAfterHandling: true });
    const second = w.lc.resource(TYPES.application, "twin-2", w.texts.application, { name: "twin" });
    await second.up();
    expect(named("twin")).toHaveLength(2);
    expect(second.state!.id).not.toBe(first.state!.id);
  });

  it("records a pending create when the account cannot be listed, and the next up adopts what it made", async () => {
    await w.nextDeployment(); // a deployment whose first create lists the account
    w.emu.faults.inject({ method: "POST", path: APPS, dropAfterHandling: true });
    // The list before the create works; the lists after it fail (the client tries twice: maxRetries 1).
    w.emu.faults.inject({ method: "GET", path: APPS, status: 200, body: "[]", times: 1 });
    w.emu.faults.inject({ method: "GET", path: APPS, status: 500, times: 2 });
    const r = app("pending");
    const error = (await r.up().catch((e: unknown) => e)) as ProviderHostError;
    expect(error).toBeInstanceOf(ProviderHostError);
    expect(error.message).toMatch(/recorded as pending: the next `pulumi up` or `pulumi refresh` looks for a new application named "pending"/);
    expect(r.state).toMatchObject({ id: "pending/pending", outputs: { applicationId: "", pendingCreate: { existingIds: [] } } });
    expect(named("pending")).toHaveLength(1);

    expect(await r.up()).toMatchObject({ op: "update" });
    expect(r.state!.outputs).toMatchObject({ applicationId: named("pending")[0]!.id, name: "pending" });
    expect(r.state!.outputs).not.toHaveProperty("pendingCreate");
    expect(named("pending")).toHaveLength(1);
    expect(await r.refresh()).toMatchObject({ op: "refresh" });
    expect(r.state!.outputs).toMatchObject({ applicationId: named("pending")[0]!.id });
  });
});

describe("Items: a create-items whose answer is lost", () => {
  const A = "team-a/controller-a";
  const CREATE = "/controllers/team-a/controller-a/casc-items/create-items";
  const yaml = (name: string) => `items:\n  - kind: "pipeline"\n    name: "${name}"\n`;

  it("reports success when the instance holds every item (the server acted, the answer was dropped)", async () => {
    w.emu.faults.inject({ path: CREATE, dropAfterHandling: true });
    const r = w.action("items", "dropped", { yaml: yaml("dropped-job"), instanceUrl: w.emu.controllerUrls[A]! });
    expect(await r.up()).toMatchObject({ op: "create" });
    expect(w.emu.state.items(A)).toContain("dropped-job");
    expect(calls(w).filter((c) => c === `POST ${CREATE}`)).toHaveLength(1);
    expect(calls(w)).toContain("POST /controllers/team-a/controller-a/job/dropped-job/export/download/items.yaml");
  });

  it("sends the items again only after reading that none of them is there", async () => {
    w.emu.faults.inject({ path: CREATE, status: 500 });
    const r = w.action("items", "refused", { yaml: yaml("refused-job"), instanceUrl: w.emu.controllerUrls[A]! });
    expect(await r.up()).toMatchObject({ op: "create" });
    expect(calls(w)).toEqual([
      `POST ${CREATE}`,
      "POST /controllers/team-a/controller-a/job/refused-job/export/download/items.yaml",
      `POST ${CREATE}`,
    ]);
  });

  it("records a partial create saying what the instance holds when it still cannot tell", async () => {
    w.emu.faults.inject({ path: CREATE, status: 500, times: 2 });
    const r = w.action("items", "unknown", { yaml: yaml("unknown-job"), instanceUrl: w.emu.controllerUrls[A]! });
    const error = (await r.up().catch((e: unknown) => e)) as ProviderHostError;
    expect(error.message).toMatch(/The instance now holds none of the yaml's 1 top-level items; missing: "unknown-job"/);
    expect(r.state!.outputs).not.toHaveProperty("yaml");
    w.emu.journal.clear();
    expect(await r.up()).toMatchObject({ op: "update" });
    expect(w.emu.state.items(A)).toContain("unknown-job");
  });
});

describe("Items: the reconcile is bounded (issue 19, finding 2)", () => {
  const A = "team-a/controller-a";
  const CREATE = "/controllers/team-a/controller-a/casc-items/create-items";

  it("stops reading at the first item it cannot read, and records a partial create naming what was not checked", async () => {
    // Before: each of the 10 items was exported with full retries (21 exports here, 41 with the default retries).
    const names = Array.from({ length: 10 }, (_, i) => `bounded-${i}`);
    const yaml = `items:\n${names.map((n) => `  - kind: "pipeline"\n    name: "${n}"\n`).join("")}`;
    w.emu.faults.inject({ path: CREATE, status: 500 });
    for (const n of names) w.emu.faults.inject({ path: `/controllers/team-a/controller-a/job/${n}/export/download/items.yaml`, status: 500, times: Infinity });
    const r = w.action("items", "bounded", { yaml, instanceUrl: w.emu.controllerUrls[A]! });
    const error = (await r.up().catch((e: unknown) => e)) as ProviderHostError;
    expect(error).toBeInstanceOf(ProviderHostError);
    const exports = calls(w).filter((c) => c.endsWith("/export/download/items.yaml"));
    // One item, with its client's retries (maxRetries 1): the server is failing, the rest are not asked.
    expect(exports).toEqual([
      "POST /controllers/team-a/controller-a/job/bounded-0/export/download/items.yaml",
      "POST /controllers/team-a/controller-a/job/bounded-0/export/download/items.yaml",
    ]);
    expect(error.message).toMatch(/could not be read: "bounded-0"; not checked: "bounded-1", .*"bounded-9"\. Check/);
    expect(r.state!.outputs).not.toHaveProperty("yaml");
  });
  it("reads at most 50 items, and records what it did not check as a partial create", async () => {
    // Before: one export per item, however many (500 items: 501 requests).
    const names = Array.from({ length: 60 }, (_, i) => `many-${i}`);
    const yaml = `items:\n${names.map((n) => `  - kind: "pipeline"\n    name: "${n}"\n`).join("")}`;
    w.emu.faults.inject({ path: CREATE, dropAfterHandling: true });
    const r = w.action("items", "many", { yaml, instanceUrl: w.emu.controllerUrls[A]! });
    const error = (await r.up().catch((e: unknown) => e)) as ProviderHostError;
    expect(error).toBeInstanceOf(ProviderHostError);
    expect(calls(w).filter((c) => c.endsWith("/export/download/items.yaml"))).toHaveLength(50);
    expect(calls(w).filter((c) => c === `POST ${CREATE}`)).toHaveLength(1);
    expect(error.message).toMatch(/The instance now holds "many-0", .* and 30 more of the yaml's 60 top-level items; not checked: "many-50", .*"many-59"/);
    expect(r.state!.outputs).not.toHaveProperty("yaml");
  });
});

describe("BundleReload and ControllerBundleToken: lost answers", () => {
  const B = "team-b/controller-b";
  const RELOAD = "/controllers/team-b/controller-b/casc-bundle-mgnt/reload-bundle";

  it("a reload whose answer is dropped is found done by check-bundle-update, and not sent again", async () => {
    await w.oc.setAvailabilityPattern("team-b", B);
    await w.oc.setControllerToBundle("team-b", B);
    w.emu.faults.inject({ path: RELOAD, dropAfterHandling: true });
    const r = w.action("bundleReload", "reload-b", { instanceUrl: w.emu.controllerUrls[B]! });
    expect(await r.up()).toMatchObject({ op: "create" });
    expect(r.state!.outputs).toMatchObject({ reloaded: true, updateAvailable: true });
    expect(calls(w).filter((c) => c === `POST ${RELOAD}`)).toHaveLength(1);
    expect(w.emu.state.appliedBundle(B)?.bundle).toBe("team-b");
  });

  it("a reload whose outcome stays unknown is recorded as partially created, and the next up finds it done", async () => {
    const A = "team-a/controller-a";
    const reloadA = "/controllers/team-a/controller-a/casc-bundle-mgnt/reload-bundle";
    const checkA = "/controllers/team-a/controller-a/casc-bundle-mgnt/check-bundle-update";
    await w.oc.setControllerToBundle("team-a", A);
    // The check before the reload is answered (a fault of no effect uses up the first turn); the reload's answer is
    // lost, and both tries of the check after it fail.
    w.emu.faults.inject({ path: checkA, delayMs: 0 });
    w.emu.faults.inject({ path: reloadA, dropAfterHandling: true });
    w.emu.faults.inject({ path: checkA, status: 500, times: 2 });
    const r = w.action("bundleReload", "reload-a", { instanceUrl: w.emu.controllerUrls[A]! });
    const error = (await r.up().catch((e: unknown) => e)) as ProviderHostError;
    expect(error).toBeInstanceOf(ProviderHostError);
    expect(error.message).toMatch(/reload-bundle got no answer .*look at the instance's update log/);
    expect(r.state!.outputs).toMatchObject({ reloaded: false, reason: "unknown: reload-bundle got no answer" });
    expect(calls(w).filter((c) => c === `POST ${reloadA}`)).toHaveLength(1);
    // The next up checks first: the update is in force, so nothing is sent again.
    w.emu.journal.clear();
    expect(await r.up()).toMatchObject({ op: "update" });
    expect(r.state!.outputs).toMatchObject({ reloaded: false, updateAvailable: false });
    expect(calls(w)).toEqual([`GET ${checkA}`]);
  });

  it("a regenerate-token whose answer is dropped is repeated, and the state holds the token in force", async () => {
    w.emu.faults.inject({ path: "/cjoc/casc-bundle/regenerate-token", dropAfterHandling: true });
    const r = w.action("controllerBundleToken", "link-b", { controllerPath: B });
    expect(await r.up()).toMatchObject({ op: "create" });
    expect(r.state!.outputs.token).toBe(w.emu.state.controllerToken(B));
    expect(calls(w).filter((c) => c === "POST /cjoc/casc-bundle/regenerate-token")).toHaveLength(2);
  });

  it("a regenerate whose every answer is lost is found done by the link's new token, which the state records", async () => {
    const r = w.action("controllerBundleToken", "link-b-again", { controllerPath: B, triggers: [1] });
    await r.up();
    const before = r.state!.outputs.token;
    w.emu.faults.inject({ path: "/cjoc/casc-bundle/regenerate-token", dropAfterHandling: true, times: 2 });
    expect(await r.up({ controllerPath: B, triggers: [2] })).toMatchObject({ op: "update" });
    expect(r.state!.outputs.token).not.toBe(before);
    expect(r.state!.outputs.token).toBe(w.emu.state.controllerToken(B));
  });
});
