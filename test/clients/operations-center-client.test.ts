import { inspect } from "node:util";
import { startEmulator, type Emulator } from "../../emulator";
import {
  AuthenticationError,
  CloudBeesError,
  InvalidInputError,
  NetworkError,
  NotFoundError,
  OperationsCenterClient,
  PermissionError,
  RequestRejectedError,
  ServerError,
  TimeoutError,
  UnexpectedResponseError,
} from "../../provider";
import { FAST } from "./fast-options";
import { branchZip, unzipNames, unzipText } from "./zips";

let emu: Emulator;
let oc: OperationsCenterClient;
const OC = "/cjoc/casc-bundle";

beforeAll(async () => {
  emu = await startEmulator();
  oc = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...emu.credentials.admin, ...FAST });
});
afterAll(async () => {
  await oc.close();
  await emu.close();
});
beforeEach(() => {
  emu.journal.clear();
  emu.faults.clear();
});

const basicOf = (username: string, token: string) => `Basic ${Buffer.from(`${username}:${token}`).toString("base64")}`;
const last = () => emu.journal.entries().at(-1)!;

describe("OperationsCenterClient on the wire", () => {
  it("lists bundles with GET, Basic credentials and accept: application/json", async () => {
    const bundles = await oc.listBundles();
    expect(bundles.map((b) => b.name).sort()).toEqual(["base", "team-a", "team-b"]);
    const teamA = bundles.find((b) => b.name === "team-a")!;
    expect(teamA).toMatchObject({ regex: "team-a/.*", availabilityPatternFromYaml: true, availableFor: ["team-a/controller-a"], usedBy: [] });
    expect(teamA.linkFileContent).toBe(`${teamA.url}\n${teamA.token}`);
    const entry = last();
    expect([entry.method, entry.path, entry.query]).toEqual(["GET", `${OC}/list`, {}]);
    expect(entry.headers.accept).toBe("application/json");
    expect(entry.headers.authorization).toBe(basicOf(emu.credentials.admin.username, emu.credentials.admin.apiToken));
    expect(entry.headers["content-type"]).toBeUndefined();
  });

  it("sets, then clears, an availability pattern with its parameters in the query string", async () => {
    await expect(oc.setAvailabilityPattern("team-b", "team-b/.*")).resolves.toEqual(["team-b/controller-b"]);
    expect([last().method, last().path, last().query, last().body.length]).toEqual([
      "POST",
      `${OC}/set-availability-pattern`,
      { bundleId: "team-b", regex: "team-b/.*" },
      0,
    ]);
    expect((await oc.listBundles()).find((b) => b.name === "team-b")).toMatchObject({ regex: "team-b/.*", availabilityPatternFromYaml: false });

    await expect(oc.clearAvailabilityPattern("team-b")).resolves.toEqual([]);
    expect([last().path, last().query]).toEqual([`${OC}/clear-availability-pattern`, { bundleId: "team-b" }]);
    expect((await oc.listBundles()).find((b) => b.name === "team-b")!.regex).toBe("");
  });

  it("assigns a bundle to a controller, and refuses one that is not available to it", async () => {
    const info = await oc.setControllerToBundle("team-a", "team-a/controller-a");
    expect(info.name).toBe("team-a");
    expect([last().path, last().query]).toEqual([`${OC}/set-controller-to-bundle`, { bundleId: "team-a", controllerPath: "team-a/controller-a" }]);
    expect((await oc.listBundles()).find((b) => b.name === "team-a")!.usedBy).toEqual(["team-a/controller-a"]);

    const error = await oc.setControllerToBundle("team-a", "sandbox").catch((e) => e);
    expect(error).toBeInstanceOf(RequestRejectedError);
    expect(error.message).toContain("not available to controller 'sandbox'");
    expect(emu.state.assignments().sandbox).toBeUndefined();
  });

  it("switches the global availability behaviour", async () => {
    await expect(oc.setGlobalAvailabilityPatternBehavior(true)).resolves.toBe(true);
    expect([last().path, last().query]).toEqual([`${OC}/set-global-availability-pattern-behavior`, { visibility: "true" }]);
    expect((await oc.listBundles()).find((b) => b.name === "base")!.availableFor.sort()).toEqual(emu.state.controllers().sort());
    await expect(oc.setGlobalAvailabilityPatternBehavior(false)).resolves.toBe(false);
    expect(emu.state.globalVisibility()).toBe(false);
  });

  it("sets the default bundle without assigning it", async () => {
    const before = emu.state.assignments();
    await expect(oc.setDefaultBundle("base")).resolves.toMatchObject({ name: "base" });
    expect([last().path, last().query]).toEqual([`${OC}/set-default-bundle`, { bundleId: "base" }]);
    expect(emu.state.defaultBundle()).toBe("base");
    expect(emu.state.assignments()).toEqual(before);
  });

  it("reads a controller's bundle link and regenerates its token", async () => {
    await oc.setControllerToBundle("team-a", "team-a/controller-a");
    const link = await oc.getBundleDownloadLink("team-a/controller-a");
    expect(link.token).toBe(emu.state.controllerToken("team-a/controller-a"));
    expect([last().method, last().path, last().query]).toEqual(["GET", "/cjoc/config-bundle-download-link", { id: "team-a/controller-a" }]);

    const info = await oc.regenerateToken("team-a/controller-a");
    expect([last().method, last().path, last().query]).toEqual(["POST", `${OC}/regenerate-token`, { controllerPath: "team-a/controller-a" }]);
    expect(info.token).not.toBe(link.token);
    expect(info.token).toBe(emu.state.controllerToken("team-a/controller-a"));
  });

  it("reads the raw and effective validation logs with their filters", async () => {
    const raw = await oc.getRawBundleValidationLog({ bundle: "team-a", controller: true });
    expect(last().query).toEqual({ bundle: "team-a", controller: "true" });
    expect(raw["validation-log"].map((l) => l["bundle-id"])).toEqual(["team-a"]);
    expect(raw["validation-log"][0].records[0].errors).toBe(0);
    expect(raw["validation-log"][0].controllers).toBeDefined();

    await oc.setControllerToBundle("team-a", "team-a/controller-a");
    const effective = await oc.getEffectiveBundleValidationLog({ controller: "team-a/.*" });
    expect([last().path, last().query]).toEqual([`${OC}/effective-bundle-validation-log`, { controller: "team-a/.*" }]);
    expect(effective["validation-log"].map((l) => l.controller)).toEqual(["team-a/controller-a"]);
    expect(effective["validation-log"][0].records[0]).toMatchObject({ bundle: "team-a", assigned: true });
  });

  it("checks out the bundle location with a timeout", async () => {
    const result = await oc.checkOut({ timeoutSeconds: 120 });
    expect([last().method, last().path, last().query]).toEqual(["POST", `${OC}/check-out`, { timeout: "120" }]);
    expect(result.remotes[0].bundles.map((b) => b.bundleName).sort()).toEqual(["base", "team-a", "team-b"]);
    await expect(oc.checkOut({ timeoutSeconds: 0 })).rejects.toThrow(/invalid timeoutSeconds/);
  });

  it("computes an effective bundle from a zip sent as the raw body", async () => {
    const zip = await branchZip("feature/x", ["base", "team-a"]);
    const effective = await oc.getEffectiveBundle(zip, { bundle: "feature/x/team-a" });
    expect(last().headers["content-type"]).toBe("application/zip");
    expect(last().query).toEqual({ bundle: "feature/x/team-a" });
    expect(last().body.equals(zip)).toBe(true);
    // Parent first, then the child, each level in a folder named after its bundle ("/" written "___").
    expect(await unzipNames(effective)).toEqual([
      "bundle.yaml",
      "feature___x___base/items.yaml",
      "feature___x___base/jenkins.yaml",
      "feature___x___base/plugins.yaml",
      "feature___x___team-a/items.yaml",
      "feature___x___team-a/jenkins.yaml",
    ]);
    expect(await unzipText(effective, "bundle.yaml")).toMatch(/version: "?[0-9a-f]{32}/);
  });

  it("fails with the server's message when a bundle of the zip references a missing file", async () => {
    const zip = await branchZip("main", ["base"], {
      "main/broken/bundle.yaml": 'apiVersion: "1"\nid: broken\nversion: "1"\nparent: base\njcasc:\n  - missing.yaml\n',
    });
    const error = await oc.getEffectiveBundle(zip, { bundle: "main/broken" }).catch((e) => e);
    expect(error).toBeInstanceOf(RequestRejectedError);
    expect(error.message).toContain("missing.yaml");
    await expect(oc.preValidateBundles(zip)).rejects.toThrow(/missing\.yaml/);
  });

  it("validates an uploaded bundle, quietly or verbosely", async () => {
    const verbose = await oc.validateUploadedBundle("team-a", { quiet: false });
    expect([last().path, last().query]).toEqual([`${OC}/validate-uploaded-bundle`, { bundleId: "team-a", quiet: "false" }]);
    expect(verbose.valid).toBe(true);
    const quiet = await oc.validateUploadedBundle("team-a", { quiet: true });
    expect(quiet.structureValidations.every((v) => v.level !== "INFO")).toBe(true);
    await expect(oc.validateUploadedBundle("no-such-bundle")).rejects.toThrow(NotFoundError);
  });

  it("pre-validates the bundles of a branch zip", async () => {
    const zip = await branchZip("main", ["base", "team-a", "team-b"]);
    const result = await oc.preValidateBundles(zip, { quiet: true });
    expect(last().headers["content-type"]).toBe("application/zip");
    expect(last().headers.accept).toBe("application/json");
    expect(last().query).toEqual({ quiet: "true" });
    expect(result.validations.map((v) => v.bundle).sort()).toEqual(["main/base", "main/team-a", "main/team-b"]);
    expect(result.validations.every((v) => v.result.valid)).toBe(true);
  });
});

describe("OperationsCenterClient errors", () => {
  it("401: bad credentials", async () => {
    const bad = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, username: "admin", apiToken: "not-the-token-4242", ...FAST });
    const error = await bad.listBundles().catch((e) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.message).toMatch(/^listing bundles \(GET \/cjoc\/casc-bundle\/list\): authentication failed \(401\)/);
    expect(error.message).not.toContain("not-the-token-4242");
  });

  it("403: a user without administrator permission", async () => {
    const dev = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...emu.credentials.nonAdmin, ...FAST });
    const error = await dev.setDefaultBundle("base").catch((e) => e);
    expect(error).toBeInstanceOf(PermissionError);
    expect(error.status).toBe(403);
    expect(error.message).toContain("Overall/Administer");
    expect(error.bodyExcerpt).toContain("missing the Overall/Administer permission");
    expect(emu.state.defaultBundle()).not.toBe("team-b");
  });

  it("404: an unknown bundle or controller, with what to check", async () => {
    const error = await oc.setAvailabilityPattern("no-such-bundle", ".*").catch((e) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toContain('setting the availability pattern of bundle "no-such-bundle"');
    expect(error.message).toContain("listBundles()");
    await expect(oc.getBundleDownloadLink("nowhere/controller")).rejects.toThrow(NotFoundError);
  });

  it("400: an invalid regex is refused with the server's reason", async () => {
    const error = await oc.setAvailabilityPattern("team-b", "team-(b").catch((e) => e);
    expect(error).toBeInstanceOf(RequestRejectedError);
    expect(error.status).toBe(400);
    expect(error.message).toContain("Invalid regular expression");
  });

  it("rejects inputs that would build a wrong request before sending anything", async () => {
    await expect(oc.setAvailabilityPattern("", ".*")).rejects.toThrow(InvalidInputError);
    await expect(oc.setControllerToBundle("team-a", "/team-a/controller-a")).rejects.toThrow(/invalid controllerPath: .*must not start or end with "\/"/);
    await expect(oc.setControllerToBundle("team-a", "team-a//controller-a")).rejects.toThrow(/empty/);
    await expect(oc.regenerateToken("team-a/controller-a/")).rejects.toThrow(InvalidInputError);
    await expect(oc.getEffectiveBundle(Buffer.alloc(0), { bundle: "x" })).rejects.toThrow(/the zip is empty/);
    expect(emu.journal.entries()).toHaveLength(0);
  });

  it("500: a read is retried and succeeds, so is regenerate-token (a fresh token is the goal); reload-bundle is never repeated", async () => {
    emu.faults.inject({ method: "GET", path: `${OC}/list`, status: 500, times: 2 });
    await expect(oc.listBundles()).resolves.toHaveLength(3);
    expect(emu.journal.entries().map((e) => e.status)).toEqual([500, 500, 200]);

    emu.journal.clear();
    emu.faults.inject({ path: `${OC}/regenerate-token`, status: 500 });
    const info = await oc.regenerateToken("team-a/controller-a");
    expect(info.token).toBe(emu.state.controllerToken("team-a/controller-a"));
    expect(emu.journal.entries().map((e) => e.status)).toEqual([500, 200]);

    emu.journal.clear();
    emu.faults.inject({ path: "/cjoc/casc-bundle-mgnt/reload-bundle", status: 500 });
    await expect(oc.reloadBundle()).rejects.toThrow(ServerError);
    expect(emu.journal.entries()).toHaveLength(1);
  });

  it("429 with Retry-After: waits as told, then succeeds", async () => {
    emu.faults.inject({ path: `${OC}/set-default-bundle`, status: 429, headers: { "retry-after": "0" } });
    await expect(oc.setDefaultBundle("base")).resolves.toMatchObject({ name: "base" });
    expect(emu.journal.entries().map((e) => e.status)).toEqual([429, 200]);
  });

  it("a Retry-After longer than the cap fails at once, saying so", async () => {
    emu.faults.inject({ path: `${OC}/list`, status: 429, headers: { "retry-after": "3600" } });
    const error = await oc.listBundles().catch((e) => e);
    expect(error.name).toBe("RateLimitError");
    expect(error.retryAfterMs).toBe(3_600_000);
    expect(emu.journal.entries()).toHaveLength(1);
  });

  it("a dropped connection is retried for a set call", async () => {
    emu.faults.inject({ path: `${OC}/set-availability-pattern`, drop: true });
    await expect(oc.setAvailabilityPattern("team-b", "team-b/.*")).resolves.toEqual(["team-b/controller-b"]);
    expect(emu.journal.entries().map((e) => e.status)).toEqual([0, 200]);
    await oc.clearAvailabilityPattern("team-b");
  });

  it("a dropped connection that persists is a NetworkError after the retries", async () => {
    emu.faults.inject({ path: `${OC}/list`, drop: true, times: 10 });
    const error = await oc.listBundles().catch((e) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toContain("after 4 attempts");
  });

  it("a timeout is a TimeoutError", async () => {
    const slow = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...emu.credentials.admin, timeoutMs: 150, maxRetries: 0 });
    emu.faults.inject({ path: `${OC}/list`, delayMs: 500 });
    await expect(slow.listBundles()).rejects.toThrow(TimeoutError);
    await slow.close();
  });

  it("a body of the wrong shape names the endpoint and the field", async () => {
    emu.faults.inject({ path: `${OC}/list`, status: 200, body: '{"bundles":[{"name":"x","regex":""}]}' });
    const error = await oc.listBundles().catch((e) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error.field).toBe("bundles[0].linkFileContent");
    expect(error.message).toContain("GET /cjoc/casc-bundle/list");
  });

  it("never shows the API token or the Basic header in any error", async () => {
    const apiToken = "canary-api-token-77c1e9";
    const { username } = emu.credentials.admin;
    const basic = Buffer.from(`${username}:${apiToken}`).toString("base64");
    const leaky = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, username, apiToken, ...FAST, maxRetries: 0 });
    const errors: CloudBeesError[] = [await leaky.listBundles().catch((e) => e)];
    emu.faults.inject({ path: `${OC}/list`, status: 500, body: `{"error":"saw Basic ${basic} and ${apiToken}"}` });
    errors.push(await leaky.listBundles().catch((e) => e));
    emu.faults.inject({ path: `${OC}/list`, status: 200, body: `{"bundles":"${apiToken}"}` });
    errors.push(await leaky.listBundles().catch((e) => e));
    for (const error of errors) {
      expect(error).toBeInstanceOf(CloudBeesError);
      for (const text of [error.message, String(error), JSON.stringify(error), inspect(error), error.stack ?? ""]) {
        expect(text).not.toContain(apiToken);
        expect(text).not.toContain(basic);
      }
    }
    expect(inspect(leaky, { depth: 10 })).not.toContain(apiToken);
    await leaky.close();
  });
});
