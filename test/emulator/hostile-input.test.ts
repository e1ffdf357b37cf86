/**
 * Issue 26, the emulator's part, over HTTP: strings it accepts are well-formed Unicode (a lone surrogate is refused
 * with 400 naming the field, and no later answer breaks on it), a failure's body carries no stack trace or file
 * path, and only requests addressed to a loopback name are answered (no DNS rebinding from a browser page).
 */
import * as http from "node:http";
import { isLoopbackHost } from "../../emulator/loopback-host";
import { internalError } from "../../emulator/undocumented-behaviour";
import { startFlagSetup, type FlagSetup } from "./feature-flag-setup";
import { post } from "./helpers";

let s: FlagSetup;
beforeAll(async () => {
  s = await startFlagSetup();
});
afterAll(async () => {
  await s.close();
});

/** A JSON text whose string holds a lone surrogate, as `JSON.stringify` writes one: `"\ud800"`. */
const LONE = JSON.stringify("a\ud800b");

async function send(url: string, method: string, body: string): Promise<{ status: number; text: string }> {
  const res = await fetch(url, { method, body, headers: { authorization: `Bearer ${s.emu.credentials.featureManagementToken}`, "content-type": "application/json" } });
  return { status: res.status, text: await res.text() };
}

describe("a lone surrogate in a request", () => {
  it("is refused with 400 naming the field, and the SDK's configuration of the application still answers", async () => {
    const appId = await s.newApplication();
    const groups = `${s.emu.featureManagementUrl}public-api/applications/${appId}/target-groups`;
    const refused = await send(groups, "PUT", `{"type":"target-group","name":"g","conditions":[{"property":"p","operator":"eq","operand":${LONE}}]}`);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("body.conditions[0].operand: holds a lone surrogate");
    // A pair is well-formed: accepted.
    const pair = await send(groups, "PUT", `{"type":"target-group","name":"g","conditions":[{"property":"p","operator":"eq","operand":"\\ud83d\\ude00"}]}`);
    expect(pair.status).toBeLessThan(300);
    const production = (await s.client.listEnvironments(appId)).find((e) => e.name === "Production")!;
    const roxy = await fetch(s.emu.roxyUrl(production.key));
    expect(roxy.status).toBe(200);
  });

  it("is refused in an application's name, an environment's and a flag's", async () => {
    const apps = await send(`${s.emu.featureManagementUrl}public-api/applications`, "POST", `{"applicationName":${LONE}}`);
    expect(apps).toEqual({ status: 400, text: expect.stringContaining("body.applicationName: holds a lone surrogate") });
    const appId = await s.newApplication();
    const base = `${s.emu.featureManagementUrl}public-api/applications/${appId}`;
    expect((await send(`${base}/environments/key`, "PUT", `{"name":${LONE}}`)).status).toBe(400);
    expect((await send(`${base}/flags`, "PUT", `{"name":${LONE}}`)).status).toBe(400);
    // A key of an object counts too.
    expect((await send(`${base}/flags`, "PUT", `{"name":"f","x\\udc00":1}`)).text).toContain("body (a key): holds a lone surrogate");
  });

  it("is refused in the items YAML of create-items", async () => {
    const sandbox = s.emu.controllerUrls["sandbox"]!;
    const r = await post(s.emu, `${sandbox}casc-items/create-items`, {
      body: 'items:\n  - kind: freestyle\n    name: "job\\ud800"\n',
      headers: { "content-type": "text/yaml" },
    });
    expect(r.status).toBe(400);
    expect(r.text).toContain("items.items[0].name: holds a lone surrogate");
  });
});

describe("a failure's body", () => {
  it("names the error class and message, without a stack trace or a file path", () => {
    const e = new Error("ENOENT: no such file or directory, open '/home/alice/work/bundles/team-a/bundle.yaml'");
    const body = JSON.parse(internalError(e).body.toString("utf8"));
    expect(body).toEqual({ error: "Error: ENOENT: no such file or directory, open '<path>'", stackTrace: "" });
    expect(JSON.stringify(body)).not.toMatch(/alice|\.ts:|\.js:|    at /);
  });
});

describe("the Host header", () => {
  /** A request with the Host header as given (fetch sets its own). */
  function requestWithHost(host: string): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const req = http.request(
        { host: "127.0.0.1", port: s.emu.port, path: "/feature-management/public-api/applications", headers: { host, authorization: `Bearer ${s.emu.credentials.featureManagementToken}` } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
        },
      );
      req.on("error", reject);
      req.end();
    });
  }

  it("of another site is refused with 403 and the reason, and journaled", async () => {
    s.emu.journal.clear();
    const r = await requestWithHost(`rebind.example:${s.emu.port}`);
    expect(r.status).toBe(403);
    expect(r.text).toContain('the Host header "rebind.example:');
    expect(r.text).not.toContain("checkout");
    expect(s.emu.journal.entries().map((e) => e.status)).toEqual([403]);
  });

  it.each([`127.0.0.1:PORT`, "localhost:PORT", "LOCALHOST", "[::1]:PORT", "127.1.2.3:PORT", "app.localhost:PORT"])("%s is answered", async (host) => {
    const r = await requestWithHost(host.replace("PORT", String(s.emu.port)));
    expect(r.status).toBe(200);
  });

  it.each(["rebind.example", "127.0.0.1.rebind.example", "localhost.rebind.example:80", "[::2]", "0.0.0.0", "198.51.100.1", "", "127.0.0.1:80:80"])(
    "%j is not a loopback name",
    (host) => {
      expect(isLoopbackHost(host)).toBe(false);
    },
  );
});
