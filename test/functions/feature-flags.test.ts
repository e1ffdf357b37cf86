import { startEmulator, type Emulator } from "../../emulator";
import {
  closeClients,
  FeatureManagementClient,
  getAuditLogs,
  getEnvironments,
  getExperiments,
  getFlag,
  getFlags,
  getTargetGroups,
  getTeamMember,
  getTeamMembers,
  InvalidInputError,
  NotFoundError,
} from "../../sdk";
import { adminSettings, isolateEnvironment, requests } from "./helpers";

// The feature-flag functions over real HTTP against the emulator: the request each one sends, and the typed,
// camelCase result it gives (rows E1, F1, F2, X1, T1, L1 of ../shared/notes/feature-management-api.md).

let emu: Emulator;
let appId: string;
const FM = "/feature-management/public-api/applications";
isolateEnvironment();
const opts = () => ({ settings: { ...adminSettings(emu), featureManagementRequestIntervalMs: 0 } });

beforeAll(async () => {
  emu = await startEmulator();
  // Set up "in the UI" (the API), so that the functions' own requests are the only ones counted below.
  const ui = new FeatureManagementClient({ baseUrl: emu.featureManagementUrl, token: emu.credentials.featureManagementToken, minRequestIntervalMs: 0 });
  try {
    appId = (await ui.createApplication("shop")).id;
    await ui.createEnvironment(appId, { name: "Staging", description: "pre-production" });
    await ui.putTargetGroup(appId, { type: "target-group", name: "beta", operator: "or", conditions: [{ property: "plan", operator: "in-array", operand: ["beta"] }] });
    await ui.createFlag(appId, { name: "shop.newCheckout" });
    await ui.createFlag(appId, { name: "shop.banner", availableValues: ["blue", "red"] });
    await ui.putExperiment(appId, "Staging", { type: "experiment", flag: "shop.newCheckout", conditions: [{ group: { name: "beta" }, value: true }], value: false });
    await ui.putTeamMember({ email: "Alice@Example.com", name: "Alice", applications: { [appId]: { environments: { Staging: "write" } } } });
  } finally {
    await ui.close();
  }
});
afterAll(async () => {
  await closeClients();
  await emu.close();
});
beforeEach(() => emu.journal.clear());

describe("feature-flag functions", () => {
  it("getEnvironments lists the application's environments with their SDK keys", async () => {
    const envs = await getEnvironments(appId, opts());
    expect(envs.map((e) => e.name)).toEqual(["Production", "Staging"]);
    expect(envs.map((e) => e.key)).toEqual(emu.state.environments(appId).map((e) => e.key));
    expect(envs[1]).toMatchObject({ name: "Staging", description: "pre-production" });
    expect(requests(emu.journal.entries())).toEqual([`GET ${FM}/${appId}/environments`]);
  });

  it("getFlags lists every flag, configured or not; getFlag reads one; getExperiments only the configured", async () => {
    const flags = await getFlags(appId, "Staging", opts());
    expect(flags.map((f) => f.name).sort()).toEqual(["shop.banner", "shop.newCheckout"]);
    const flag = await getFlag(appId, "Staging", "shop.newCheckout", opts());
    expect(flag).toMatchObject({ name: "shop.newCheckout", value: false, conditions: [{ group: { name: "beta" }, value: true }] });
    const experiments = await getExperiments(appId, "Staging", opts());
    expect(experiments.map((x) => x.flag)).toEqual(["shop.newCheckout"]);
    // Nothing is configured in Production: the flag exists there, the experiment does not.
    await expect(getExperiments(appId, "Production", opts())).resolves.toEqual([]);
    expect(requests(emu.journal.entries())).toEqual([
      `GET ${FM}/${appId}/Staging/flags`,
      `GET ${FM}/${appId}/Staging/flags/shop.newCheckout`,
      `GET ${FM}/${appId}/Staging/experiments`,
      `GET ${FM}/${appId}/Production/experiments`,
    ]);
  });

  it("an environment name travels URL-encoded, as one path segment", async () => {
    await expect(getFlags(appId, "E2E Testing", opts())).rejects.toThrow(NotFoundError);
    expect(emu.journal.entries()[0]!.path).toBe(`${FM}/${appId}/E2E%20Testing/flags`);
    await expect(getFlags(appId, "..", opts())).rejects.toThrow(InvalidInputError);
    expect(emu.journal.entries()).toHaveLength(1);
  });

  it("getTargetGroups lists the application's target groups", async () => {
    const groups = await getTargetGroups(appId, opts());
    expect(groups).toEqual([expect.objectContaining({ name: "beta", operator: "or", conditions: [{ property: "plan", operator: "in-array", operand: ["beta"] }] })]);
    expect(requests(emu.journal.entries())).toEqual([`GET ${FM}/${appId}/target-groups`]);
  });

  it("getAuditLogs sends startDate as an ISO instant and answers camelCase records", async () => {
    const logs = await getAuditLogs(appId, "Staging", new Date("2000-01-01T00:00:00Z"), opts());
    expect(logs.length).toBeGreaterThan(0);
    for (const log of logs) {
      expect(log.id).toEqual(expect.any(String));
      expect(Number.isNaN(Date.parse(log.creationDate))).toBe(false);
      expect(log).not.toHaveProperty("_id");
      expect(log).not.toHaveProperty("creation_date");
    }
    const [entry] = emu.journal.entries();
    expect(`${entry!.method} ${entry!.path}`).toBe(`GET ${FM}/${appId}/Staging/auditlogs`);
    expect(entry!.query).toEqual({ startDate: "2000-01-01T00:00:00.000Z" });
    // A date after every record: nothing.
    await expect(getAuditLogs(appId, "Staging", "2999-01-01T00:00:00Z", opts())).resolves.toEqual([]);
    await expect(getAuditLogs(appId, "Staging", "yesterday", opts())).rejects.toThrow('getAuditLogs(applicationId: ');
  });

  it("getTeamMembers lists the account's team members (U1); getTeamMember reads one by email, whatever its case (U2)", async () => {
    const members = await getTeamMembers(opts());
    expect(members).toEqual([
      { email: "api-user-1@acme.example", name: "acme API user 1", teamAdmin: true, applications: {} },
      { email: "Alice@Example.com", name: "Alice", teamAdmin: false, applications: { [appId]: { environments: { Staging: "write" } } } },
    ]);
    expect(await getTeamMember("alice@example.com", opts())).toEqual(members[1]);
    expect(requests(emu.journal.entries())).toEqual([`GET /feature-management/public-api/users`, `GET /feature-management/public-api/users/alice%40example.com`]);
    const missing = (await getTeamMember("nobody@example.com", opts()).catch((e: unknown) => e)) as Error;
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing.message).toMatch(/^getTeamMember\(email: "nobody@example.com"\): reading a team member \(GET .*\): .*No team member of the account has this email/);
    await expect(getTeamMember("a/b@example.com", opts())).rejects.toThrow(InvalidInputError);
  });

  it("errors name the function and its arguments, once, in the message and in the stack", async () => {
    const error = (await getEnvironments("5e95ad1fa6de037e1793732b", opts()).then(
      () => new Error("getEnvironments did not fail"),
      (e: Error) => e,
    ));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toMatch(/^getEnvironments\(applicationId: "5e95ad1fa6de037e1793732b"\): listing the environments of application "5e95ad1fa6de037e1793732b"/);
    // What a program prints on failure is the stack: its first line says the call once, as the message does.
    expect(error.stack!.split("\n")[0]).toBe(`NotFoundError: ${error.message.split("\n")[0]}`);
  });
});
