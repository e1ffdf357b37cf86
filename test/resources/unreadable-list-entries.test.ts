/* istanbul ignore file */
import { ProviderHostError, type ManagedResource } from "../harness";
import { FM_PREFIX, startFlagWorld, writes, type FlagWorld } from "./feature-flag-helpers";
import { TYPES } from "./helpers";

// Issue 63, through the real provider host: the lists the feature-flag resources read beyond flags, configurations
// and target groups (applications, environments, team members, audit logs) are read item by item too. An entry the
// client cannot read (answered over real HTTP by the emulator, in a newer service's made-up form) is skipped with one
// warning naming it. It stops a create only where it could be the very object the create looks for and the write would
// make a second one (an Application's POST); a read that finds its object only in that form fails, naming it, rather
// than drop it from the state.

let w: FlagWorld;
let app: string;
beforeAll(async () => {
  w = await startFlagWorld();
  app = (await w.fm.createApplication("lists")).id;
});
afterAll(async () => {
  await w?.close();
});

const APPS = `${FM_PREFIX}applications`;
const ODD_ID = "5e95ad1fa6de037e1793732b";
const NOT_READ = "in a form this version of pulumi-cloudbees cannot read";
const application = (name: string, inputs: Record<string, unknown>): ManagedResource => w.lc.resource(TYPES.application, name, w.texts.application, inputs);
const named = (name: string) => w.emu.state.applications("acme").filter((a) => a.name === name);
const failure = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e as ProviderHostError);
const answerOnce = (path: string, body: unknown) => w.emu.faults.inject({ method: "GET", path, status: 200, body: JSON.stringify(body), times: 1 });
/** The warnings since the last take that say an entry was skipped. */
async function skippedLines(): Promise<string[]> {
  await new Promise((r) => setTimeout(r, 50));
  return w.host.takeOutput().split("\n").filter((l) => l.includes("skipped"));
}

describe("Application", () => {
  it("adoptExisting and an entry whose name it cannot read: the create stops before any POST, naming it; without adoptExisting it goes on", async () => {
    await w.nextDeployment(); // the deployment's first create lists the account
    const before = w.emu.state.applications("acme");
    answerOnce(APPS, [...before, { id: ODD_ID, name: null }]);
    w.host.takeOutput();
    const mark = w.mark();
    const error = await failure(application("shop", { name: "shop", adoptExisting: true }).up());
    expect(error).toBeInstanceOf(ProviderHostError);
    expect(error!.details).toMatch(
      new RegExp(
        `^creating Application "shop": the service lists an unnamed application \\(item ${before.length + 1} of the answer\\) ${NOT_READ} \\(name: [^)]+\\); ` +
          `it may be the one this create looks for, and creating another would make a second one \\(the service accepts duplicate names\\)\\. Fix: report the form ` +
          `\\(with the field above\\); meanwhile if it is another application, set adoptExisting: false to create this one beside it, or give this one another name; ` +
          `if it is this one, import it by its id .*: pulumi import cloudbees:index:Application <name> <id>, through the provider plugin$`,
      ),
    );
    expect(writes(w.since(mark))).toEqual([]);
    expect(await skippedLines()).toEqual([
      `warning: listing applications: skipped an unnamed application (item ${before.length + 1} of the answer), ${NOT_READ} (name: Invalid input: expected string, received null); the other items were read`,
    ]);
    // adoptExisting false creates whatever the account holds: no entry can make it a duplicate it did not ask for.
    const created = application("shop-anyway", { name: "shop" });
    expect(await created.up()).toMatchObject({ op: "create" });
    expect(named("shop")).toEqual([{ id: created.state!.id, name: "shop" }]);
    expect(await skippedLines()).toEqual([]);
  });

  it("a lost answer, and the list then holds an entry of the name it cannot read: recorded as pending, named; a refresh fails rather than drop it", async () => {
    await w.nextDeployment();
    const before = w.emu.state.applications("acme");
    const odd = [...before, { _id: ODD_ID, name: "lost" }];
    w.emu.faults.inject({ method: "POST", path: APPS, dropAfterHandling: true });
    answerOnce(APPS, before); // the deployment's list, before the create
    answerOnce(APPS, odd); // the list after the lost answer: the new application, in a form it cannot read
    const r = application("lost", { name: "lost" });
    const error = await failure(r.up());
    expect(error!.message).toMatch(
      new RegExp(
        `creating Application "lost": the service lists application "lost" \\(item ${odd.length} of the answer\\) ${NOT_READ} \\(id: [^)]+\\); it may be the one this create ` +
          `looks for, and creating another would make a second one \\(a create got no answer and may have made it; the service accepts duplicate names\\)\\. Fix: .*` +
          `It is recorded as pending: the next \`pulumi up\` or \`pulumi refresh\` lists the account again`,
      ),
    );
    expect(r.state).toMatchObject({ id: "pending/lost", outputs: { applicationId: "" } });
    expect(named("lost")).toHaveLength(1);

    answerOnce(APPS, odd);
    const refresh = await failure(r.refresh());
    expect(refresh!.details).toMatch(new RegExp(`^reading Application \\(pending/lost\\): the service lists application "lost" \\(item ${odd.length} of the answer\\) ${NOT_READ}`));
    expect(r.state).toMatchObject({ id: "pending/lost" });
    // Read in a form it can read, it is adopted: never a second "lost".
    await r.refresh();
    expect(r.state!.id).toBe(named("lost")[0]!.id);
    expect(named("lost")).toHaveLength(1);
  });
});

describe("Environment", () => {
  it("held only in a form it cannot read: a refresh fails naming it and keeps the state; read again, it is unchanged", async () => {
    const env = w.ff("environment", "qa", { applicationId: app, name: "QA" });
    await env.up();
    const state = env.state;
    await w.nextDeployment();
    const listed = (await w.fm.listEnvironments(app)).map((e) => (e.name === "QA" ? { _id: ODD_ID, name: "QA" } : e));
    answerOnce(`${FM_PREFIX}applications/${app}/environments`, listed);
    const error = await failure(env.refresh());
    expect(error!.details).toMatch(/^reading Environment \([^)]*\): the service holds environment "QA", in a form this version of pulumi-cloudbees cannot read \(key: [^)]+\); the other items of that list were read\. Fix: /);
    expect(env.state).toEqual(state);
    await w.nextDeployment();
    expect(await env.refresh()).toMatchObject({ changedFields: [] });
  });

  it("a drift report skips an audit-log record it cannot read, with a warning naming it, and names who from the others", async () => {
    const env = w.ff("environment", "audited", { applicationId: app, name: "Audited", description: "mine" });
    await env.up();
    await w.fm.createEnvironment(app, { name: "Audited", description: "changed in the UI" });
    await w.nextDeployment();
    const records = await w.fm.getAuditLogs(app, "Audited", new Date(0));
    answerOnce(`${FM_PREFIX}applications/${app}/Audited/auditlogs`, [...records, { _id: "odd-record", action: "updated environment" }]);
    w.host.takeOutput();
    expect(await env.refresh()).toMatchObject({ changedFields: ["description"] });
    const output = w.host.takeOutput();
    expect(output).toMatch(/Environment Audited changed outside this stack by "[^"]+" at /);
    expect(output).toContain(
      `warning: reading the audit logs of application "${app}" in environment "Audited": skipped audit-log record "odd-record" (item ${records.length + 1} of the answer), ` +
        `${NOT_READ} (creation_date: Invalid input: expected string, received undefined); the other items were read`,
    );
  });
});

describe("TeamMember", () => {
  const USERS = `${FM_PREFIX}users`;
  const oddAna = { email: "Ana@Example.com", applications: { [ODD_ID]: { environments: { Production: "admin" } } } };

  it("a member of the email listed in a form it cannot read exists: refused without adoptExisting, adopted with it (U3 is by email)", async () => {
    await w.nextDeployment();
    answerOnce(USERS, [...(await w.fm.listTeamMembers()), oddAna]);
    const mark = w.mark();
    const refused = await failure(w.ff("teamMember", "ana", { email: "ana@example.com" }).up());
    expect(refused!.details).toMatch(/^creating TeamMember: the account already has a team member with this email \(listed in a form this version of pulumi-cloudbees cannot read: applications\.5e95ad1fa6de037e1793732b\.environments\.Production: [^)]+\)\. Fix: set adoptExisting: true/);
    expect(writes(w.since(mark))).toEqual([]);
    const ana = w.ff("teamMember", "ana", { email: "ana@example.com", adoptExisting: true });
    expect(await ana.up()).toMatchObject({ op: "create" });
    expect(writes(w.since(mark))).toEqual(["PUT /users"]);

    await w.nextDeployment();
    answerOnce(USERS, [...(await w.fm.listTeamMembers()).filter((m) => m.email !== "ana@example.com"), oddAna]);
    const error = await failure(ana.refresh());
    expect(error!.details).toMatch(/^reading TeamMember \(ana@example\.com\): the service holds this team member, in a form this version of pulumi-cloudbees cannot read/);
  });
});
