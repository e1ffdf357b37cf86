import { InvalidInputError } from "../../provider";
import { closeClients, configure, instanceFor, operationsCenter, operationsCenterFor, providerState, resetProviderState, resolveSettings } from "../../provider/config";

// What the functions added to provider/config, checked without a server: the resources' own behaviour is
// covered by test/resources/config.test.ts.

const OC = "https://ci.example.com/cjoc/";
const settings = (values: Record<string, unknown>) => resolveSettings(values, {});

afterEach(async () => {
  await resetProviderState();
});

it("operationsCenterFor shares the cache operationsCenter() uses", async () => {
  await configure({ config: { get: (k: string) => ({ "cloudbees:operationsCenterUrl": OC, "cloudbees:username": "a", "cloudbees:apiToken": "t" })[k] } });
  const fromConfigure = operationsCenter();
  expect(operationsCenterFor(settings({ operationsCenterUrl: OC, username: "a", apiToken: "t" })).client).toBe(fromConfigure.client);
  expect(() => operationsCenterFor(settings({ operationsCenterUrl: OC }), "to read bundles")).toThrow(
    /^missing settings cloudbees:username, cloudbees:apiToken, needed to read bundles\. Set them with:/,
  );
});

it("instanceFor keeps one client per URL and settings, and names the argument of a URL it refuses", () => {
  const s = settings({ username: "a", apiToken: "t" });
  const a = instanceFor(s, "https://ci.example.com/team-a/");
  expect(instanceFor(s, "https://ci.example.com/team-a/").client).toBe(a.client);
  expect(instanceFor(s, "https://ci.example.com/team-b/").client).not.toBe(a.client);
  expect(a).toMatchObject({ url: "https://ci.example.com/team-a/", username: "a" });

  const error = (() => {
    try {
      instanceFor(s, "http://ci.example.com/team-a/", { operation: "getUpdateLog()" });
    } catch (e) {
      return e as InvalidInputError;
    }
  })()!;
  expect(error).toBeInstanceOf(InvalidInputError);
  expect(error.input).toBe("instanceUrl");
  expect(error.message).toMatch(/^getUpdateLog\(\): invalid instanceUrl: plain http to ci\.example\.com would send credentials in clear.*cloudbees:allowInsecureHttp/);
});

it("closeClients closes and forgets every client, and keeps the stack config", async () => {
  await configure({ config: { get: (k: string) => (k === "cloudbees:username" ? "a" : undefined) } });
  const s = settings({ operationsCenterUrl: OC, username: "a", apiToken: "t" });
  operationsCenterFor(s);
  instanceFor(s, "https://ci.example.com/team-a/");
  await closeClients();
  expect(providerState().operationsCenterClients.size).toBe(0);
  expect(providerState().instanceClients!.size).toBe(0);
  expect(providerState().stackConfig).toEqual({ username: "a" });
});
