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

describe("a control character in a name (issue 37)", () => {
  // The provider refuses one before any request (controlCharacterProblem); the emulator refuses it the same way, so
  // that a program or a curl that gets past the provider cannot put one in its console or a log that quotes it.
  const NAMES = { LF: "a\nb", ESC: "Prod\u001b[2J", DEL: "x\u007f", NEL: "x\u0085", CSI: "x\u009b31m" };

  it.each(Object.entries(NAMES))("%s: 400 naming the field, in an application's, an environment's, a flag's, a target group's, a property's and a label's name", async (_name, name) => {
    const quotedName = JSON.stringify(name);
    const apps = await send(`${s.emu.featureManagementUrl}public-api/applications`, "POST", `{"applicationName":${quotedName}}`);
    expect(apps).toEqual({ status: 400, text: expect.stringMatching(/applicationName: holds a control character \(U\+00[0-9A-F]{2}\): a name cannot carry one/) });
    const appId = await s.newApplication();
    const base = `${s.emu.featureManagementUrl}public-api/applications/${appId}`;
    const refusals = [
      await send(`${base}/environments/key`, "PUT", `{"name":${quotedName}}`),
      await send(`${base}/flags`, "PUT", `{"name":${quotedName}}`),
      await send(`${base}/target-groups`, "PUT", `{"type":"target-group","name":${quotedName},"conditions":[{"property":"p","operator":"is-true"}]}`),
      await send(`${base}/target-groups`, "PUT", `{"type":"target-group","name":"g","conditions":[{"property":${quotedName},"operator":"is-true"}]}`),
    ];
    await s.client.createFlag(appId, { name: "f" });
    refusals.push(await send(`${base}/Production/flags/f`, "PUT", `{"name":"f","labels":[${quotedName}]}`));
    expect(refusals.map((r) => r.status)).toEqual([400, 400, 400, 400, 400]);
    expect(refusals.map((r) => /([\w.[\]]+): holds a control character/.exec(r.text)?.[1])).toEqual(["name", "name", "name", "conditions[0].property", "labels[0]"]);
    // Nothing was stored under it.
    expect((await s.client.listEnvironments(appId)).map((e) => e.name)).toEqual(["Production"]);
  });

  it("a line or paragraph separator, or a bidi override, is no control character: kept, as the provider keeps it", async () => {
    const appId = await s.newApplication();
    const name = "Stage\u2028two\u202e";
    await s.client.createEnvironment(appId, { name });
    expect((await s.client.listEnvironments(appId)).map((e) => e.name)).toContain(name);
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
