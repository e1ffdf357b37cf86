import { listReadings } from "../../emulator";
import { UnexpectedResponseError } from "../../provider";
import { appPath, startFlagSetup, type FlagSetup } from "../emulator/feature-flag-setup";

// Answers shaped as the real service gives them, read by FeatureManagementClient (issue 39): E2's bare key, and lists
// in which one item cannot be read.

describe("E2 (PUT .../environments/key) under each reading of its answer", () => {
  // The real service answers the new environment's key itself: cb-demos/fm-initializer, commit f869bf0 "Fixing key
  // issue", takes the whole body as the key (`const { data } = await axios.put(...environments/key, ...)`), asking for
  // application/json; axios gives a JSON string and a bare text alike. The reading environmentKeyBody plays each form.
  const forms = listReadings().find((r) => r.name === "environmentKeyBody")!.values as string[];
  it.each(forms)("environmentKeyBody=%s: the environment with its key, the same key the service lists", async (form) => {
    const under = await startFlagSetup({ readings: { environmentKeyBody: form as "json-string" } });
    try {
      const id = await under.newApplication();
      const env = await under.client.createEnvironment(id, { name: "QA", description: "QA Environment" });
      const held = under.emu.state.environments(id).find((e) => e.name === "QA")!;
      expect(env).toEqual({ name: "QA", key: held.key, description: "QA Environment" });
      expect(held.key).toMatch(/^[0-9a-f]{24}$/);
    } finally {
      await under.close();
    }
  });
});

// One emulator for the cases below, whose answers are injected faults.
let s: FlagSetup;
let app: string;
beforeAll(async () => {
  s = await startFlagSetup();
  app = await s.newApplication();
});
afterAll(async () => s.close());

describe("bare keys the client reads, and answers it refuses", () => {
  const inject = (body: string, type: string) =>
    s.emu.faults.inject({ method: "PUT", path: `${appPath(app)}/environments/key`, status: 200, body, headers: { "content-type": type } });

  it("a key of decimal digits stays text (JSON would read it as a number and lose digits)", async () => {
    inject("123456789012345678901234\n", "text/html; charset=utf-8");
    expect(await s.client.createEnvironment(app, { name: "Digits" })).toEqual({ name: "Digits", key: "123456789012345678901234" });
  });

  it("a UUID key (CloudBees platform) as a JSON string", async () => {
    inject('"0f8fad5b-d9cb-469f-a165-70867728950e"', "application/json");
    expect((await s.client.createEnvironment(app, { name: "Uuid" })).key).toBe("0f8fad5b-d9cb-469f-a165-70867728950e");
  });

  it.each([
    ["an HTML page", "<html><body>Welcome</body></html>", "text/html"],
    ["an empty body", "", "text/plain"],
    ["a JSON list", '["a"]', "application/json"],
    ["a text with spaces", "key: 0123", "text/plain"],
    ["an object without key", '{"name":"QA"}', "application/json"],
  ])("%s is an UnexpectedResponseError", async (_what, body, type) => {
    inject(body, type);
    await expect(s.client.createEnvironment(app, { name: "QA" })).rejects.toBeInstanceOf(UnexpectedResponseError);
  });
});

describe("lists read item by item: one record the client cannot read hides none of the others", () => {
  it("experiments: the readable ones, and the unreadable one named by its flag with the field and why", async () => {
    const body = [
      { type: "experiment", flag: "a", value: true },
      { type: "experiment", flag: "b", conditions: [{ group: { operator: "xor", name: "QA" }, value: true }] },
      { type: "experiment", flag: "c", value: [{ from: "2022-02-28T15:35:00.000Z", percentage: 100, option: true }], extra: { kept: 1 } },
      "not an experiment",
    ];
    s.emu.faults.inject({ method: "GET", path: `${appPath(app)}/Production/experiments`, status: 200, body: JSON.stringify(body) });
    const list = await s.client.readExperimentList(app, "Production");
    expect(list.items).toEqual([body[0], body[2]]);
    expect(list.unreadable).toEqual([
      { index: 1, name: "b", problem: expect.stringMatching(/^conditions\[0\]\.group\.operator: /) },
      { index: 3, problem: expect.any(String) },
    ]);
    // The strict list names the first unreadable item's field.
    s.emu.faults.inject({ method: "GET", path: `${appPath(app)}/Production/experiments`, status: 200, body: JSON.stringify(body) });
    const error = await s.client.listExperiments(app, "Production").catch((e) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error.field).toBe("[1].conditions[0].group.operator");
  });

  it("flags and target groups likewise", async () => {
    s.emu.faults.inject({ method: "GET", path: `${appPath(app)}/Production/flags`, status: 200, body: '[{"name":"ok"},{"name":"bad","enabled":"yes"}]' });
    const flags = await s.client.readFlagList(app, "Production");
    expect([flags.items.map((f) => f.name), flags.unreadable]).toEqual([["ok"], [{ index: 1, name: "bad", problem: expect.stringMatching(/^enabled: /) }]]);
    s.emu.faults.inject({ method: "GET", path: `${appPath(app)}/target-groups`, status: 200, body: '[{"name":"g","conditions":null},{"name":"h","operator":"xor"}]' });
    const groups = await s.client.readTargetGroupList(app);
    expect([groups.items, groups.unreadable.map((u) => u.name)]).toEqual([[{ name: "g", conditions: null }], ["h"]]);
  });

  it("E2 answered without a body is read back from E1 item by item: another entry it cannot read hides nothing; this one, so listed, is named", async () => {
    const put = () => s.emu.faults.inject({ method: "PUT", path: `${appPath(app)}/environments/key`, status: 204, body: "" });
    const list = (body: unknown[]) => s.emu.faults.inject({ method: "GET", path: `${appPath(app)}/environments`, status: 200, body: JSON.stringify(body) });
    const production = { name: "Production", key: "5e95ad1fa6de037e1793732a" };
    put();
    list([production, { name: "Other", _id: "x" }, { name: "QA3", key: "5e95ad1fa6de037e1793732c" }]);
    expect(await s.client.createEnvironment(app, { name: "QA3" })).toEqual({ name: "QA3", key: "5e95ad1fa6de037e1793732c" });
    put();
    list([production, { name: "qa4", _id: "y" }]);
    const error = await s.client.createEnvironment(app, { name: "QA4" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as Error).message).toMatch(
      /the service answered without a body \(no key\), and lists the environment to read its key from: environment "qa4" \(item 2 of the answer\) is in a form this version of pulumi-cloudbees cannot read \(key: /,
    );
  });
});
