import { startEmulator, type Emulator } from "../../emulator";
import { closeClients, FeatureManagementClient, getApplications, getAuditLogs, getEnvironments, getExperiments, getFlags, getTargetGroups, getTeamMembers } from "../../sdk";
import { adminSettings, isolateEnvironment, warningsOf } from "./helpers";

// The get* functions read feature-flag lists item by item, as the resources do (issue 43): one item in a form
// this version cannot read is skipped and said once, in a warning naming it (quoted, escaped, bounded) and the
// field; the others are answered. Over real HTTP: the emulator answers a list with one item altered, as a newer
// service could write it.

let emu: Emulator;
let appId: string;
const FM = "/feature-management/public-api/applications";
isolateEnvironment();
const opts = () => ({ settings: { ...adminSettings(emu), featureManagementRequestIntervalMs: 0 } });
let ui: FeatureManagementClient;

beforeAll(async () => {
  emu = await startEmulator();
  ui = new FeatureManagementClient({ baseUrl: emu.featureManagementUrl, token: emu.credentials.featureManagementToken, minRequestIntervalMs: 0 });
  appId = (await ui.createApplication("lenient")).id;
  await ui.putTargetGroup(appId, { type: "target-group", name: "beta", conditions: [{ property: "beta", operator: "is-true" }] });
  await ui.putTargetGroup(appId, { type: "target-group", name: "odd", conditions: [{ property: "plan", operator: "is-true" }] });
  for (const flag of ["fine", "odd"]) {
    await ui.createFlag(appId, { name: flag });
    await ui.putExperiment(appId, "Production", { type: "experiment", flag, conditions: [{ group: { name: "beta" }, value: true }], value: false });
  }
});
afterAll(async () => {
  await ui.close();
  await closeClients();
  await emu.close();
});

/** The next GET of `path` answers `list` with the item named `name` (by `key`) changed by `alter`. */
function answerAltered(path: string, list: Record<string, unknown>[], key: string, name: string, alter: (item: Record<string, unknown>) => Record<string, unknown>): void {
  const body = list.map((item) => (item[key] === name ? alter(item) : item));
  emu.faults.inject({ method: "GET", path, status: 200, body: JSON.stringify(body), times: 1 });
}

describe("lenient list reads of the get* functions", () => {
  it("getExperiments answers the experiments it can read and warns once of the one it cannot, naming flag and field", async () => {
    const answer = await ui.listExperiments(appId, "Production");
    answerAltered(`${FM}/${appId}/Production/experiments`, answer as never, "flag", "odd", (e) => ({ ...e, conditions: [{ group: { operator: "xor", name: "beta" }, value: true }] }));
    const { result, warnings } = await warningsOf(() => getExperiments(appId, "Production", opts()));
    expect(result.map((e) => e.flag)).toEqual(["fine"]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      new RegExp(
        `^warning: \\[runtime\\] getExperiments\\(applicationId: "${appId}", environment: "Production"\\): skipped experiment "odd" \\(item 2 of the answer\\), ` +
          `in a form this version of pulumi-cloudbees cannot read \\(conditions\\[0\\]\\.group\\.operator: [^)]+\\); the other items were read$`,
      ),
    );
    // Read once more, as the service answers it now: both, no warning (the skipped item was said once, for its answer).
    const again = await warningsOf(() => getExperiments(appId, "Production", opts()));
    expect(again.result.map((e) => e.flag)).toEqual(["fine", "odd"]);
    expect(again.warnings).toEqual([]);
  });

  it("getFlags skips a flag it cannot read, named", async () => {
    const answer = await ui.listFlags(appId, "Production");
    answerAltered(`${FM}/${appId}/Production/flags`, answer as never, "name", "odd", (f) => ({ ...f, isPermanent: "yes" }));
    const { result, warnings } = await warningsOf(() => getFlags(appId, "Production", opts()));
    expect(result.map((f) => f.name)).toEqual(["fine"]);
    expect(warnings).toEqual([expect.stringMatching(/: skipped flag "odd" \(item 2 of the answer\), in a form .* \(isPermanent: [^)]+\); the other items were read$/)]);
  });

  it("getTargetGroups skips a target group it cannot read, named", async () => {
    const answer = await ui.listTargetGroups(appId);
    answerAltered(`${FM}/${appId}/target-groups`, answer as never, "name", "odd", (t) => ({ ...t, operator: "xor" }));
    const { result, warnings } = await warningsOf(() => getTargetGroups(appId, opts()));
    expect(result.map((t) => t.name)).toEqual(["beta"]);
    expect(warnings).toEqual([expect.stringMatching(/: skipped target group "odd" \(item 2 of the answer\), in a form .* \(operator: [^)]+\); the other items were read$/)]);
  });

  it("getApplications, getEnvironments and getTeamMembers skip the item they cannot read, named", async () => {
    const apps = (await ui.listApplications()) as unknown as Record<string, unknown>[];
    emu.faults.inject({ method: "GET", path: FM, status: 200, body: JSON.stringify([{ id: "", name: "broken" }, ...apps]), times: 1 });
    const a = await warningsOf(() => getApplications(opts()));
    expect(a.result.map((x) => x.id)).toEqual([appId]);
    expect(a.warnings).toEqual([expect.stringMatching(/getApplications\(\): skipped application "broken" \(item 1 of the answer\), .* \(id: [^)]+\)/)]);

    const envs = (await ui.listEnvironments(appId)) as unknown as Record<string, unknown>[];
    emu.faults.inject({ method: "GET", path: `${FM}/${appId}/environments`, status: 200, body: JSON.stringify([...envs, { name: "Keyless" }]), times: 1 });
    const e = await warningsOf(() => getEnvironments(appId, opts()));
    expect(e.result.map((x) => x.name)).toEqual(envs.map((x) => x.name));
    expect(e.warnings).toEqual([expect.stringMatching(new RegExp(`: skipped environment "Keyless" \\(item ${envs.length + 1} of the answer\\), .* \\(key: [^)]+\\)`))]);

    await ui.putTeamMember({ email: "alice@example.com", name: "Alice" });
    const members = (await ui.listTeamMembers()) as unknown as Record<string, unknown>[];
    const odd = { email: "bob@example.com", applications: { [appId]: { environments: { Production: "admin" } } } };
    emu.faults.inject({ method: "GET", path: "/feature-management/public-api/users", status: 200, body: JSON.stringify([...members, odd]), times: 1 });
    const m = await warningsOf(() => getTeamMembers(opts()));
    expect(m.result.map((x) => x.email)).toEqual(members.map((x) => x.email));
    expect(m.warnings).toEqual([expect.stringMatching(/getTeamMembers\(\): skipped team member "bob@example\.com" \(item \d+ of the answer\), .* \(applications\./)]);
  });

  it("getAuditLogs skips a record it cannot read (one without its date), named by its _id", async () => {
    await ui.createFlag(appId, { name: "audited" });
    const records = (await ui.getAuditLogs(appId, "Production", "2000-01-01T00:00:00Z")) as unknown as Record<string, unknown>[];
    expect(records.length).toBeGreaterThan(0);
    emu.faults.inject({ method: "GET", path: `${FM}/${appId}/Production/auditlogs`, status: 200, body: JSON.stringify([...records, { _id: "odd-record", action: "updated" }]), times: 1 });
    const { result, warnings } = await warningsOf(() => getAuditLogs(appId, "Production", "2000-01-01T00:00:00Z", opts()));
    expect(result.map((r) => r.id)).toEqual(records.map((r) => r._id));
    expect(warnings).toEqual([expect.stringMatching(/getAuditLogs\(.*\): skipped audit-log record "odd-record" \(item \d+ of the answer\), in a form .* \(creation_date: /)]);
  });

  it("names a hostile name escaped, quoted and bounded, and an item without a name by its place", async () => {
    const answer = (await ui.listExperiments(appId, "Production")) as unknown as Record<string, unknown>[];
    const hostile = `odd\n::error::owned\u001b[31m${"x".repeat(5000)}`;
    const body = [{ ...answer[0], flag: hostile, value: { nested: true } }, { ...answer[1], flag: 42 }];
    emu.faults.inject({ method: "GET", path: `${FM}/${appId}/Production/experiments`, status: 200, body: JSON.stringify(body), times: 1 });
    const { result, warnings } = await warningsOf(() => getExperiments(appId, "Production", opts()));
    expect(result).toEqual([]);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('skipped experiment "odd\\n::error::owned\\u001b[31mxxx');
    expect(warnings[0]).toContain("characters left out");
    expect(warnings[0]!.length).toBeLessThan(1000);
    expect(warnings[0]).not.toMatch(/[\n\u001b]/);
    expect(warnings[1]).toMatch(/: skipped an unnamed experiment \(item 2 of the answer\), in a form .* \(flag: [^)]+\)/);
  });
});
