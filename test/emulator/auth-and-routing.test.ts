import { Emulator, startEmulator } from "../../emulator";
import { basic, call, post } from "./helpers";

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator();
});
afterAll(async () => {
  await emu.close();
});

describe("URL layout and credentials", () => {
  it("serves every service under its documented prefix on loopback", () => {
    expect(emu.featureManagementUrl).toBe(`http://127.0.0.1:${emu.port}/feature-management/`);
    expect(emu.operationsCenterUrl).toBe(`http://127.0.0.1:${emu.port}/cjoc/`);
    expect(emu.controllerUrls).toEqual({
      "team-a/controller-a": `http://127.0.0.1:${emu.port}/controllers/team-a/controller-a/`,
      "team-b/controller-b": `http://127.0.0.1:${emu.port}/controllers/team-b/controller-b/`,
      sandbox: `http://127.0.0.1:${emu.port}/controllers/sandbox/`,
    });
    expect(emu.credentials).toEqual({
      admin: { username: "admin", apiToken: "admin-api-token-7f3c9d" },
      nonAdmin: { username: "developer", apiToken: "developer-api-token-2b8e41" },
      featureManagementToken: "fm-token-acme-5d1e0b",
      otherFeatureManagementToken: "fm-token-globex-9a6c2f",
    });
  });
});

describe("Jenkins authentication on the operations center and controllers", () => {
  const urls = () => [emu.operationsCenterUrl, emu.controllerUrls["team-a/controller-a"]!];

  it("answers an anonymous request with 403 'Authentication required'", async () => {
    for (const base of urls()) {
      const r = await call(emu, `${base}casc-bundle-mgnt/casc-bundle-update-log`, { authorization: null });
      expect(r.status).toBe(403);
      expect(r.headers.get("x-you-are-authenticated-as")).toBe("anonymous");
      expect(r.headers.get("content-type")).toMatch(/^text\/html/);
      expect(r.text).toContain("Authentication required");
    }
  });

  it("treats a non-Basic authorization header as anonymous", async () => {
    const r = await call(emu, `${emu.operationsCenterUrl}casc-bundle/list`, { authorization: "Bearer admin-api-token-7f3c9d" });
    expect(r.status).toBe(403);
    expect(r.headers.get("x-you-are-authenticated-as")).toBe("anonymous");
  });

  it("answers bad credentials with 401, a Basic challenge, and never echoes the token", async () => {
    for (const base of urls()) {
      const r = await call(emu, `${base}casc-bundle-mgnt/casc-bundle-update-log`, {
        authorization: basic({ username: "admin", apiToken: "wrong-secret-token" }),
      });
      expect(r.status).toBe(401);
      expect(r.headers.get("www-authenticate")).toBe('Basic realm="Jenkins"');
      expect(r.text).toContain("Invalid password/token for user: admin");
      expect(r.text).not.toContain("wrong-secret-token");
    }
    const unknownUser = await call(emu, `${emu.operationsCenterUrl}casc-bundle/list`, {
      authorization: basic({ username: "mallory", apiToken: "admin-api-token-7f3c9d" }),
    });
    expect(unknownUser.status).toBe(401);
    expect(unknownUser.text).toContain("Invalid password/token for user: mallory");
  });

  it("refuses a valid non-admin user with 403 'missing the Overall/Administer permission'", async () => {
    for (const base of urls()) {
      const r = await call(emu, `${base}casc-bundle-mgnt/casc-bundle-update-log`, { authorization: basic(emu.credentials.nonAdmin) });
      expect(r.status).toBe(403);
      expect(r.text).toContain("developer is missing the Overall/Administer permission");
    }
  });

  it("lets the admin through with JSON answers", async () => {
    for (const base of urls()) {
      const r = await call(emu, `${base}casc-bundle-mgnt/casc-bundle-update-log`);
      expect(r.status).toBe(200);
      expect(r.headers.get("content-type")).toMatch(/^application\/json/);
      expect(r.json["update-log-status"]).toBe("ENABLED");
    }
  });
});

describe("404 for unknown paths and wrong methods", () => {
  it("answers an unknown OC path with the 404 HTML page", async () => {
    const r = await call(emu, `${emu.operationsCenterUrl}casc-bundle/does-not-exist`);
    expect(r.status).toBe(404);
    expect(r.headers.get("content-type")).toMatch(/^text\/html/);
    expect(r.text).toContain("Not Found");
  });

  it("answers a wrong method with 404 (GET of a POST endpoint, POST of a GET endpoint)", async () => {
    expect((await call(emu, `${emu.operationsCenterUrl}casc-bundle/check-out`)).status).toBe(404);
    expect((await post(emu, `${emu.operationsCenterUrl}casc-bundle/list`)).status).toBe(404);
    const ctl = emu.controllerUrls["sandbox"]!;
    expect((await call(emu, `${ctl}casc-bundle-mgnt/reload-bundle`)).status).toBe(404);
    expect((await post(emu, `${ctl}core-casc-export`)).status).toBe(404);
  });

  it("serves OC-only endpoints on the OC alone", async () => {
    const r = await call(emu, `${emu.controllerUrls["sandbox"]}casc-bundle/list`);
    expect(r.status).toBe(404);
  });

  it("answers unknown controllers and unknown top-level paths with 404", async () => {
    expect((await call(emu, `${emu.baseUrl}controllers/no-such/controller/core-casc-export`)).status).toBe(404);
    expect((await call(emu, `${emu.baseUrl}elsewhere`)).status).toBe(404);
    expect((await call(emu, `${emu.baseUrl}cjoc`)).status).toBe(404);
  });

  it("answers the feature-flag service's unknown paths and wrong methods with 404 JSON", async () => {
    const auth = `Bearer ${emu.credentials.featureManagementToken}`;
    const unknown = await call(emu, `${emu.featureManagementUrl}public-api/flags`, { authorization: auth });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({ error: "Not found" });
    const wrongMethod = await call(emu, `${emu.featureManagementUrl}public-api/applications`, { method: "DELETE", authorization: auth });
    expect(wrongMethod.status).toBe(404);
  });
});

describe("isolation", () => {
  it("keeps the state of two emulators in one process apart", async () => {
    const other = await startEmulator({ controllers: ["only/one"] });
    try {
      expect(other.port).not.toBe(emu.port);
      expect(other.state.controllers()).toEqual(["only/one"]);
      const r = await call(other, `${other.featureManagementUrl}public-api/applications`, {
        method: "POST",
        authorization: `Bearer ${other.credentials.featureManagementToken}`,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ applicationName: "only-here" }),
      });
      expect(r.status).toBe(200);
      expect(other.state.applications("acme").map((a) => a.name)).toEqual(["only-here"]);
      expect(emu.state.applications("acme").map((a) => a.name)).not.toContain("only-here");
      expect((await call(emu, `${emu.baseUrl}controllers/only/one/core-casc-export`)).status).toBe(404);
    } finally {
      await other.close();
    }
  });

  it("honours custom users and reports them as credentials", async () => {
    const other = await startEmulator({
      users: [
        { username: "root", apiToken: "root-token", admin: true },
        { username: "guest", apiToken: "guest-token", admin: false },
      ],
    });
    try {
      expect(other.credentials.admin).toEqual({ username: "root", apiToken: "root-token" });
      expect((await call(other, `${other.operationsCenterUrl}casc-bundle/list`)).status).toBe(200);
      const old = await call(other, `${other.operationsCenterUrl}casc-bundle/list`, { authorization: basic(emu.credentials.admin) });
      expect(old.status).toBe(401);
    } finally {
      await other.close();
    }
  });

  it("rejects invalid options and a missing bundle folder", async () => {
    await expect(startEmulator({ controllers: ["/leading"] })).rejects.toThrow(/Invalid emulator options/);
    await expect(startEmulator({ bundlesDir: "/definitely/not/here" })).rejects.toThrow(/Bundle location folder not found/);
  });
});

describe("controller routing", () => {
  it("routes nested controller paths by longest match and keeps '//' paths out of other services", async () => {
    const other = await startEmulator({ controllers: ["team", "team/inner"] });
    try {
      expect(other.controllerUrls["team/inner"]).toBe(`${other.baseUrl}controllers/team/inner/`);
      await call(other, `${other.controllerUrls["team/inner"]}casc-items/create-items`, {
        method: "POST",
        body: "items:\n  - kind: folder\n    name: only-inner\n",
      });
      expect(other.state.items("team/inner")).toEqual(["only-inner"]);
      expect(other.state.items("team")).toEqual([]);
      const r = await call(other, `${other.baseUrl}/cjoc/casc-bundle/list`);
      expect(r.status).toBe(404);
    } finally {
      await other.close();
    }
  });
});
