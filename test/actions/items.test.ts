/* istanbul ignore file */
import { CheckFailedError, ProviderHostError, UNKNOWN, type ManagedResource } from "../harness";
import { calls, startActionWorld, type ActionWorld } from "./helpers";

let w: ActionWorld;
let url: string;
const A = "team-a/controller-a";
const CREATE = "POST /controllers/team-a/controller-a/casc-items/create-items";

const FOLDER = `items:
  - kind: "folder"
    name: "apps"
    items:
      - kind: "pipeline"
        name: "build"
`;
const JOBS = (...names: string[]) => `items:\n${names.map((n) => `  - kind: "pipeline"\n    name: "${n}"\n`).join("")}`;

beforeAll(async () => {
  w = await startActionWorld();
  url = w.emu.controllerUrls[A]!;
});
afterAll(async () => {
  await w?.close();
});

const itemsOf = () => w.emu.state.items(A);

describe("Items through the real provider host", () => {
  let root: ManagedResource;
  let jobs: ManagedResource;

  it("creates the items of a YAML text at the instance's root", async () => {
    w.emu.journal.clear();
    root = w.action("items", "apps", { yaml: FOLDER, instanceUrl: url });
    expect(await root.up()).toMatchObject({ op: "create" });
    expect(calls(w)).toEqual([CREATE]);
    expect(root.state!.id).toBe(`items/${url}`);
    expect(root.state!.outputs).toMatchObject({ yaml: FOLDER, instanceUrl: url, basePath: "" });
    expect(itemsOf()).toEqual(expect.arrayContaining(["apps", "apps/build"]));
    const body = w.emu.journal.entries()[0]!;
    expect(body.headers["content-type"]).toMatch(/^text\/yaml/);
    expect(body.body.toString("utf8")).toBe(FOLDER);
  });

  it("creates items under a folder path; outputs basePath", async () => {
    jobs = w.action("items", "apps-jobs", { yaml: JOBS("test"), path: "apps", instanceUrl: url, triggers: [1] });
    expect(await jobs.up()).toMatchObject({ op: "create" });
    expect(jobs.state!.id).toBe(`items/${url}/apps`);
    expect(jobs.state!.outputs.basePath).toBe("apps");
    expect(w.emu.journal.entries().at(-1)!.query).toEqual({ path: "apps" });
    expect(itemsOf()).toContain("apps/test");
  });

  it("the same inputs make no diff and no request; a refresh reads nothing", async () => {
    w.emu.journal.clear();
    expect(await jobs.up()).toMatchObject({ op: "same" });
    expect(await jobs.refresh()).toMatchObject({ changedFields: [] });
    expect(calls(w)).toEqual([]);
  });

  it("a yaml change runs create-items again (an update)", async () => {
    w.emu.journal.clear();
    expect(await jobs.up({ yaml: JOBS("test", "deploy"), path: "apps", instanceUrl: url, triggers: [1] })).toMatchObject({
      op: "update",
      changedFields: ["yaml"],
      replaces: [],
    });
    expect(calls(w)).toEqual([CREATE]);
    expect(itemsOf()).toEqual(expect.arrayContaining(["apps/test", "apps/deploy"]));
  });

  it("a trigger change runs it again; a trigger not known yet previews as an update", async () => {
    w.emu.journal.clear();
    expect(await jobs.up({ yaml: JOBS("test", "deploy"), path: "apps", instanceUrl: url, triggers: [2] })).toMatchObject({ op: "update" });
    expect(calls(w)).toEqual([CREATE]);
    expect(await jobs.preview({ yaml: JOBS("test", "deploy"), path: "apps", instanceUrl: url, triggers: [UNKNOWN] })).toMatchObject({ op: "update" });
    expect(await jobs.preview({ yaml: UNKNOWN, path: "apps", instanceUrl: url, triggers: [2] })).toMatchObject({ op: "update" });
  });

  it("an instanceUrl change replaces: the items are created on the new instance, the old ones stay (with a warning)", async () => {
    w.host.takeOutput();
    expect(await root.up({ yaml: FOLDER })).toMatchObject({ op: "replace", replaces: ["instanceUrl"] });
    expect(root.state!.id).toBe("items/operations-center");
    expect(w.emu.state.items("")).toEqual(expect.arrayContaining(["apps", "apps/build"]));
    expect(itemsOf()).toContain("apps/build");
    expect(await w.host.waitForOutput(/cannot delete items/)).toContain(`stay in the root of the instance at ${url}`);
  });

  it("delete warns that the API cannot delete items, sends nothing, and the items stay", async () => {
    w.host.takeOutput();
    w.emu.journal.clear();
    await jobs.destroy();
    const out = await w.host.waitForOutput(/cannot delete items/);
    expect(out).toContain(`warning: Items (items/${url}/apps): the CasC API cannot delete items, so "test", "deploy" of this YAML stay in folder "apps"`);
    expect(calls(w)).toEqual([]);
    expect(itemsOf()).toEqual(expect.arrayContaining(["apps/test", "apps/deploy"]));
  });

  it("on the operations center, creates a managed controller, and delete stops and deletes it (issue 27)", async () => {
    // cb-ci/ci-casc-api-samples: createManagedController.sh creates it with create-items, deleteManagedController.sh
    // deletes it with stopAction, then doDelete.
    const yaml = `items:\n  - kind: folder\n    name: team-d\n    items:\n      - kind: managedController\n        name: controller-d\n        properties:\n          - configurationAsCode: {}\n  - kind: pipeline\n    name: seed\n`;
    const controller = w.action("items", "controller-d", { yaml });
    expect(await controller.up()).toMatchObject({ op: "create" });
    expect(w.emu.state.controllers()).toContain("team-d/controller-d");
    w.host.takeOutput();
    w.emu.journal.clear();
    await controller.destroy();
    expect(calls(w)).toEqual(["POST /cjoc/job/team-d/job/controller-d/stopAction", "POST /cjoc/job/team-d/job/controller-d/doDelete"]);
    expect(w.emu.state.controllers()).not.toContain("team-d/controller-d");
    // What the API cannot delete is named: the folder that held it, and the job.
    expect(await w.host.waitForOutput(/cannot delete items/)).toContain('so "team-d", "seed" of this YAML stay in the root of the operations center');
    // Already gone: a second delete of the same resource counts it as deleted.
    const again = w.action("items", "controller-d-again", { yaml });
    await again.up();
    w.emu.journal.clear();
    expect((await fetch(`${w.emu.operationsCenterUrl}job/team-d/job/controller-d/doDelete`, { method: "POST", redirect: "manual", headers: { authorization: `Basic ${Buffer.from(`${w.emu.credentials.admin.username}:${w.emu.credentials.admin.apiToken}`).toString("base64")}` } })).status).toBe(302);
    await again.destroy();
    expect(calls(w).filter((c) => c.includes("controller-d"))).toEqual(["POST /cjoc/job/team-d/job/controller-d/doDelete", "POST /cjoc/job/team-d/job/controller-d/stopAction"]);
  });

  it("a path naming no folder fails, naming path and the fix; nothing is recorded", async () => {
    const x = w.action("items", "nowhere", { yaml: JOBS("x"), path: "no/such/folder", instanceUrl: url });
    const error = (await x.up().catch((e: unknown) => e)) as ProviderHostError;
    expect(error).toBeInstanceOf(ProviderHostError);
    expect(error.details).toMatch(/^creating Items \(items\/.*\/no\/such\/folder\): path "no\/such\/folder" names no folder on the instance at .*Fix: create the folder first/);
    expect(x.state).toBeUndefined();
  });

  it("items the instance refuses fail with its words, naming the yaml input", async () => {
    const x = w.action("items", "no-kind", { yaml: "items:\n  - name: orphan\n", instanceUrl: url });
    const error = (await x.up().catch((e: unknown) => e)) as ProviderHostError;
    expect(error.details).toMatch(/refused the items \(400\): .*needs a 'kind'\. Fix the yaml input/);
    expect(itemsOf()).not.toContain("orphan");
  });

  it.each([
    [{ yaml: "items: [unclosed\n" }, "yaml", /yaml is not valid YAML: .* at line \d+, column \d+/],
    // Read by the bundle toolkit's reader, as the instance reads it: one document per file (YamlUtils getSingleNode).
    [{ yaml: "items: []\n---\nitems: []\n" }, "yaml", /^yaml is not valid YAML: expected a single document in the stream but found another document$/],
    [{ yaml: "jobs: []\n" }, "yaml", /must hold a mapping with an "items" list/],
    [{ yaml: "  " }, "yaml", /must not be empty/],
    [{}, "yaml", /yaml is required/],
    [{ yaml: JOBS("a"), path: "/apps/" }, "path", /write "apps"/],
  ])("bad input %j fails in check with no request", async (inputs, property, reason) => {
    w.emu.journal.clear();
    const error = (await w.action("items", "bad", inputs).up().catch((e: unknown) => e)) as CheckFailedError;
    expect(error).toBeInstanceOf(CheckFailedError);
    expect(error.failures).toEqual([{ property, reason: expect.stringMatching(reason) }]);
    expect(calls(w)).toEqual([]);
  });
});
