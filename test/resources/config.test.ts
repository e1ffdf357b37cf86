import * as path from "node:path";
import { configure, featureManagement, operationsCenter, providerState, resetProviderState, resolveSettings, SettingError } from "../../provider/config";
import { bundleListOf } from "../../provider/resources/shared/bundle-list-cache";

const CERT = path.resolve(__dirname, "..", "fixtures", "tls", "cert.pem");
const OC = "https://ci.example.com/cjoc/";
const config = (values: Record<string, unknown>) => ({ config: { get: (key: string) => values[key] } });

afterEach(async () => {
  await resetProviderState();
});

describe("settings: stack config first, then environment variables", () => {
  it("prefers stack config, falls back to the environment, and takes empty values as unset", () => {
    const s = resolveSettings(
      { operationsCenterUrl: OC, username: "" },
      { CLOUDBEES_OPERATIONS_CENTER_URL: "https://other/", CLOUDBEES_USERNAME: "env-user", CLOUDBEES_API_TOKEN: "" },
    );
    expect(s).toMatchObject({ operationsCenterUrl: OC, username: "env-user" });
    expect(s.apiToken).toBeUndefined();
  });

  it("parses the HTTP options, from typed config or text", () => {
    expect(resolveSettings({ insecureSkipTlsVerify: true, timeoutMs: 1500, maxRetries: "0", allowInsecureHttp: "TRUE" }, {}).http).toEqual({
      insecureSkipTlsVerify: true,
      timeoutMs: 1500,
      maxRetries: 0,
      allowInsecureHttp: true,
    });
    expect(resolveSettings({}, { CLOUDBEES_TIMEOUT_MS: "2500", CLOUDBEES_INSECURE_SKIP_TLS_VERIFY: "false" }).http).toEqual({
      timeoutMs: 2500,
      insecureSkipTlsVerify: false,
    });
  });

  it("reads the CA certificate as PEM text or from a file", () => {
    const fromFile = resolveSettings({ caCertificate: CERT }, {}).http.caCertificate!;
    expect(fromFile).toContain("-----BEGIN CERTIFICATE-----");
    expect(resolveSettings({}, { CLOUDBEES_CA_CERTIFICATE: fromFile }).http.caCertificate).toBe(fromFile.trim());
  });

  it.each([
    [{ timeoutMs: "soon" }, /invalid setting cloudbees:timeoutMs: expected a whole number >= 1, got "soon"\. Fix: pulumi config set cloudbees:timeoutMs 30000 \(or the environment variable CLOUDBEES_TIMEOUT_MS\)/],
    [{ maxRetries: -1 }, /cloudbees:maxRetries: expected a whole number >= 0/],
    [{ insecureSkipTlsVerify: "yes" }, /cloudbees:insecureSkipTlsVerify: expected true or false, got "yes"/],
    [{ caCertificate: "/no/such/ca.pem" }, /cloudbees:caCertificate: "\/no\/such\/ca\.pem" is neither PEM text nor a readable file \(ENOENT\)/],
  ])("refuses an unusable value, naming the key and the command: %j", (values, message) => {
    expect(() => resolveSettings(values, {})).toThrow(message);
  });
});

describe("clients from configure()", () => {
  it("configure keeps the stack's cloudbees:* config for the process (on globalThis, not in the module)", async () => {
    await configure(config({ "cloudbees:operationsCenterUrl": OC, "cloudbees:username": "admin", "other:key": "x" }));
    expect(providerState().stackConfig).toEqual({ operationsCenterUrl: OC, username: "admin" });
    expect((globalThis as Record<symbol, unknown>)[Symbol.for("pulumi-cloudbees.provider-state")]).toBe(providerState());
  });

  it("a missing token names only what is missing, with the command", async () => {
    await configure(config({ "cloudbees:operationsCenterUrl": OC, "cloudbees:username": "admin" }));
    const saved = process.env.CLOUDBEES_API_TOKEN;
    delete process.env.CLOUDBEES_API_TOKEN;
    try {
      const error = (() => {
        try {
          operationsCenter();
        } catch (e) {
          return e as SettingError;
        }
      })()!;
      expect(error).toBeInstanceOf(SettingError);
      expect(error.settings).toEqual(["apiToken"]);
      expect(error.message).toBe(
        "missing setting cloudbees:apiToken, needed to manage CasC bundles on the operations center. Set it with:\n" +
          "  cloudbees:apiToken (API token of that user): pulumi config set --secret cloudbees:apiToken <token> (or the environment variable CLOUDBEES_API_TOKEN)",
      );
    } finally {
      if (saved !== undefined) process.env.CLOUDBEES_API_TOKEN = saved;
    }
  });

  it("names the key of a URL the client refuses", async () => {
    await configure(config({ "cloudbees:operationsCenterUrl": "http://ci.example.com/cjoc/", "cloudbees:username": "a", "cloudbees:apiToken": "token-1" }));
    expect(() => operationsCenter()).toThrow(
      /^invalid setting cloudbees:operationsCenterUrl: plain http to ci\.example\.com would send credentials in clear.*cloudbees:allowInsecureHttp.*Fix: pulumi config set cloudbees:operationsCenterUrl/,
    );
    await configure(config({ "cloudbees:featureManagementUrl": "not a url", "cloudbees:featureManagementToken": "token-1" }));
    expect(() => featureManagement()).toThrow(/^invalid setting cloudbees:featureManagementUrl: "not a url" is not an absolute URL/);
  });

  it("keeps one client per settings, and one bundle list per operations center and user", async () => {
    await configure(config({ "cloudbees:operationsCenterUrl": OC, "cloudbees:username": "admin", "cloudbees:apiToken": "token-1" }));
    const a = operationsCenter();
    expect(operationsCenter().client).toBe(a.client);
    expect(a).toMatchObject({ url: OC, username: "admin", key: `${OC}\nadmin` });
    await configure(config({ "cloudbees:operationsCenterUrl": OC, "cloudbees:username": "admin", "cloudbees:apiToken": "token-2" }));
    const b = operationsCenter();
    expect(b.client).not.toBe(a.client);
    expect(bundleListOf(b)).toBe(bundleListOf(a));
    // The key of a client never holds the token.
    expect([...providerState().operationsCenterClients.keys()].join()).not.toMatch(/token-/);
  });

  it("keeps one feature-flag client per settings, so its one-request-per-second spacing holds", async () => {
    await configure(config({ "cloudbees:featureManagementToken": "fm-token" }));
    const a = featureManagement();
    expect(a.url).toBe("https://x-api.rollout.io");
    expect(featureManagement().client).toBe(a.client);
  });
});
