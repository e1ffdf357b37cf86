import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Emulator, startEmulator } from "../../emulator";
import { call, post } from "./helpers";

const CONTROLLERS = ["team-a/controller-a", "team-b/controller-b", "sandbox", "x-team-a/controller", "team-a"];
let emu: Emulator;
let oc: string;
beforeAll(async () => {
  emu = await startEmulator({ controllers: CONTROLLERS });
  oc = emu.operationsCenterUrl;
});
afterAll(async () => {
  await emu.close();
});

const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
const list = async () => {
  const r = await call(emu, `${oc}casc-bundle/list`);
  expect(r.status).toBe(200);
  return Object.fromEntries((r.json.bundles as any[]).map((b) => [b.name, b]));
};
const setPattern = (bundleId: string, regex: string) => post(emu, `${oc}casc-bundle/set-availability-pattern?${q({ bundleId, regex })}`);
const clearPattern = (bundleId: string) => post(emu, `${oc}casc-bundle/clear-availability-pattern?${q({ bundleId })}`);
const setVisibility = (visibility: string) =>
  post(emu, `${oc}casc-bundle/set-global-availability-pattern-behavior?${q({ visibility })}`);
const assign = (bundleId: string, controllerPath: string) =>
  post(emu, `${oc}casc-bundle/set-controller-to-bundle?${q({ bundleId, controllerPath })}`);

describe("bundle list", () => {
  it("lists every bundle of the location with all Bundle information fields", async () => {
    const bundles = await list();
    expect(Object.keys(bundles)).toEqual(["base", "team-a", "team-b"]);
    const url = `${oc}config-bundle/team-a`;
    expect(bundles["team-a"]).toEqual({
      name: "team-a",
      linkFileContent: `${url}\n`,
      url,
      token: "",
      regex: "team-a/.*",
      availabilityPatternFromYaml: true,
      usedBy: [],
      availableFor: ["team-a/controller-a"],
    });
    expect(bundles["team-b"]).toMatchObject({ regex: "", availabilityPatternFromYaml: false, availableFor: [] });
  });
});

describe("sample bundles (examples/bundles)", () => {
  it("are all valid, with no warnings and no unreferenced files, raw and effective", async () => {
    for (const bundleId of ["base", "team-a", "team-b"]) {
      const r = await post(emu, `${oc}casc-bundle/validate-uploaded-bundle?${q({ bundleId, quiet: "true" })}`);
      expect(r.json).toMatchObject({ valid: true, errorCount: 0, structureValidations: [] });
    }
    const raw = await call(emu, `${oc}casc-bundle/raw-bundle-validation-log`);
    for (const log of raw.json["validation-log"]) expect(log.records[0]).toMatchObject({ errors: 0, warnings: 0 });
  });
});

describe("availability patterns", () => {
  afterEach(async () => {
    await clearPattern("team-a");
    await clearPattern("team-b");
    await setVisibility("false");
  });

  it("matches the whole full path only (anchored)", async () => {
    // "team-a/.*" would also find "x-team-a/controller" and "team-a" with an unanchored search.
    expect((await list())["team-a"].availableFor).toEqual(["team-a/controller-a"]);
    const r = await setPattern("team-b", "controller");
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ controllers: [] });
    expect((await setPattern("team-b", "team-a")).json).toEqual({ controllers: ["team-a"] });
    expect((await setPattern("team-b", ".*controller.*")).json.controllers).toEqual([
      "team-a/controller-a",
      "team-b/controller-b",
      "x-team-a/controller",
    ]);
    expect((await setPattern("team-b", "team-a|sandbox")).json.controllers).toEqual(["sandbox", "team-a"]);
  });

  it("lets a pattern set through the API override bundle.yaml's, and clear restore it", async () => {
    const set = await setPattern("team-a", "sandbox");
    expect(set.json).toEqual({ controllers: ["sandbox"] });
    expect((await list())["team-a"]).toMatchObject({ regex: "sandbox", availabilityPatternFromYaml: false, availableFor: ["sandbox"] });
    expect(emu.state.apiAvailabilityPatterns()).toEqual({ "team-a": "sandbox" });

    const cleared = await clearPattern("team-a");
    expect(cleared.status).toBe(200);
    expect(cleared.json).toEqual({ controllers: ["team-a/controller-a"] });
    expect((await list())["team-a"]).toMatchObject({ regex: "team-a/.*", availabilityPatternFromYaml: true });
    expect(emu.state.apiAvailabilityPatterns()).toEqual({});
  });

  it("an API pattern of '' overrides the yaml pattern too", async () => {
    expect((await setPattern("team-a", "")).json).toEqual({ controllers: [] });
    expect((await list())["team-a"]).toMatchObject({ regex: "", availabilityPatternFromYaml: false });
  });

  it("global visibility makes bundles without a pattern available to every controller", async () => {
    const on = await setVisibility("true");
    expect(on.json).toEqual({ visibility: true });
    expect(emu.state.globalVisibility()).toBe(true);
    const bundles = await list();
    expect(bundles["team-b"].availableFor).toEqual([...CONTROLLERS].sort());
    expect(bundles["base"].availableFor).toEqual([...CONTROLLERS].sort());
    expect(bundles["team-a"].availableFor).toEqual(["team-a/controller-a"]);
    expect((await setVisibility("FALSE")).json).toEqual({ visibility: false });
    expect((await list())["team-b"].availableFor).toEqual([]);
  });

  it("answers an invalid regex with 400 and the reason, without changing anything", async () => {
    const r = await setPattern("team-a", "team-(a");
    expect(r.status).toBe(400);
    expect(r.json.error).toMatch(/Invalid regular expression 'team-\(a'/);
    expect((await list())["team-a"].regex).toBe("team-a/.*");
  });

  it("validates parameters: unknown bundle 404, missing parameter 400, bad visibility 400", async () => {
    expect((await setPattern("nope", ".*")).status).toBe(404);
    expect((await clearPattern("nope")).status).toBe(404);
    expect((await post(emu, `${oc}casc-bundle/set-availability-pattern?bundleId=team-a`)).status).toBe(400);
    expect((await post(emu, `${oc}casc-bundle/set-availability-pattern?regex=x`)).status).toBe(400);
    expect((await setVisibility("maybe")).status).toBe(400);
  });
});

describe("assignment, ordering rules and links", () => {
  it("rule 1: set-controller-to-bundle fails until the bundle is available to the controller", async () => {
    const refused = await assign("team-b", "team-b/controller-b");
    expect(refused.status).toBe(400);
    expect(refused.json.error).toContain("not available to controller 'team-b/controller-b'");
    expect(refused.json.error).toContain("set its availability pattern");
    expect(emu.state.assignments()).toEqual({});

    expect((await setPattern("team-b", "team-b/.*")).status).toBe(200);
    const ok = await assign("team-b", "team-b/controller-b");
    expect(ok.status).toBe(200);
    const token = emu.state.controllerToken("team-b/controller-b");
    expect(ok.json).toMatchObject({ name: "team-b", token, regex: "team-b/.*", availabilityPatternFromYaml: false });
    // usedBy and availableFor belong to list results only.
    expect(ok.json.usedBy).toBeUndefined();
    expect(ok.json.availableFor).toBeUndefined();
    expect(ok.json.linkFileContent).toBe(`${oc}config-bundle/team-b\n${token}`);
    expect(emu.state.assignments()).toEqual({ "team-b/controller-b": "team-b" });

    // Global visibility also satisfies rule 1 for a bundle without pattern.
    expect((await assign("base", "sandbox")).status).toBe(400);
    await setVisibility("true");
    expect((await assign("base", "sandbox")).status).toBe(200);
    await setVisibility("false");
    expect(emu.state.assignments()).toEqual({ "team-b/controller-b": "team-b", sandbox: "base" });
  });

  it("reports usedBy from assignments, and the deprecated set-master-to-bundle still assigns", async () => {
    expect((await list())["team-b"].usedBy).toEqual(["team-b/controller-b"]);
    const old = await post(emu, `${oc}casc-bundle/set-master-to-bundle?${q({ bundleId: "team-a", masterPath: "team-a/controller-a" })}`);
    expect(old.status).toBe(200);
    expect((await list())["team-a"].usedBy).toEqual(["team-a/controller-a"]);
  });

  it("404 for an unknown bundle or controller, 400 for missing parameters", async () => {
    expect((await assign("nope", "sandbox")).status).toBe(404);
    const unknownController = await assign("team-a", "team-a/ghost");
    expect(unknownController.status).toBe(404);
    expect(unknownController.json.error).toContain("team-a/ghost");
    expect((await post(emu, `${oc}casc-bundle/set-controller-to-bundle?bundleId=team-a`)).status).toBe(400);
  });

  it("rule 2: set-default-bundle only records the default; it is pre-selected for matching controllers", async () => {
    await setPattern("base", "x-team-a/.*|team-a/.*");
    try {
      const before = emu.state.assignments();
      expect(before["x-team-a/controller"]).toBeUndefined();
      const r = await post(emu, `${oc}casc-bundle/set-default-bundle?bundleId=base`);
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ name: "base", regex: "x-team-a/.*|team-a/.*", token: "" });
      expect((await list())["base"].availableFor).toEqual(["team-a/controller-a", "x-team-a/controller"]);
      expect(emu.state.defaultBundle()).toBe("base");
      // Nothing is assigned, not even to the unassigned matching controller.
      expect(emu.state.assignments()).toEqual(before);
      expect((await list())["base"].usedBy).toEqual(before["sandbox"] === "base" ? ["sandbox"] : []);
      expect(emu.state.preselectedBundleFor("x-team-a/controller")).toBe("base");
      expect(emu.state.preselectedBundleFor("team-a/controller-a")).toBe("base");
      expect(emu.state.preselectedBundleFor("team-b/controller-b")).toBeNull();
      expect(emu.state.preselectedBundleFor("team-a")).toBeNull();
    } finally {
      await clearPattern("base");
    }
    expect(emu.state.preselectedBundleFor("x-team-a/controller")).toBeNull();
    expect((await post(emu, `${oc}casc-bundle/set-default-bundle?bundleId=nope`)).status).toBe(404);
    expect((await post(emu, `${oc}casc-bundle/set-default-bundle`)).status).toBe(400);
    expect(emu.state.defaultBundle()).toBe("base");
  });

  it("gives the controller link file content and regenerates the token", async () => {
    const link = await call(emu, `${oc}config-bundle-download-link?${q({ id: "team-b/controller-b" })}`);
    expect(link.status).toBe(200);
    const oldToken = emu.state.controllerToken("team-b/controller-b");
    expect(link.json).toEqual({ url: `${oc}config-bundle/team-b`, token: oldToken });
    expect(oldToken).toMatch(/^[0-9a-f]{40}$/);

    const regen = await post(emu, `${oc}casc-bundle/regenerate-token?${q({ controllerPath: "team-b/controller-b" })}`);
    expect(regen.status).toBe(200);
    const newToken = emu.state.controllerToken("team-b/controller-b");
    expect(newToken).not.toBe(oldToken);
    expect(regen.json).toMatchObject({ name: "team-b", token: newToken, linkFileContent: `${oc}config-bundle/team-b\n${newToken}` });
    expect((await call(emu, `${oc}config-bundle-download-link?id=team-b/controller-b`)).json.token).toBe(newToken);
  });

  it("link and token endpoints: 404 without assignment or for unknown controllers, 400 for bundleId alone", async () => {
    const none = await call(emu, `${oc}config-bundle-download-link?id=x-team-a/controller`);
    expect(none.status).toBe(404);
    expect(none.json.error).toContain("No CasC bundle is assigned");
    expect((await call(emu, `${oc}config-bundle-download-link?id=ghost`)).status).toBe(404);
    expect((await post(emu, `${oc}casc-bundle/regenerate-token?controllerPath=x-team-a/controller`)).status).toBe(404);
    const deprecated = await post(emu, `${oc}casc-bundle/regenerate-token?bundleId=team-b`);
    expect(deprecated.status).toBe(400);
    expect(deprecated.json.error).toContain("deprecated");
  });
});

describe("validation logs", () => {
  it("raw log: one record per bundle, filter by bundle, controllers on request", async () => {
    const all = await call(emu, `${oc}casc-bundle/raw-bundle-validation-log`);
    expect(all.status).toBe(200);
    expect(all.json["validation-log"].map((l: any) => l["bundle-id"])).toEqual(["base", "team-a", "team-b"]);
    const record = all.json["validation-log"][1].records[0];
    expect(record).toMatchObject({ version: "1", errors: 0, warnings: 0 });
    expect(record.date).toMatch(/^\d{2} [A-Z][a-z]{2} \d{4}$/);
    expect(record.folder).toMatch(/^\d{8}_\d{5}$/);
    expect(record.messages[0]).toMatch(/^INFO - \[STRUCTURE\] - /);
    expect(all.json["validation-log"][0].controllers).toBeUndefined();

    const one = await call(emu, `${oc}casc-bundle/raw-bundle-validation-log?bundle=team-b&controller=true`);
    expect(one.json["validation-log"]).toHaveLength(1);
    const entry = one.json["validation-log"][0];
    expect(entry["bundle-id"]).toBe("team-b");
    expect(entry.controllers).toEqual([
      { controller: "team-b/controller-b", records: [expect.objectContaining({ bundle: "team-b", assigned: true, errors: 0 })] },
    ]);
    expect(entry.controllers[0].records[0].version).toMatch(/^[0-9a-f]{32}$/);
    expect((await call(emu, `${oc}casc-bundle/raw-bundle-validation-log?bundle=nope`)).status).toBe(404);
  });

  it("effective log: per controller, records carry `assigned`, controller regex filter", async () => {
    const all = await call(emu, `${oc}casc-bundle/effective-bundle-validation-log`);
    expect(all.json["validation-log"].map((l: any) => l.controller)).toEqual([...CONTROLLERS].sort());
    const filtered = await call(emu, `${oc}casc-bundle/effective-bundle-validation-log?controller=${encodeURIComponent("team-a/.*")}`);
    const logs = filtered.json["validation-log"];
    expect(logs.map((l: any) => l.controller)).toEqual(["team-a/controller-a"]);
    // team-a is assigned (set-master-to-bundle above); nothing else is available to it.
    expect(logs[0].records).toEqual([expect.objectContaining({ bundle: "team-a", assigned: true, errors: 0, warnings: 0 })]);
    const byName = await call(emu, `${oc}casc-bundle/effective-bundle-validation-log?controller=controller-b`);
    expect(byName.json["validation-log"].map((l: any) => l.controller)).toEqual(["team-b/controller-b"]);
    const unassigned = byName.json["validation-log"][0].records;
    expect(unassigned.map((r: any) => [r.bundle, r.assigned])).toEqual([["team-b", true]]);
    const bad = await call(emu, `${oc}casc-bundle/effective-bundle-validation-log?controller=${encodeURIComponent("[")}`);
    expect(bad.status).toBe(400);
  });

  it("effective log lists available but unassigned bundles with assigned=false", async () => {
    await setPattern("base", "x-team-a/.*");
    try {
      const r = await call(emu, `${oc}casc-bundle/effective-bundle-validation-log?controller=x-team-a/controller`);
      expect(r.json["validation-log"][0].records).toEqual([expect.objectContaining({ bundle: "base", assigned: false })]);
    } finally {
      await clearPattern("base");
    }
  });
});

describe("bundle.yaml's availability pattern, as the list sees it", () => {
  it("is the one checked out: an edit on disk shows only after the next check-out", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pattern-edit-"));
    const yaml = (pattern: string) => `apiVersion: "1"\nid: "edited"\nversion: "1"\navailabilityPattern: "${pattern}"\n`;
    fs.mkdirSync(`${dir}/edited`);
    fs.writeFileSync(`${dir}/edited/bundle.yaml`, yaml("sandbox"));
    const own = await startEmulator({ bundlesDir: dir, controllers: ["sandbox", "other"] });
    try {
      const listed = async () => ((await call(own, `${own.operationsCenterUrl}casc-bundle/list`)).json.bundles as any[])[0];
      expect(await listed()).toMatchObject({ regex: "sandbox", availabilityPatternFromYaml: true, availableFor: ["sandbox"] });
      fs.writeFileSync(`${dir}/edited/bundle.yaml`, yaml("other"));
      expect(await listed()).toMatchObject({ regex: "sandbox", availableFor: ["sandbox"] });
      expect((await post(own, `${own.operationsCenterUrl}casc-bundle/check-out`)).status).toBe(200);
      expect(await listed()).toMatchObject({ regex: "other", availabilityPatternFromYaml: true, availableFor: ["other"] });
    } finally {
      await own.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
