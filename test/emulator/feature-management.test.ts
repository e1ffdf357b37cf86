import { Emulator, startEmulator } from "../../emulator";
import { call } from "./helpers";

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator();
});
afterAll(async () => {
  await emu.close();
});
afterEach(() => emu.setFeatureManagementRateLimit(false));

const apps = () => `${emu.featureManagementUrl}public-api/applications`;
const bearer = (token: string) => `Bearer ${token}`;
const create = (name: unknown, token = emu.credentials.featureManagementToken) =>
  call(emu, apps(), {
    method: "POST",
    authorization: bearer(token),
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ applicationName: name }),
  });

describe("feature-flag applications API", () => {
  it("needs a valid bearer token (401 JSON otherwise)", async () => {
    for (const authorization of [null, "Bearer nope", `Basic ${Buffer.from("a:b").toString("base64")}`]) {
      const r = await call(emu, apps(), { authorization });
      expect(r.status).toBe(401);
      expect(r.headers.get("content-type")).toMatch(/^application\/json/);
      expect(typeof r.json.error).toBe("string");
    }
  });

  it("creates, lists and reads applications with 24-hex ids", async () => {
    const a = await create("checkout-web");
    const b = await create("checkout-mobile");
    expect(a.status).toBe(200);
    expect(a.json).toEqual({ name: "checkout-web", id: expect.stringMatching(/^[0-9a-f]{24}$/) });
    expect(b.json.id).toMatch(/^[0-9a-f]{24}$/);
    expect(b.json.id).not.toBe(a.json.id);

    const list = await call(emu, apps(), { authorization: bearer(emu.credentials.featureManagementToken) });
    expect(list.status).toBe(200);
    expect(list.json).toEqual(expect.arrayContaining([a.json, b.json]));

    const one = await call(emu, `${apps()}/${a.json.id}`, { authorization: bearer(emu.credentials.featureManagementToken) });
    expect(one.status).toBe(200);
    expect(one.json).toEqual({ name: "checkout-web", id: a.json.id });
  });

  it("answers an unknown id with 404", async () => {
    const r = await call(emu, `${apps()}/000000000000000000000000`, { authorization: bearer(emu.credentials.featureManagementToken) });
    expect(r.status).toBe(404);
    expect(r.json.error).toContain("000000000000000000000000");
  });

  it("rejects bodies without a non-empty applicationName, and non-JSON bodies, with 400", async () => {
    for (const name of [undefined, "", "   ", 42, null]) expect((await create(name)).status).toBe(400);
    const notJson = await call(emu, apps(), {
      method: "POST",
      authorization: bearer(emu.credentials.featureManagementToken),
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    expect(notJson.status).toBe(400);
    const array = await call(emu, apps(), {
      method: "POST",
      authorization: bearer(emu.credentials.featureManagementToken),
      body: JSON.stringify(["applicationName"]),
    });
    expect(array.status).toBe(400);
  });

  it("keeps each account's applications to itself", async () => {
    const mine = await create("acme-only");
    const theirs = await create("globex-only", emu.credentials.otherFeatureManagementToken);
    const acme = await call(emu, apps(), { authorization: bearer(emu.credentials.featureManagementToken) });
    const globex = await call(emu, apps(), { authorization: bearer(emu.credentials.otherFeatureManagementToken) });
    expect(acme.json.map((a: any) => a.name)).toContain("acme-only");
    expect(acme.json.map((a: any) => a.name)).not.toContain("globex-only");
    expect(globex.json).toEqual([theirs.json]);
    const cross = await call(emu, `${apps()}/${mine.json.id}`, { authorization: bearer(emu.credentials.otherFeatureManagementToken) });
    expect(cross.status).toBe(404);
    expect(emu.state.applications("globex")).toEqual([theirs.json]);
  });

  it("rate-limits to one accepted request per second per client when switched on (status 555)", async () => {
    const auth = { authorization: bearer(emu.credentials.featureManagementToken) };
    emu.setFeatureManagementRateLimit(true);
    expect(emu.state.featureManagementRateLimit()).toBe(true);
    const first = await call(emu, apps(), auth);
    const second = await call(emu, apps(), auth);
    const third = await call(emu, apps(), auth);
    expect(first.status).toBe(200);
    expect(second.status).toBe(555);
    expect(third.status).toBe(555);
    // Rejected requests are not accepted ones, so the window still counts from the first request.
    await new Promise((r) => setTimeout(r, 1050));
    expect((await call(emu, apps(), auth)).status).toBe(200);
    emu.setFeatureManagementRateLimit(false);
    expect((await call(emu, apps(), auth)).status).toBe(200);
    expect((await call(emu, apps(), auth)).status).toBe(200);
  });

  it("can start with the rate limit on and with custom accounts", async () => {
    const other = await startEmulator({
      featureManagementRateLimit: true,
      featureManagementAccounts: [
        { token: "t1", account: "one" },
        { token: "t1-bis", account: "one" },
        { token: "t2", account: "two" },
      ],
    });
    try {
      expect(other.credentials.featureManagementToken).toBe("t1");
      expect(other.credentials.otherFeatureManagementToken).toBe("t2");
      const url = `${other.featureManagementUrl}public-api/applications`;
      expect((await call(other, url, { authorization: "Bearer t1" })).status).toBe(200);
      expect((await call(other, url, { authorization: "Bearer t1-bis" })).status).toBe(555);
    } finally {
      await other.close();
    }
  });

  it("shares one application list between tokens of the same account", async () => {
    const other = await startEmulator({
      featureManagementAccounts: [
        { token: "t1", account: "one" },
        { token: "t1-bis", account: "one" },
      ],
    });
    try {
      const url = `${other.featureManagementUrl}public-api/applications`;
      const made = await call(other, url, { method: "POST", authorization: "Bearer t1", body: JSON.stringify({ applicationName: "x" }) });
      expect((await call(other, url, { authorization: "Bearer t1-bis" })).json).toEqual([made.json]);
    } finally {
      await other.close();
    }
  });
});
