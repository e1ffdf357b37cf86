import {
  closeClients,
  configure,
  currentSettings,
  inScope,
  namedInstanceFor,
  operationsCenter,
  resetProviderState,
  resolveConnection,
  SettingError,
} from "../../provider/config";

// How `cloudbees:connections` is read: the parsing and precedence rules of provider/config/connections.ts.
const OC = "https://ci.example.com/cjoc/";
const PROD = "https://prod.example.com/cjoc/";
const ENV = { CLOUDBEES_API_TOKEN: "env-token", CLOUDBEES_TIMEOUT_MS: "2500" };

afterEach(async () => {
  await resetProviderState();
});

const thrown = (f: () => unknown): Error => {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error("did not throw");
};

describe("cloudbees:connections", () => {
  it("the default connection is the top-level keys with the environment as fallback; connections.default adds to them", () => {
    const config = { operationsCenterUrl: OC, username: "admin", connections: { default: { username: "other", instances: { a: { url: "https://a/" } } } } };
    const s = resolveConnection(config, "default", ENV);
    expect(s).toMatchObject({ connection: "default", operationsCenterUrl: OC, username: "other", apiToken: "env-token", http: { timeoutMs: 2500 } });
    expect(Object.keys(s.instances)).toEqual(["a"]);
  });

  it("a named connection reads its own keys only, from an object or its JSON text (the engine sends either)", () => {
    const prod = { operationsCenterUrl: PROD, username: "prod-admin", apiToken: "prod-token", maxRetries: 0 };
    for (const connections of [{ prod }, JSON.stringify({ prod })]) {
      const s = resolveConnection({ operationsCenterUrl: OC, apiToken: "top-token", connections }, "prod", ENV);
      expect(s).toMatchObject({ connection: "prod", operationsCenterUrl: PROD, username: "prod-admin", apiToken: "prod-token", http: { maxRetries: 0 } });
      expect(s.http.timeoutMs).toBeUndefined();
    }
    // Nothing leaks in from the top level or the environment.
    const partial = resolveConnection({ apiToken: "top-token", connections: { prod: { operationsCenterUrl: PROD } } }, "prod", ENV);
    expect(partial.apiToken).toBeUndefined();
  });

  it("overrides (the functions' settings option) win over the connection's values", () => {
    const s = resolveConnection({ connections: { prod: { operationsCenterUrl: PROD, username: "a" } } }, "prod", {}, { username: "b" });
    expect(s).toMatchObject({ operationsCenterUrl: PROD, username: "b" });
  });

  it.each([
    ["[1,2]", /^invalid setting cloudbees:connections: expected an object of named connections/],
    [{ "prod.eu": {} }, /^invalid setting cloudbees:connections\.prod\.eu: "prod\.eu" is not a usable connection name/],
    [{ prod: { apitoken: "x" } }, /^invalid setting cloudbees:connections\.prod\.apitoken: unknown key; a connection has operationsCenterUrl, username, apiToken/],
    [{ prod: { timeoutMs: "soon" } }, /^invalid setting cloudbees:connections\.prod\.timeoutMs: expected a whole number >= 1, got "soon"\. Fix: pulumi config set --path 'cloudbees:connections\.prod\.timeoutMs' 30000$/],
  ])("refuses an unusable entry, naming its key and the fix: %j", (connections, message) => {
    expect(() => resolveConnection({ connections }, "prod", {})).toThrow(message);
  });

  it("a missing key of a named connection names its --path key and command", async () => {
    await configure({ config: { get: (k: string) => (k === "cloudbees:connections" ? { prod: { operationsCenterUrl: PROD } } : undefined) } });
    const error = thrown(() => inScope({ connection: "prod" }, () => operationsCenter())) as SettingError;
    expect(error).toBeInstanceOf(SettingError);
    expect(error.message).toBe(
      "missing settings cloudbees:connections.prod.username, cloudbees:connections.prod.apiToken, needed to manage CasC bundles on the operations center. Set them with:\n" +
        "  cloudbees:connections.prod.username (operations-center user, an administrator): pulumi config set --path 'cloudbees:connections.prod.username' <admin-user>\n" +
        "  cloudbees:connections.prod.apiToken (API token of that user): pulumi config set --secret --path 'cloudbees:connections.prod.apiToken' <token>",
    );
  });

  it("an instance takes its own username and token where it has them, the connection's otherwise; clients are per credentials", async () => {
    const connections = {
      prod: {
        operationsCenterUrl: PROD,
        username: "admin",
        apiToken: "prod-token",
        instances: { a: { url: "https://prod.example.com/a/", apiToken: "a-token" }, b: { url: "https://prod.example.com/b/" }, c: {} },
      },
    };
    await configure({ config: { get: (k: string) => (k === "cloudbees:connections" ? connections : undefined) } });
    await inScope({ connection: "prod" }, async () => {
      const s = currentSettings();
      const a = namedInstanceFor(s, "a");
      const b = namedInstanceFor(s, "b");
      expect(a).toMatchObject({ url: "https://prod.example.com/a/", username: "admin", connection: "prod" });
      expect(a.credentials.apiToken).toEqual({
        key: "cloudbees:connections.prod.instances.a.apiToken",
        command: "pulumi config set --secret --path 'cloudbees:connections.prod.instances.a.apiToken' <token>",
      });
      expect(b.credentials.apiToken.key).toBe("cloudbees:connections.prod.apiToken");
      expect(a.client).not.toBe(b.client);
      expect(() => namedInstanceFor(s, "c")).toThrow(
        "missing setting cloudbees:connections.prod.instances.c.url (base URL of the instance, with its prefix). Set it with:\n" +
          "  pulumi config set --path 'cloudbees:connections.prod.instances.c.url' https://ci.example.com/team-a/",
      );
    });
    await closeClients();
  });
});
