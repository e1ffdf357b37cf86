/* istanbul ignore file */
import { CheckFailedError, ProviderHostError } from "../harness";
import { lines, startFlagWorld, writes, type FlagWorld } from "./feature-flag-helpers";

// TeamMember through the real provider host against the emulator's users API (U1-U4 of
// ../shared/notes/feature-management-api.md: U1 documented, U2/U3 seen in one client, U4 guessed).
let w: FlagWorld;
let app: string;
let other: string;
beforeAll(async () => {
  w = await startFlagWorld();
  app = (await w.fm.createApplication("members")).id;
  other = (await w.fm.createApplication("members-other")).id;
  await w.fm.createEnvironment(app, { name: "Staging" });
});
afterAll(async () => {
  await w?.close();
});

const member = (account: string) => w.emu.state.teamMembers(account);
const ACCOUNT = "acme";

describe("TeamMember", () => {
  it("creates with one list and one PUT; a refresh after up changes nothing; permissions are a map (order and environment-name case do not matter)", async () => {
    let mark = w.mark();
    const alice = w.ff("teamMember", "alice", {
      email: "alice@example.com",
      name: "Alice",
      applications: { [app]: { environments: { Production: "read", staging: "write" } } },
    });
    await alice.up();
    expect(lines(w.since(mark))).toEqual(["GET /users", "PUT /users"]);
    expect(alice.state!.id).toBe("alice@example.com");
    expect(alice.state!.outputs).toMatchObject({ email: "alice@example.com", name: "Alice", adopted: false });
    expect(alice.state!.outputs.writtenAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    // The service stores the environment under its own name (Staging); the program's form stays in the state.
    expect(member(ACCOUNT).find((m) => m.email === "alice@example.com")).toEqual({
      email: "alice@example.com",
      name: "Alice",
      teamAdmin: false,
      applications: { [app]: { environments: { Production: "read", Staging: "write" } } },
    });

    await w.nextDeployment();
    mark = w.mark();
    expect(await alice.refresh()).toMatchObject({ changedFields: [] });
    expect(lines(w.since(mark))).toEqual(["GET /users"]);
    // The same permissions in another order and case: no change, nothing sent.
    mark = w.mark();
    expect(await alice.up({ email: "alice@example.com", name: "Alice", applications: { [app]: { environments: { STAGING: "write", production: "read" } } } })).toMatchObject({
      op: "same",
    });
    expect(w.since(mark)).toEqual([]);
  });

  it("an update sends the whole member with the given inputs over the service's; an undeclared input keeps the service's value", async () => {
    const bob = w.ff("teamMember", "bob", { email: "bob@example.com", name: "Bob", teamAdmin: true });
    await bob.up();
    // Someone gives Bob read access in the UI: the program does not declare applications, so that is neither drift nor undone.
    await w.fm.putTeamMember({ email: "bob@example.com", name: "Bob", teamAdmin: true, applications: { [other]: { environments: { Production: "read" } } } });
    await w.nextDeployment();
    expect(await bob.refresh()).toMatchObject({ changedFields: [] });
    const mark = w.mark();
    expect(await bob.up({ email: "bob@example.com", name: "Robert", teamAdmin: true })).toMatchObject({ op: "update", changedFields: ["name"] });
    expect(writes(w.since(mark))).toEqual(["PUT /users"]);
    expect(JSON.parse(w.emu.journal.entries().filter((e) => e.method === "PUT").at(-1)!.body.toString())).toEqual({
      email: "bob@example.com",
      name: "Robert",
      teamAdmin: true,
      applications: { [other]: { environments: { Production: "read" } } },
    });
  });

  it("drift in a declared input shows on refresh with a warning (the audit log does not record members), and up puts it back", async () => {
    const carol = w.ff("teamMember", "carol", { email: "carol@example.com", teamAdmin: false, applications: { [app]: { environments: { Production: "write" } } } });
    await carol.up();
    await w.fm.putTeamMember({ email: "carol@example.com", name: "carol", teamAdmin: true, applications: { [app]: { environments: { Production: "read" } } } });
    await w.nextDeployment();
    w.host.takeOutput();
    expect(await carol.refresh()).toMatchObject({ changedFields: ["applications", "teamAdmin"] });
    expect(await w.host.waitForOutput(/TeamMember carol@example.com changed outside this stack/)).toContain(
      "TeamMember carol@example.com changed outside this stack; the audit log does not record team-member changes, so who changed it cannot be told",
    );
    expect(await carol.up({ email: "carol@example.com", teamAdmin: false, applications: { [app]: { environments: { Production: "write" } } } })).toMatchObject({ op: "update" });
    expect(member(ACCOUNT).find((m) => m.email === "carol@example.com")).toMatchObject({ teamAdmin: false, applications: { [app]: { environments: { Production: "write" } } } });
  });

  it("an existing member fails create unless adoptExisting; adopted, only a differing input is written", async () => {
    await w.fm.putTeamMember({ email: "Dave@Example.com", name: "Dave", teamAdmin: false });
    // Lists are read once per deployment: the member added meanwhile shows in the next one.
    await w.nextDeployment();
    const error = (await w.ff("teamMember", "dave", { email: "dave@example.com", name: "Dave" }).up().catch((e: unknown) => e)) as ProviderHostError;
    expect(error).toBeInstanceOf(ProviderHostError);
    expect(error.details).toContain("the account already has a team member with this email. Fix: set adoptExisting: true");

    let mark = w.mark();
    const dave = w.ff("teamMember", "dave2", { email: "dave@example.com", name: "Dave", adoptExisting: true });
    await dave.up();
    expect(writes(w.since(mark))).toEqual([]);
    expect(dave.state!.outputs).toMatchObject({ adopted: true, adoptExisting: true });
    mark = w.mark();
    await dave.destroy();
    expect(writes(w.since(mark))).toEqual(["DELETE /users/dave%40example.com"]);
    expect(member(ACCOUNT).some((m) => m.email.toLowerCase() === "dave@example.com")).toBe(false);
  });

  it("an email change replaces (delete after create); a change of its case alone does not; a member removed outside is dropped", async () => {
    const erin = w.ff("teamMember", "erin", { email: "erin@example.com", name: "Erin" });
    await erin.up();
    expect(await erin.up({ email: "ERIN@example.com", name: "Erin" })).toMatchObject({ op: "update", replaces: [] });
    expect(await erin.up({ email: "erin@example.org", name: "Erin" })).toMatchObject({ op: "replace", replaces: ["email"] });
    expect(member(ACCOUNT).map((m) => m.email)).toContain("erin@example.org");
    expect(member(ACCOUNT).map((m) => m.email.toLowerCase())).not.toContain("erin@example.com");
    await w.fm.deleteTeamMember("erin@example.org");
    await w.nextDeployment();
    expect(await erin.refresh()).toMatchObject({ op: "refresh", dropped: true });
  });

  it("delete: a member already gone is done; a 404 while the member is still listed (no such endpoint) fails with the fix", async () => {
    const gone = w.ff("teamMember", "gone", { email: "gone@example.com" });
    await gone.up();
    await w.fm.deleteTeamMember("gone@example.com");
    await gone.destroy();

    const fay = w.ff("teamMember", "fay", { email: "fay@example.com" });
    await fay.up();
    // A service without U4 (the notes guess the endpoint): 404 for the route, the member stays.
    w.emu.faults.inject({ method: "DELETE", path: "/feature-management/public-api/users/fay%40example.com", status: 404, body: '{"error":"Not found"}' });
    const error = (await fay.destroy().catch((e: unknown) => e)) as ProviderHostError;
    expect(error).toBeInstanceOf(ProviderHostError);
    expect(error.details).toContain("the service answered 404 to DELETE /users/{email} but still lists the member: it may not offer that endpoint. Fix: remove the member in the CloudBees Feature Management UI");
    expect(member(ACCOUNT).some((m) => m.email === "fay@example.com")).toBe(true);
    await fay.destroy();
  });

  it("check refuses a malformed email, permissions and bounds before any request", async () => {
    const mark = w.mark();
    const failures = async (inputs: Record<string, unknown>) => ((await w.ff("teamMember", "bad", inputs as never).up().catch((e: unknown) => e)) as CheckFailedError).failures;
    expect(await failures({ email: "not-an-email" })).toEqual([{ property: "email", reason: 'email must have the form name@domain, e.g. email: "alice@example.com"' }]);
    expect(await failures({ email: "x@example.com", applications: { [app]: { environments: { Production: "admin" } } } })).toEqual([
      { property: "applications", reason: `applications["${app}"].environments["Production"] must be "read" or "write", got "admin"` },
    ]);
    expect(await failures({ email: "x@example.com", applications: { [app]: { environments: { Production: "read", production: "write" } } } })).toEqual([
      { property: "applications", reason: `applications["${app}"].environments names "Production" and "production": the service takes them for the same environment; keep one` },
    ]);
    expect((await failures({ email: "x@example.com", applications: [app] }))[0]!.reason).toMatch(/^applications must be a map of application id/);
    const many = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`app${i}`, { environments: { Production: "read" } }]));
    expect((await failures({ email: "x@example.com", applications: many }))[0]!.reason).toBe("applications has 1001 entries; at most 1000 are allowed");
    expect(w.since(mark)).toEqual([]);
  });
});
