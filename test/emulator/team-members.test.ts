import { startEmulator, type Emulator, type EmulatorOptions } from "../../emulator";
import { call, type Answer } from "./helpers";

// The feature-flag service's team members (../shared/notes/feature-management-api.md rows U1-U4 and the User schema),
// over real HTTP. Row tags: U1 [D] documented; U2 and U3 [C1] seen in one client each; U4 [I] guessed. What the
// emulator chooses where the sources are silent is in emulator/undocumented-behaviour.ts ("team members").

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator();
});
afterAll(async () => {
  await emu.close();
});
afterEach(() => emu.setFeatureManagementRateLimit(false));

/** An emulator of its own (exact lists, other readings), closed after `body`. */
async function withEmulator(options: EmulatorOptions, body: (e: Emulator) => Promise<void>): Promise<void> {
  const other = await startEmulator(options);
  try {
    await body(other);
  } finally {
    await other.close();
  }
}

const users = (e: Emulator) => `${e.featureManagementUrl}public-api/users`;
const userUrl = (e: Emulator, email: string) => `${users(e)}/${encodeURIComponent(email)}`;
const acme = (e: Emulator) => e.credentials.featureManagementToken;
const globex = (e: Emulator) => e.credentials.otherFeatureManagementToken;
const JSON_HEADERS = { "content-type": "application/json", accept: "application/json" };

const list = (e: Emulator, token = acme(e)) => call(e, users(e), { authorization: `Bearer ${token}` });
const getOne = (e: Emulator, email: string, token = acme(e)) => call(e, userUrl(e, email), { authorization: `Bearer ${token}` });
const remove = (e: Emulator, email: string, token = acme(e)) => call(e, userUrl(e, email), { method: "DELETE", authorization: `Bearer ${token}` });
const put = (e: Emulator, body: unknown, token = acme(e)) =>
  call(e, users(e), { method: "PUT", authorization: `Bearer ${token}`, headers: JSON_HEADERS, body: typeof body === "string" ? body : JSON.stringify(body) });

async function newApplication(e: Emulator, name: string, token = acme(e)): Promise<string> {
  const r = await call(e, `${e.featureManagementUrl}public-api/applications`, {
    method: "POST",
    authorization: `Bearer ${token}`,
    headers: JSON_HEADERS,
    body: JSON.stringify({ applicationName: name }),
  });
  expect(r.status).toBe(200);
  return r.json.id;
}

async function newEnvironment(e: Emulator, app: string, name: string): Promise<void> {
  const r = await call(e, `${e.featureManagementUrl}public-api/applications/${app}/environments/key`, {
    method: "PUT",
    authorization: `Bearer ${acme(e)}`,
    headers: JSON_HEADERS,
    body: JSON.stringify({ name }),
  });
  expect(r.status).toBe(200);
}

const error = (r: Answer) => ({ status: r.status, body: r.json });

const ACME_OWNER = { email: "api-user-1@acme.example", name: "acme API user 1", teamAdmin: true, applications: {} };
const GLOBEX_OWNER = { email: "api-user-2@globex.example", name: "globex API user 2", teamAdmin: true, applications: {} };

describe("U1 [D]: GET public-api/users lists the account's team members", () => {
  it("starts with the owners of the account's tokens, team admins without application permissions", async () => {
    await withEmulator({}, async (e) => {
      const mine = await list(e);
      expect(mine.status).toBe(200);
      expect(mine.headers.get("content-type")).toMatch(/^application\/json/);
      expect(mine.json).toEqual([ACME_OWNER]);
      expect((await list(e, globex(e))).json).toEqual([GLOBEX_OWNER]);
    });
  });

  it("lists every owner of an account's tokens once, and members in the order they joined", async () => {
    const accounts = [
      { token: "t1", account: "one" },
      { token: "t2", account: "two" },
      { token: "t1-bis", account: "one" },
    ];
    await withEmulator({ featureManagementAccounts: accounts }, async (e) => {
      expect((await put(e, { email: "zed@one.example" }, "t1")).status).toBe(200);
      expect((await list(e, "t1-bis")).json).toEqual([
        { email: "api-user-1@one.example", name: "one API user 1", teamAdmin: true, applications: {} },
        { email: "api-user-3@one.example", name: "one API user 3", teamAdmin: true, applications: {} },
        { email: "zed@one.example", name: "zed", teamAdmin: false, applications: {} },
      ]);
    });
  });

  it("needs a valid bearer token (401) and is rate limited like every other path (555)", async () => {
    expect((await call(emu, users(emu), { authorization: null })).status).toBe(401);
    expect((await call(emu, users(emu), { authorization: "Bearer nope" })).status).toBe(401);
    expect((await call(emu, userUrl(emu, ACME_OWNER.email), { authorization: null })).status).toBe(401);
    emu.setFeatureManagementRateLimit(true);
    expect((await list(emu)).status).toBe(200);
    const limited = await put(emu, { email: "too-soon@acme.example" });
    expect(limited.status).toBe(555);
    emu.setFeatureManagementRateLimit(false);
    // Refused by the limit: nothing was written.
    expect((await getOne(emu, "too-soon@acme.example")).status).toBe(404);
  });
});

describe("U3 [C1]: PUT public-api/users creates or updates", () => {
  it("creates with the defaults (name: the part before @, teamAdmin false, applications {}): status 200", async () => {
    const r = await put(emu, { email: "Bob.Smith@Acme.example" });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    expect(r.json).toEqual({ email: "Bob.Smith@Acme.example", name: "Bob.Smith", teamAdmin: false, applications: {} });
    expect((await list(emu)).json).toContainEqual(r.json);
  });

  it("answers a create with the reading createStatus (201) and an update with 200", async () => {
    await withEmulator({ readings: { createStatus: 201 } }, async (e) => {
      const created = await put(e, { email: "dana@acme.example", name: "Dana", teamAdmin: true });
      expect(created.status).toBe(201);
      expect(created.json).toEqual({ email: "dana@acme.example", name: "Dana", teamAdmin: true, applications: {} });
      const updated = await put(e, { email: "dana@acme.example" });
      expect(updated.status).toBe(200);
      expect(updated.json).toEqual(created.json);
    });
  });

  it("updates keeping the fields left out and the email's first case; applications given replace the whole map", async () => {
    const app = await newApplication(emu, "team-keep");
    const created = await put(emu, { email: "carol@acme.example", name: "Carol", teamAdmin: true, applications: { [app]: { environments: { Production: "write" } } } });
    expect(created.status).toBe(200);

    const renamed = await put(emu, { email: "CAROL@ACME.EXAMPLE", name: "Carol C." });
    expect(renamed.status).toBe(200);
    expect(renamed.json).toEqual({ email: "carol@acme.example", name: "Carol C.", teamAdmin: true, applications: { [app]: { environments: { Production: "write" } } } });

    const demoted = await put(emu, { email: "Carol@acme.example", teamAdmin: false, applications: {} });
    expect(demoted.status).toBe(200);
    expect(demoted.json).toEqual({ email: "carol@acme.example", name: "Carol C.", teamAdmin: false, applications: {} });
    // One member, not two.
    expect((await list(emu)).json.filter((m: { email: string }) => m.email.toLowerCase() === "carol@acme.example")).toEqual([demoted.json]);
  });

  it("stores an environment under the environment's own name (names resolve ignoring case, the reading environmentNames)", async () => {
    const app = await newApplication(emu, "team-envs");
    await newEnvironment(emu, app, "Staging");
    const r = await put(emu, { email: "erin@acme.example", applications: { [app]: { environments: { production: "read", STAGING: "write" } } } });
    expect(r.status).toBe(200);
    expect(r.json.applications).toEqual({ [app]: { environments: { Production: "read", Staging: "write" } } });
    expect((await getOne(emu, "erin@acme.example")).json.applications).toEqual({ [app]: { environments: { Production: "read", Staging: "write" } } });
  });

  it("under environmentNames=case-sensitive, a name differing in case is no environment (400)", async () => {
    await withEmulator({ readings: { environmentNames: "case-sensitive" } }, async (e) => {
      const app = await newApplication(e, "strict");
      const r = await put(e, { email: "fay@acme.example", applications: { [app]: { environments: { production: "read" } } } });
      expect(error(r)).toEqual({ status: 400, body: { error: `applications.${app}.environments.production: no environment of this name in application ${app}` } });
      expect((await put(e, { email: "fay@acme.example", applications: { [app]: { environments: { Production: "read" } } } })).status).toBe(200);
    });
  });
});

describe("U3 [C1]: every refused body is a 400 naming the field, and writes nothing", () => {
  it("refuses emails that are missing, not strings, without exactly one @ or a side of it, or over 254 characters", async () => {
    const before = (await list(emu)).json;
    const cases: [unknown, string][] = [
      [{}, "email: is required"],
      [{ email: 42 }, "email: must be a string"],
      [{ email: "" }, "email: must hold exactly one '@'"],
      [{ email: "no-at.example" }, "email: must hold exactly one '@'"],
      [{ email: "a@b@acme.example" }, "email: must hold exactly one '@'"],
      [{ email: "@acme.example" }, "email: needs text before and after the '@'"],
      [{ email: "gil@" }, "email: needs text before and after the '@'"],
      [{ email: `${"g".repeat(242)}@acme.example` }, "email: longer than 254 characters"],
    ];
    for (const [body, message] of cases) expect(error(await put(emu, body))).toEqual({ status: 400, body: { error: message } });
    // 254 characters exactly is fine.
    const longest = `${"g".repeat(241)}@acme.example`;
    expect(longest).toHaveLength(254);
    expect((await put(emu, { email: longest })).status).toBe(200);
    expect((await remove(emu, longest)).status).toBe(204);
    expect((await list(emu)).json).toEqual(before);
  });

  it("refuses a body that is not a JSON object, a bad name or teamAdmin, and unknown fields (reading unknownFields=refused)", async () => {
    const cases: [unknown, string][] = [
      ["{not json", "body: not JSON"],
      [["hal@acme.example"], "body: must be a JSON object"],
      [{ email: "hal@acme.example", name: 7 }, "name: must be a string"],
      [{ email: "hal@acme.example", name: "h".repeat(201) }, "name: longer than 200 characters"],
      [{ email: "hal@acme.example", teamAdmin: "yes" }, "teamAdmin: must be true or false"],
      [{ email: "hal@acme.example", role: "admin" }, "role: unknown field (allowed: email, name, teamAdmin, applications)"],
    ];
    for (const [body, message] of cases) expect(error(await put(emu, body))).toEqual({ status: 400, body: { error: message } });
    expect((await getOne(emu, "hal@acme.example")).status).toBe(404);
  });

  it("ignores unknown fields under the reading unknownFields=ignored", async () => {
    await withEmulator({ readings: { unknownFields: "ignored" } }, async (e) => {
      const r = await put(e, { email: "ida@acme.example", role: "admin" });
      expect(r.status).toBe(200);
      expect(r.json).toEqual({ email: "ida@acme.example", name: "ida", teamAdmin: false, applications: {} });
    });
  });

  it("refuses an application of no account or of another account, an unknown environment, a bad permission, two names of one environment", async () => {
    const app = await newApplication(emu, "team-refusals");
    const theirs = await newApplication(emu, "globex-app", globex(emu));
    const none = "000000000000000000000000";
    const cases: [unknown, string][] = [
      [[], "applications: must be a JSON object mapping application ids to {environments}"],
      [{ [none]: { environments: {} } }, `applications.${none}: no application of this id in the account`],
      [{ [theirs]: { environments: {} } }, `applications.${theirs}: no application of this id in the account`],
      [{ [app]: { environments: { Nope: "read" } } }, `applications.${app}.environments.Nope: no environment of this name in application ${app}`],
      [{ [app]: { environments: { Production: "admin" } } }, `applications.${app}.environments.Production: must be "read" or "write"`],
      [{ [app]: { environments: { Production: true } } }, `applications.${app}.environments.Production: must be "read" or "write"`],
      [{ [app]: { environments: { Production: "read", production: "write" } } }, `applications.${app}.environments.production: names the same environment as "Production"`],
      [{ [app]: {} }, `applications.${app}.environments: must be a JSON object mapping environment names to "read" or "write"`],
      [{ [app]: "write" }, `applications.${app}: must be a JSON object`],
      [{ [app]: { environments: {}, flags: [] } }, `applications.${app}.flags: unknown field (allowed: environments)`],
    ];
    for (const [applications, message] of cases) {
      expect(error(await put(emu, { email: "jo@acme.example", applications }))).toEqual({ status: 400, body: { error: message } });
    }
    expect((await getOne(emu, "jo@acme.example")).status).toBe(404);
  });

  it("refuses more than 1,000 applications, and more than 1,000 environments per application", async () => {
    const app = await newApplication(emu, "team-bounds");
    const many = (n: number, value: unknown) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, value]));
    expect(error(await put(emu, { email: "kim@acme.example", applications: many(1001, { environments: {} }) }))).toEqual({
      status: 400,
      body: { error: "applications: more than 1000 entries" },
    });
    expect(error(await put(emu, { email: "kim@acme.example", applications: { [app]: { environments: many(1001, "read") } } }))).toEqual({
      status: 400,
      body: { error: `applications.${app}.environments: more than 1000 entries` },
    });
    expect((await getOne(emu, "kim@acme.example")).status).toBe(404);
  });
});

describe("U2 [C1] and U4 [I]: one member by email", () => {
  it("U2 reads a member by email ignoring case, the email URL-encoded as one segment", async () => {
    const made = await put(emu, { email: "Lee+ops@Acme.example", name: "Lee" });
    expect(made.status).toBe(200);
    for (const email of ["Lee+ops@Acme.example", "lee+ops@acme.example", "LEE+OPS@ACME.EXAMPLE"]) {
      const r = await getOne(emu, email);
      expect(r.status).toBe(200);
      expect(r.json).toEqual({ email: "Lee+ops@Acme.example", name: "Lee", teamAdmin: false, applications: {} });
    }
    expect((await getOne(emu, ACME_OWNER.email)).json).toEqual(ACME_OWNER);
  });

  it("answers 404 with the JSON error body for an unknown email (U2, U4), and the text body under errorBody=text", async () => {
    const unknown = { status: 404, body: { error: "No team member of this account has this email" } };
    expect(error(await getOne(emu, "nobody@acme.example"))).toEqual(unknown);
    expect(error(await remove(emu, "nobody@acme.example"))).toEqual(unknown);
    await withEmulator({ readings: { errorBody: "text" } }, async (e) => {
      const r = await getOne(e, "nobody@acme.example");
      expect(r.status).toBe(404);
      expect(r.headers.get("content-type")).toMatch(/^text\/plain/);
      expect(r.text).toBe("No team member of this account has this email");
    });
  });

  it("answers other methods and deeper paths with the service's 404", async () => {
    const notFound = { status: 404, body: { error: "Not found" } };
    expect(error(await call(emu, users(emu), { method: "POST", authorization: `Bearer ${acme(emu)}`, body: JSON.stringify({ email: "x@acme.example" }) }))).toEqual(notFound);
    expect(error(await call(emu, users(emu), { method: "DELETE", authorization: `Bearer ${acme(emu)}` }))).toEqual(notFound);
    expect(error(await call(emu, userUrl(emu, ACME_OWNER.email), { method: "PUT", authorization: `Bearer ${acme(emu)}`, body: "{}" }))).toEqual(notFound);
    expect(error(await call(emu, `${userUrl(emu, ACME_OWNER.email)}/more`, { authorization: `Bearer ${acme(emu)}` }))).toEqual(notFound);
    expect(error(await call(emu, `${users(emu)}/`, { authorization: `Bearer ${acme(emu)}` }))).toEqual(notFound);
  });

  it("U4 removes a member (email ignoring case): 204 without a body; the member is gone", async () => {
    expect((await put(emu, { email: "Max@acme.example" })).status).toBe(200);
    const r = await remove(emu, "max@ACME.example");
    expect(r.status).toBe(204);
    expect(r.bytes.length).toBe(0);
    expect((await getOne(emu, "max@acme.example")).status).toBe(404);
    expect((await list(emu)).json.map((m: { email: string }) => m.email)).not.toContain("Max@acme.example");
    expect((await remove(emu, "max@acme.example")).status).toBe(404);
  });

  it("U4 answers the reading deleteStatus=200 with an empty body", async () => {
    await withEmulator({ readings: { deleteStatus: 200 } }, async (e) => {
      expect((await put(e, { email: "ned@acme.example" })).status).toBe(200);
      const r = await remove(e, "ned@acme.example");
      expect(r.status).toBe(200);
      expect(r.bytes.length).toBe(0);
      expect((await list(e)).json).toEqual([ACME_OWNER]);
    });
  });

  it("U4 refuses to remove the owner of the request's token (400), whatever the case", async () => {
    const self = { status: 400, body: { error: "you cannot remove yourself" } };
    expect(error(await remove(emu, ACME_OWNER.email))).toEqual(self);
    expect(error(await remove(emu, ACME_OWNER.email.toUpperCase()))).toEqual(self);
    expect((await getOne(emu, ACME_OWNER.email)).json).toEqual(ACME_OWNER);
  });
});

describe("accounts", () => {
  it("keeps each account's team to itself: the other account's token neither sees nor changes the member", async () => {
    await withEmulator({ readings: { createStatus: 201 } }, async (e) => {
      expect((await put(e, { email: "olga@shared.example", name: "Olga (acme)", teamAdmin: true })).status).toBe(201);
      expect((await list(e, globex(e))).json).toEqual([GLOBEX_OWNER]);
      expect((await getOne(e, "olga@shared.example", globex(e))).status).toBe(404);
      expect((await remove(e, "olga@shared.example", globex(e))).status).toBe(404);
      // The same person in the other account is another member: a create there.
      const theirs = await put(e, { email: "OLGA@shared.example" }, globex(e));
      expect(theirs.status).toBe(201);
      expect(theirs.json).toEqual({ email: "OLGA@shared.example", name: "OLGA", teamAdmin: false, applications: {} });
      expect((await remove(e, "olga@shared.example", globex(e))).status).toBe(204);
      expect((await getOne(e, "olga@shared.example")).json).toEqual({ email: "olga@shared.example", name: "Olga (acme)", teamAdmin: true, applications: {} });
      // A token cannot remove another account's token owner either: not a member there.
      expect((await remove(e, ACME_OWNER.email, globex(e))).status).toBe(404);
    });
  });
});

describe("addFeatureManagementUser and the audit log (L1 [C])", () => {
  const auditUrl = (e: Emulator, app: string) => `${e.featureManagementUrl}public-api/applications/${app}/Production/auditlogs?startDate=2000-01-01T00:00:00.000Z`;

  it("registers a token owned by the person, who joins the team; a flag change made with it is logged under them", async () => {
    await withEmulator({}, async (e) => {
      const token = e.addFeatureManagementUser({ email: "Pat@acme.example", name: "Pat Doe" });
      expect(token).toMatch(/^\S+$/);
      expect([acme(e), globex(e)]).not.toContain(token);
      const members = await list(e, token);
      expect(members.status).toBe(200);
      expect(members.json).toEqual([ACME_OWNER, { email: "Pat@acme.example", name: "Pat Doe", teamAdmin: false, applications: {} }]);

      const app = await newApplication(e, "drift");
      const flag = await call(e, `${e.featureManagementUrl}public-api/applications/${app}/flags`, {
        method: "PUT",
        authorization: `Bearer ${token}`,
        headers: JSON_HEADERS,
        body: JSON.stringify({ name: "checkout.newFlow" }),
      });
      expect(flag.status).toBe(200);
      const logs = await call(e, auditUrl(e, app), { authorization: `Bearer ${acme(e)}` });
      expect(logs.status).toBe(200);
      const [byOwner, byPat] = logs.json;
      expect(byOwner).toMatchObject({ userEmail: ACME_OWNER.email, userName: ACME_OWNER.name, action: "created environment" });
      expect(byPat).toMatchObject({
        experiment: "checkout.newFlow",
        action: "created flag",
        userEmail: "Pat@acme.example",
        userName: "Pat Doe",
        user: { _id: expect.stringMatching(/^[0-9a-f]{24}$/), email: "Pat@acme.example", name: "Pat Doe", picture: "" },
      });
      expect(byPat.user._id).not.toBe(byOwner.user._id);
      expect(logs.json).toHaveLength(2);

      // A second token of the same person: the same audit _id; an existing member is left as is.
      const again = e.addFeatureManagementUser({ email: "pat@ACME.example", teamAdmin: true });
      expect(again).not.toBe(token);
      await call(e, `${e.featureManagementUrl}public-api/applications/${app}/flags/checkout.newFlow`, { method: "DELETE", authorization: `Bearer ${again}` });
      const after = (await call(e, auditUrl(e, app), { authorization: `Bearer ${acme(e)}` })).json;
      expect(after[2]).toMatchObject({ action: "deleted flag", userEmail: "Pat@acme.example", userName: "Pat Doe", user: { _id: byPat.user._id } });
      expect(e.state.teamMembers("acme")[1]).toEqual({ email: "Pat@acme.example", name: "Pat Doe", teamAdmin: false, applications: {} });
    });
  });

  it("takes an account, defaults the name to the part before @, and throws on a bad email or an unknown account", async () => {
    await withEmulator({}, async (e) => {
      const token = e.addFeatureManagementUser({ email: "quinn@globex.example", account: "globex", teamAdmin: true });
      expect((await list(e, token)).json).toEqual([GLOBEX_OWNER, { email: "quinn@globex.example", name: "quinn", teamAdmin: true, applications: {} }]);
      expect((await list(e)).json).toEqual([ACME_OWNER]);
      expect(() => e.addFeatureManagementUser({ email: "no-at" })).toThrow("addFeatureManagementUser: email: must hold exactly one '@'");
      expect(() => e.addFeatureManagementUser({ email: "r@" })).toThrow("email: needs text before and after the '@'");
      expect(() => e.addFeatureManagementUser({ email: "r@acme.example", name: "r".repeat(201) })).toThrow("name: longer than 200 characters");
      expect(() => e.addFeatureManagementUser({ email: "r@acme.example", account: "initech" })).toThrow('account: "initech" is not an account of the emulator (known: acme, globex)');
      expect(e.state.teamMembers("acme")).toEqual([ACME_OWNER]);
    });
  });

  it("the token's owner cannot remove themself; removed by another member, their token keeps working (permissions are not enforced)", async () => {
    await withEmulator({}, async (e) => {
      const token = e.addFeatureManagementUser({ email: "rae@acme.example" });
      expect(error(await remove(e, "rae@acme.example", token))).toEqual({ status: 400, body: { error: "you cannot remove yourself" } });
      // A member who is not a team admin may still change the team: permissions are stored, not enforced.
      expect((await put(e, { email: "sam@acme.example" }, token)).status).toBe(200);
      expect((await remove(e, "rae@acme.example")).status).toBe(204);
      expect((await list(e, token)).json).toEqual([ACME_OWNER, { email: "sam@acme.example", name: "sam", teamAdmin: false, applications: {} }]);
    });
  });

  it("team-member changes write no audit record", async () => {
    await withEmulator({}, async (e) => {
      const app = await newApplication(e, "quiet");
      const before = (await call(e, auditUrl(e, app), { authorization: `Bearer ${acme(e)}` })).json;
      expect(before).toHaveLength(1);
      expect((await put(e, { email: "tia@acme.example", applications: { [app]: { environments: { Production: "write" } } } })).status).toBe(200);
      expect((await put(e, { email: "tia@acme.example", teamAdmin: true })).status).toBe(200);
      expect((await remove(e, "tia@acme.example")).status).toBe(204);
      expect((await call(e, auditUrl(e, app), { authorization: `Bearer ${acme(e)}` })).json).toEqual(before);
      expect(e.state.auditLogs(app, "Production")).toEqual(before);
    });
  });
});

describe("state view", () => {
  it("teamMembers(account) is what U1 answers, as copies; an unknown account has none", async () => {
    await withEmulator({}, async (e) => {
      const app = await newApplication(e, "view");
      await put(e, { email: "uma@acme.example", name: "Uma", applications: { [app]: { environments: { production: "read" } } } });
      const view = e.state.teamMembers("acme");
      expect(view).toEqual((await list(e)).json);
      expect(view).toEqual([ACME_OWNER, { email: "uma@acme.example", name: "Uma", teamAdmin: false, applications: { [app]: { environments: { Production: "read" } } } }]);
      view[1]!.applications[app]!.environments["Production"] = "write";
      view[1]!.name = "changed";
      expect(e.state.teamMembers("acme")[1]).toEqual({ email: "uma@acme.example", name: "Uma", teamAdmin: false, applications: { [app]: { environments: { Production: "read" } } } });
      expect(e.state.teamMembers("globex")).toEqual([GLOBEX_OWNER]);
      expect(e.state.teamMembers("initech")).toEqual([]);
    });
  });
});
