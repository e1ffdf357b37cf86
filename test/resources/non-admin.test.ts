/* istanbul ignore file */
import { ProviderHostError } from "../harness";
import { cascSnapshot, startWorld, TYPES, type World } from "./helpers";

// Credentials from environment variables only (the fallback of stack config), of a user who is not an
// administrator: every CasC call gets 403, and the error says which setting to change, and how.
let w: World;
beforeAll(async () => {
  w = await startWorld({
    config: () => ({}),
    env: (emu) => ({
      CLOUDBEES_OPERATIONS_CENTER_URL: emu.operationsCenterUrl,
      CLOUDBEES_USERNAME: emu.credentials.nonAdmin.username,
      CLOUDBEES_API_TOKEN: emu.credentials.nonAdmin.apiToken,
      CLOUDBEES_MAX_RETRIES: "0",
      CLOUDBEES_FEATURE_MANAGEMENT_URL: emu.featureManagementUrl,
      CLOUDBEES_FEATURE_MANAGEMENT_TOKEN: "revoked-token-0000",
    }),
  });
});
afterAll(async () => {
  await w?.close();
});

const cases: Array<[keyof typeof TYPES, Record<string, unknown>]> = [
  ["bundleAvailability", { bundleId: "team-b", controllers: ["sandbox"] }],
  ["controllerBundleAssignment", { controllerPath: "team-a/controller-a", bundleId: "team-a" }],
  ["defaultBundle", { bundleId: "team-b" }],
  ["globalAvailabilityPattern", { visibility: true }],
];

describe("a user without administrator permission", () => {
  it.each(cases)("%s fails at its first call, naming cloudbees:username and the fix; nothing changes", async (kind, inputs) => {
    const before = await cascSnapshot(w);
    const r = w.lc.resource(TYPES[kind], kind, w.texts[kind], inputs);
    const error = (await r.up().catch((e: unknown) => e)) as ProviderHostError;
    expect(error).toBeInstanceOf(ProviderHostError);
    expect(error.details).toMatch(
      /^creating \w+ \([^)]+\): the operations-center user "developer" \(cloudbees:username\) is not allowed to use the CasC API at http:\/\/127\.0\.0\.1:\d+\/cjoc\/ \(403: it requires Overall\/Administer\)\. Fix: use an administrator/,
    );
    expect(error.details).toContain("pulumi config set --secret cloudbees:apiToken <token>");
    expect(error.details).not.toContain(w.emu.credentials.nonAdmin.apiToken);
    expect(r.state).toBeUndefined();
    expect(await cascSnapshot(w)).toEqual(before);
  });

  it("a feature-flag token the service refuses: Application names cloudbees:featureManagementToken and the command", async () => {
    const r = w.lc.resource(TYPES.application, "app", w.texts.application, { name: "web-shop" });
    const error = (await r.up().catch((e: unknown) => e)) as ProviderHostError;
    expect(error.details).toMatch(
      /^creating Application "web-shop": the feature-flag service refused the API token \(401; generating a new token revokes the old one\)\. Fix: pulumi config set --secret cloudbees:featureManagementToken <token>/,
    );
    expect(error.details).not.toContain("revoked-token-0000");
    expect(w.emu.state.applications("acme")).toEqual([]);
  });

  it("the credentials came from the environment: the requests carried them", () => {
    const sent = w.emu.journal.entries().filter((e) => e.path.startsWith("/cjoc/casc-bundle/set"));
    expect(sent.length).toBeGreaterThan(0);
    const basic = `Basic ${Buffer.from(`developer:${w.emu.credentials.nonAdmin.apiToken}`).toString("base64")}`;
    expect(sent.every((e) => e.headers.authorization === basic && e.status === 403)).toBe(true);
  });
});
