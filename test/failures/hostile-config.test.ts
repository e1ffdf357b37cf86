/**
 * Issue 19, findings 5 (config), 7 and 8, through the real provider host: a colleague's typo in the stack config
 * fails naming the setting, never quoting a credential, never blaming the network.
 */
import { adminConfig, TYPES } from "../resources/helpers";
import { ProviderHostError } from "../harness";
import { startActionWorld, type ActionWorld } from "../actions/helpers";
import { resolveConnection } from "../../provider/config";

const OC_TOKEN = "oc-token-3b9e1d77";
const FM_TOKEN = "fm-token-\r\nX-Injected: 1";
let w: ActionWorld;
beforeAll(async () => {
  w = await startActionWorld({
    config: (emu) => ({
      ...adminConfig(emu),
      // A port out of range: the URL does not parse, and it carries credentials.
      "cloudbees:operationsCenterUrl": `http://admin:${OC_TOKEN}@127.0.0.1:99999/cjoc/`,
      "cloudbees:featureManagementToken": FM_TOKEN,
    }),
  });
});
afterAll(async () => {
  await w?.close();
});

const failure = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e as ProviderHostError);

describe("finding 7: URLs are quoted without their user-info and query", () => {
  it("an operations-center URL that does not parse is quoted without its credentials", async () => {
    const r = w.lc.resource(TYPES.bundleAvailability, "bad-url", w.texts.bundleAvailability, { bundleId: "team-a", regex: "sandbox" });
    const error = await failure(r.up());
    expect(error).toBeInstanceOf(ProviderHostError);
    expect(error!.message).toMatch(/cloudbees:operationsCenterUrl/);
    expect(error!.message).toContain("http://127.0.0.1:99999/cjoc/");
    expect(error!.message).not.toContain(OC_TOKEN);
  });

  it("an instanceUrl with a query is quoted without it", async () => {
    const { failures } = await w.host.check("urn:pulumi:stack::project::pulumi-nodejs:dynamic:Resource$cloudbees:Items::q", {}, {
      yaml: "items: []\n",
      instanceUrl: "http://127.0.0.1:1/team-a/?token=query-secret-81f2",
      __provider: w.actionTexts.items,
    });
    // No property: the engine would print its value (issueCheckFailures); the reason names the input.
    expect(failures).toEqual([{ property: "", reason: expect.stringMatching(/^instanceUrl .*must not have a query or fragment/) }]);
    expect(JSON.stringify(failures)).not.toContain("query-secret-81f2");
  });
});

describe("finding 8: a token a header cannot carry", () => {
  it("fails naming cloudbees:featureManagementToken, not the network", async () => {
    const r = w.lc.resource(TYPES.application, "bad-token", w.texts.application, { name: "bad-token" });
    const error = await failure(r.up());
    expect(error).toBeInstanceOf(ProviderHostError);
    expect(error!.message).toMatch(/invalid setting cloudbees:featureManagementToken: .*control character/);
    expect(error!.message).not.toMatch(/network/);
    expect(w.emu.journal.entries().filter((e) => e.path.startsWith("/feature-management"))).toEqual([]);
  });
});

describe("finding 5: cloudbees:connections nested deep", () => {
  it("is a setting error naming the key and the depth bound, not a bare stack overflow", () => {
    const deep = `{"prod":{"instances":${'{"a":'.repeat(20_000)}1${"}".repeat(20_000)}}}`;
    expect(() => resolveConnection({ connections: deep }, "prod")).toThrow(/invalid setting cloudbees:connections: .*nested deeper than 64 levels/);
  });
});
