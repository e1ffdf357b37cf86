import { NotFoundError, RequestRejectedError, UnexpectedResponseError } from "../../provider";
import { appPath, startFlagSetup, type FlagSetup } from "../emulator/feature-flag-setup";

// Every endpoint of the note's table (E1-L1) through FeatureManagementClient: exactly the method, path, headers and
// body on the wire (the emulator's journal), the answer parsed, and errors naming the endpoint.

let s: FlagSetup;
let app: string;
beforeAll(async () => {
  s = await startFlagSetup();
  app = await s.newApplication("wire");
});
afterAll(async () => s.close());
beforeEach(() => {
  s.emu.journal.clear();
  s.emu.faults.clear();
});

function only() {
  const entries = s.emu.journal.entries();
  expect(entries).toHaveLength(1);
  const e = entries[0]!;
  expect(e.headers.accept).toBe("application/json");
  expect(e.headers.authorization).toBe(`Bearer ${s.emu.credentials.featureManagementToken}`);
  if (e.body.length > 0) expect(e.headers["content-type"]).toBe("application/json");
  else expect(e.headers["content-type"]).toBeUndefined();
  s.emu.journal.clear();
  return { method: e.method, path: e.path, query: e.query, body: e.body.length ? JSON.parse(e.body.toString()) : undefined };
}

describe("environments (E1, E2)", () => {
  it("lists the application's environments: a new application has Production, with a 24-hex key", async () => {
    const envs = await s.client.listEnvironments(app);
    expect(envs).toEqual([{ name: "Production", key: expect.stringMatching(/^[0-9a-f]{24}$/), description: "" }]);
    expect(only()).toEqual({ method: "GET", path: `${appPath(app)}/environments`, query: {}, body: undefined });
  });

  it("creates an environment with PUT .../environments/key; a name with a space is URL-encoded in later paths", async () => {
    const env = await s.client.createEnvironment(app, { name: "E2E Testing", description: "end to end" });
    expect(env).toEqual({ name: "E2E Testing", key: expect.stringMatching(/^[0-9a-f]{24}$/), description: "end to end" });
    expect(only()).toEqual({ method: "PUT", path: `${appPath(app)}/environments/key`, query: {}, body: { name: "E2E Testing", description: "end to end" } });

    await s.client.listFlags(app, "E2E Testing");
    expect(only().path).toBe(`${appPath(app)}/E2E%20Testing/flags`);
  });
});

describe("flags (F1-F5)", () => {
  it("creates a flag app-wide with PUT .../flags", async () => {
    const flag = await s.client.createFlag(app, { name: "color", availableValues: ["red", "green"], isPermanent: true });
    expect(flag).toEqual({ name: "color", availableValues: ["red", "green"], isPermanent: true });
    expect(only()).toEqual({ method: "PUT", path: `${appPath(app)}/flags`, query: {}, body: { name: "color", availableValues: ["red", "green"], isPermanent: true } });
  });

  it("sets the configuration in one environment with PUT .../{env}/flags/{flag}, and reads it back with F1 and F2", async () => {
    await s.client.createFlag(app, { name: "ns.dark mode" });
    s.emu.journal.clear();
    const body = { name: "ns.dark mode", enabled: true, value: true, labels: ["ui"], description: "dark" };
    const answer = await s.client.setFlagConfiguration(app, "Production", body);
    expect(answer).toMatchObject({ name: "ns.dark mode", availableValues: [false, true], isPermanent: false, enabled: true, value: true, labels: ["ui"], description: "dark" });
    expect(only()).toEqual({ method: "PUT", path: `${appPath(app)}/Production/flags/ns.dark%20mode`, query: {}, body });

    expect(await s.client.getFlag(app, "Production", "ns.dark mode")).toEqual(answer);
    expect(only()).toMatchObject({ method: "GET", path: `${appPath(app)}/Production/flags/ns.dark%20mode` });
    expect(await s.client.listFlags(app, "Production")).toContainEqual(answer);
    expect(only()).toMatchObject({ method: "GET", path: `${appPath(app)}/Production/flags` });
  });

  it("deletes a flag with DELETE .../flags/{flag}", async () => {
    await s.client.createFlag(app, { name: "short-lived" });
    s.emu.journal.clear();
    await s.client.deleteFlag(app, "short-lived");
    expect(only()).toEqual({ method: "DELETE", path: `${appPath(app)}/flags/short-lived`, query: {}, body: undefined });
    expect(s.emu.state.flags(app).map((f) => f.name)).not.toContain("short-lived");
  });
});

describe("experiments (X1-X5)", () => {
  it("puts, lists, reads, patches and deletes with the note's methods and paths", async () => {
    const body = { type: "experiment" as const, flag: "exp-wire", value: [{ option: true, percentage: 25 }] };
    const put = await s.client.putExperiment(app, "Production", body);
    expect(put.value).toEqual([{ option: true, percentage: 25 }]);
    expect(only()).toEqual({ method: "PUT", path: `${appPath(app)}/Production/experiments`, query: {}, body });

    expect(await s.client.listExperiments(app, "Production")).toContainEqual(put);
    expect(only()).toMatchObject({ method: "GET", path: `${appPath(app)}/Production/experiments`, body: undefined });

    expect(await s.client.getExperiment(app, "Production", "exp-wire")).toEqual(put);
    expect(only()).toMatchObject({ method: "GET", path: `${appPath(app)}/Production/experiments/exp-wire` });

    const patch = [{ op: "replace" as const, path: "/enabled", value: false }];
    expect((await s.client.patchExperiment(app, "Production", "exp-wire", patch)).enabled).toBe(false);
    expect(only()).toEqual({ method: "PATCH", path: `${appPath(app)}/Production/experiments/exp-wire`, query: {}, body: patch });

    await s.client.deleteExperiment(app, "Production", "exp-wire");
    expect(only()).toEqual({ method: "DELETE", path: `${appPath(app)}/Production/experiments/exp-wire`, query: {}, body: undefined });
  });
});

describe("target groups (T1, T2) and audit logs (L1)", () => {
  it("puts and lists target groups", async () => {
    const body = { type: "target-group" as const, name: "beta", conditions: [{ property: "email", operator: "regex" as const, operand: "@acme\\.com$" }] };
    const put = await s.client.putTargetGroup(app, body);
    expect(put).toEqual({ ...body, description: "", operator: "and" });
    expect(only()).toEqual({ method: "PUT", path: `${appPath(app)}/target-groups`, query: {}, body });
    expect(await s.client.listTargetGroups(app)).toEqual([put]);
    expect(only()).toMatchObject({ method: "GET", path: `${appPath(app)}/target-groups` });
  });

  it("reads audit logs with startDate as an ISO-8601 instant", async () => {
    const start = new Date(Date.now() - 60_000);
    const logs = await s.client.getAuditLogs(app, "Production", start);
    expect(logs.length).toBeGreaterThan(0);
    expect(logs[0]).toMatchObject({ application: app, environmentId: expect.stringMatching(/^[0-9a-f]{24}$/), creation_date: expect.any(String) });
    expect(only()).toEqual({ method: "GET", path: `${appPath(app)}/Production/auditlogs`, query: { startDate: start.toISOString() }, body: undefined });
  });
});

describe("errors name the endpoint", () => {
  it("404: an unknown environment or flag is a NotFoundError naming the operation and the path", async () => {
    const env = await s.client.listFlags(app, "Nowhere").catch((e) => e);
    expect(env).toBeInstanceOf(NotFoundError);
    expect(env.message).toContain(`listing the flags of application "${app}" in environment "Nowhere" (GET ${appPath(app)}/Nowhere/flags)`);
    expect(env.bodyExcerpt).toContain("Environment 'Nowhere' not found");

    const flag = await s.client.getFlag(app, "Production", "ghost").catch((e) => e);
    expect(flag).toBeInstanceOf(NotFoundError);
    expect(flag.message).toContain('reading flag "ghost"');
  });

  it("400: a refused value is a RequestRejectedError whose excerpt names the field", async () => {
    await s.client.createFlag(app, { name: "size", availableValues: ["s", "m", "l"] });
    const error = await s.client.putExperiment(app, "Production", { type: "experiment", flag: "size", value: [{ option: "s", percentage: 120 }] }).catch((e) => e);
    expect(error).toBeInstanceOf(RequestRejectedError);
    expect(error.status).toBe(400);
    expect(error.message).toContain(`(PUT ${appPath(app)}/Production/experiments)`);
    expect(error.bodyExcerpt).toContain("value[0].percentage: must be a number from 0 to 100");
  });

  it("409: other available values for an existing flag", async () => {
    await s.client.createFlag(app, { name: "tier", availableValues: ["gold", "silver"] });
    await expect(s.client.createFlag(app, { name: "tier", availableValues: ["silver", "gold"] })).resolves.toMatchObject({ name: "tier" });
    const error = await s.client.createFlag(app, { name: "tier", availableValues: ["gold"] }).catch((e) => e);
    expect(error).toBeInstanceOf(RequestRejectedError);
    expect(error.status).toBe(409);
    expect(error.bodyExcerpt).toContain("cannot change");
  });

  it("an answer of the wrong shape is an UnexpectedResponseError naming the field", async () => {
    s.emu.faults.inject({ method: "GET", path: `${appPath(app)}/Production/flags`, status: 200, body: '[{"name":"ok"},{"name":"bad","enabled":"yes"}]' });
    const error = await s.client.listFlags(app, "Production").catch((e) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error.field).toBe("[1].enabled");
  });
});
