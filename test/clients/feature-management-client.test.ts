import { startEmulator, type Emulator } from "../../emulator";
import {
  AuthenticationError,
  CloudBeesError,
  FeatureManagementClient,
  InvalidInputError,
  NetworkError,
  NotFoundError,
  RateLimitError,
  ServerError,
  TimeoutError,
  UnexpectedResponseError,
} from "../../provider";
import { FAST } from "./fast-options";

let emu: Emulator;
let client: FeatureManagementClient;
const APPS = "/feature-management/public-api/applications";

beforeAll(async () => {
  emu = await startEmulator();
  client = new FeatureManagementClient({
    baseUrl: emu.featureManagementUrl,
    token: emu.credentials.featureManagementToken,
    minRequestIntervalMs: 1,
    ...FAST,
  });
});
afterAll(async () => {
  await client.close();
  await emu.close();
});
beforeEach(() => {
  emu.journal.clear();
  emu.faults.clear();
});

describe("FeatureManagementClient on the wire", () => {
  it("creates, reads and lists applications with exactly the spec's method, path, headers and body", async () => {
    const created = await client.createApplication("checkout-service");
    expect(created.name).toBe("checkout-service");
    expect(created.id).toMatch(/^[0-9a-f]{24}$/);

    const [post] = emu.journal.entries();
    expect(post.method).toBe("POST");
    expect(post.path).toBe(APPS);
    expect(post.query).toEqual({});
    expect(post.headers.accept).toBe("application/json");
    expect(post.headers["content-type"]).toBe("application/json");
    expect(post.headers.authorization).toBe(`Bearer ${emu.credentials.featureManagementToken}`);
    expect(JSON.parse(post.body.toString())).toEqual({ applicationName: "checkout-service" });

    await expect(client.getApplication(created.id)).resolves.toEqual(created);
    const list = await client.listApplications();
    expect(list).toContainEqual(created);

    const [, get, listed] = emu.journal.entries();
    expect([get.method, get.path]).toEqual(["GET", `${APPS}/${created.id}`]);
    expect([listed.method, listed.path, listed.body.length]).toEqual(["GET", APPS, 0]);
    expect(get.headers.accept).toBe("application/json");
    expect(get.headers["content-type"]).toBeUndefined();
  });

  it("sees only the token's own account", async () => {
    const other = new FeatureManagementClient({
      baseUrl: emu.featureManagementUrl,
      token: emu.credentials.otherFeatureManagementToken,
      minRequestIntervalMs: 1,
      ...FAST,
    });
    const mine = await client.createApplication("only-in-acme");
    const theirs = await other.listApplications();
    expect(theirs.map((a) => a.id)).not.toContain(mine.id);
    await expect(other.getApplication(mine.id)).rejects.toThrow(NotFoundError);
    await other.close();
  });
});

describe("FeatureManagementClient errors", () => {
  it("401: a bad token is an AuthenticationError that says what to check", async () => {
    const bad = new FeatureManagementClient({ baseUrl: emu.featureManagementUrl, token: "wrong-token-123", minRequestIntervalMs: 1, ...FAST });
    const error = await bad.listApplications().catch((e) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, method: "GET", path: APPS, operation: "listing applications" });
    expect(error.message).toMatch(/^listing applications \(GET \/feature-management\/public-api\/applications\): authentication failed \(401\)/);
    expect(error.message).toContain("token");
    expect(error.message).not.toContain("wrong-token-123");
  });

  it("404: an unknown id is a NotFoundError naming the application", async () => {
    const error = await client.getApplication("0123456789abcdef01234567").catch((e) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toContain('reading application "0123456789abcdef01234567"');
  });

  it("rejects an empty id or name before sending anything", async () => {
    await expect(client.getApplication("")).rejects.toThrow(InvalidInputError);
    await expect(client.getApplication("  ")).rejects.toThrow(/invalid applicationId: must not be empty/);
    await expect(client.createApplication("")).rejects.toThrow(/invalid name: must not be empty/);
    expect(emu.journal.entries()).toHaveLength(0);
  });

  it("555: retries a rate-limited read after backing off, and succeeds", async () => {
    emu.faults.inject({ method: "GET", path: APPS, status: 555, times: 2 });
    await expect(client.listApplications()).resolves.toBeInstanceOf(Array);
    expect(emu.journal.entries().map((e) => e.status)).toEqual([555, 555, 200]);
  });

  it("555: retries even a create, because the rate limiter refused it before it was processed", async () => {
    emu.faults.inject({ method: "POST", path: APPS, status: 555 });
    await expect(client.createApplication("after-555")).resolves.toMatchObject({ name: "after-555" });
    expect(emu.journal.entries().map((e) => e.status)).toEqual([555, 200]);
  });

  it("555 that persists: a RateLimitError after the last retry", async () => {
    emu.faults.inject({ method: "GET", path: APPS, status: 555, times: 10 });
    const error = await client.listApplications().catch((e) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.message).toContain("after 4 attempts");
    expect(emu.journal.entries()).toHaveLength(4);
  });

  it("500: never repeats a create (it could create the application twice)", async () => {
    emu.faults.inject({ method: "POST", path: APPS, status: 500, body: '{"error":"boom"}' });
    const error = await client.createApplication("not-twice").catch((e) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error.bodyExcerpt).toBe("boom");
    expect(emu.journal.entries()).toHaveLength(1);
  });

  it("a dropped connection: a read is retried, a create is not", async () => {
    emu.faults.inject({ method: "GET", path: APPS, drop: true });
    await expect(client.listApplications()).resolves.toBeInstanceOf(Array);
    expect(emu.journal.entries()).toHaveLength(2);

    emu.journal.clear();
    emu.faults.inject({ method: "POST", path: APPS, drop: true });
    await expect(client.createApplication("dropped")).rejects.toThrow(NetworkError);
    expect(emu.journal.entries()).toHaveLength(1);
    expect(emu.state.applications("acme").map((a) => a.name)).not.toContain("dropped");
  });

  it("a timeout: a TimeoutError when no answer comes within the deadline", async () => {
    const slow = new FeatureManagementClient({
      baseUrl: emu.featureManagementUrl,
      token: emu.credentials.featureManagementToken,
      minRequestIntervalMs: 1,
      timeoutMs: 200,
      maxRetries: 0,
    });
    emu.faults.inject({ method: "GET", path: APPS, delayMs: 600 });
    const error = await slow.listApplications().catch((e) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toContain("no complete response within 200 ms");
    await slow.close();
    // The emulator still answers the abandoned request later; wait for it so it cannot disturb the next test.
    while (emu.journal.entries().length === 0) await new Promise((r) => setTimeout(r, 50));
  });

  it("a malformed body: an UnexpectedResponseError naming the endpoint and the field", async () => {
    emu.faults.inject({ method: "GET", path: APPS, status: 200, body: '[{"name":"ok","id":"5e95ad1fa6de037e1793732b"},{"name":7,"id":"x"}]' });
    const error = await client.listApplications().catch((e) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error.field).toBe("[1].name");
    expect(error.message).toContain("GET /feature-management/public-api/applications");
    expect(error.message).toContain('field "[1].name"');

    emu.faults.inject({ method: "GET", path: APPS, status: 200, body: "<html>maintenance</html>" });
    await expect(client.listApplications()).rejects.toThrow(/the body is not JSON/);
  });
});

describe("FeatureManagementClient throttle", () => {
  it("keeps under the service's one request per second: no 555 even with the limit on", async () => {
    emu.setFeatureManagementRateLimit(true);
    try {
      const throttledClient = new FeatureManagementClient({
        baseUrl: emu.featureManagementUrl,
        token: emu.credentials.featureManagementToken,
        maxRetries: 0,
      });
      await Promise.all([throttledClient.listApplications(), throttledClient.listApplications(), throttledClient.listApplications()]);
      expect(emu.journal.entries().map((e) => e.status)).toEqual([200, 200, 200]);
      await throttledClient.close();
    } finally {
      emu.setFeatureManagementRateLimit(false);
    }
  });
});

describe("credentials never leak", () => {
  it("no error message, toString, JSON or inspect output contains the token", async () => {
    const token = "leak-canary-token-8f2d6c1a";
    const leaky = new FeatureManagementClient({ baseUrl: emu.featureManagementUrl, token, minRequestIntervalMs: 1, ...FAST, maxRetries: 0 });
    const errors: CloudBeesError[] = [];
    errors.push(await leaky.listApplications().catch((e) => e));
    emu.faults.inject({ path: APPS, status: 500, body: `{"error":"echo ${token} Bearer ${token}"}` });
    errors.push(await leaky.listApplications().catch((e) => e));
    emu.faults.inject({ path: APPS, status: 200, body: `{"echo":"${token}"}` });
    errors.push(await leaky.listApplications().catch((e) => e));
    emu.faults.inject({ path: APPS, drop: true });
    errors.push(await leaky.listApplications().catch((e) => e));
    const { inspect } = await import("node:util");
    for (const error of errors) {
      expect(error).toBeInstanceOf(CloudBeesError);
      for (const text of [error.message, String(error), JSON.stringify(error), inspect(error), error.stack ?? ""]) {
        expect(text).not.toContain(token);
      }
    }
    expect(errors[1].bodyExcerpt).toBe("echo [redacted] [redacted]");
    expect(inspect(leaky, { depth: 10 })).not.toContain(token);
    expect(JSON.stringify(leaky)).not.toContain(token);
    await leaky.close();
  });
});
