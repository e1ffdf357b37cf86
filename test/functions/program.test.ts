import * as pulumi from "@pulumi/pulumi";
import { startEmulator, type Emulator } from "../../emulator";
import { OperationsCenterClient } from "../../provider";
import { closeClients, getApplications, getBundles, getControllerBundleLink, getUpdateLog, SettingError } from "../../sdk";
import { basicOf, isolateEnvironment, requests, valueOf } from "./helpers";

// Inside a Pulumi program (the stack config a `pulumi config set` would give, as the language host sets it): the
// functions read `cloudbees:*` from the stack config, secrets included, with the environment as fallback. Not under
// `setMocks`: there the functions answer from the mocks' `call` (mocks.test.ts).

let emu: Emulator;
const CONTROLLER = "team-b/controller-b";
const setEnv = isolateEnvironment();
const SECRET_KEYS = ["cloudbees:apiToken", "cloudbees:featureManagementToken"];

function stackConfig(overrides: Record<string, string | undefined> = {}): void {
  const config: Record<string, string | undefined> = {
    "cloudbees:operationsCenterUrl": emu.operationsCenterUrl,
    "cloudbees:username": emu.credentials.admin.username,
    "cloudbees:apiToken": emu.credentials.admin.apiToken,
    "cloudbees:featureManagementUrl": emu.featureManagementUrl,
    "cloudbees:featureManagementToken": emu.credentials.featureManagementToken,
    "cloudbees:maxRetries": "0",
    "other:apiToken": "not-ours",
    ...overrides,
  };
  const defined = Object.fromEntries(Object.entries(config).filter(([, v]) => v !== undefined)) as Record<string, string>;
  pulumi.runtime.setAllConfig(defined, SECRET_KEYS);
}

beforeAll(async () => {
  emu = await startEmulator();
  // team-b has no pattern: make it available to its controller, then assign it, so that the controller has a link.
  const oc = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...emu.credentials.admin });
  await oc.setAvailabilityPattern("team-b", "team-b/.*");
  await oc.setControllerToBundle("team-b", CONTROLLER);
  await oc.close();

  stackConfig();
});
afterAll(async () => {
  await closeClients();
  await emu.close();
});
beforeEach(() => {
  emu.journal.clear();
  stackConfig();
});

const last = () => emu.journal.entries().at(-1)!;

it("reads the stack config, secret token included, with no environment variable set", async () => {
  const bundles = await getBundles();
  expect(bundles.map((b) => b.name).sort()).toEqual(emu.state.bundles().sort());
  expect(requests(emu.journal.entries())).toEqual(["GET /cjoc/casc-bundle/list"]);
  expect(last().headers.authorization).toBe(basicOf(emu.credentials.admin.username, emu.credentials.admin.apiToken));
});

it("stack config wins over the environment; the environment fills what the stack config lacks; options win over both", async () => {
  setEnv({ CLOUDBEES_USERNAME: emu.credentials.nonAdmin.username, CLOUDBEES_API_TOKEN: emu.credentials.nonAdmin.apiToken });
  await getBundles();
  expect(last().headers.authorization).toBe(basicOf(emu.credentials.admin.username, emu.credentials.admin.apiToken));

  stackConfig({ "cloudbees:featureManagementUrl": undefined, "cloudbees:featureManagementToken": undefined });
  setEnv({ CLOUDBEES_FEATURE_MANAGEMENT_URL: emu.featureManagementUrl, CLOUDBEES_FEATURE_MANAGEMENT_TOKEN: emu.credentials.otherFeatureManagementToken });
  await expect(getApplications()).resolves.toEqual(emu.state.applications("globex"));
  expect(last().headers.authorization).toBe(`Bearer ${emu.credentials.otherFeatureManagementToken}`);

  await getBundles({ settings: { username: emu.credentials.nonAdmin.username, apiToken: emu.credentials.nonAdmin.apiToken } }).catch(() => undefined);
  expect(last().headers.authorization).toBe(basicOf(emu.credentials.nonAdmin.username, emu.credentials.nonAdmin.apiToken));
});

it("getControllerBundleLink returns the token and link file content as secret Outputs", async () => {
  const token = emu.state.controllerToken(CONTROLLER);
  const link = await getControllerBundleLink(CONTROLLER);
  expect([last().method, last().path, last().query]).toEqual(["GET", "/cjoc/config-bundle-download-link", { id: CONTROLLER }]);
  expect(link.url).toBe(`${emu.operationsCenterUrl}config-bundle/team-b`);
  expect(pulumi.Output.isInstance(link.token)).toBe(true);
  expect(await pulumi.isSecret(link.token)).toBe(true);
  expect(await pulumi.isSecret(link.linkFileContent)).toBe(true);
  expect(await valueOf(link.token)).toBe(token);
  expect(await valueOf(link.linkFileContent)).toBe(`${link.url}\n${token}`);

  // The whole result lifted into one Output (e.g. a stack output) stays secret, and so does anything derived from it.
  const whole = pulumi.output(getControllerBundleLink(CONTROLLER));
  expect(await pulumi.isSecret(whole)).toBe(true);
  expect(await pulumi.isSecret(link.token.apply((t) => t.length))).toBe(true);
});

it("a missing setting fails before any request with the exact pulumi config set command", async () => {
  stackConfig({ "cloudbees:apiToken": undefined });
  const error = await getBundles().catch((e) => e);
  expect(error).toBeInstanceOf(SettingError);
  expect(error.settings).toEqual(["apiToken"]);
  expect(error.message).toBe(
    "getBundles(): missing setting cloudbees:apiToken, needed to manage CasC bundles on the operations center. Set it with:\n" +
      "  cloudbees:apiToken (API token of that user): pulumi config set --secret cloudbees:apiToken <token> (or the environment variable CLOUDBEES_API_TOKEN)",
  );
  await expect(getUpdateLog({ instanceUrl: emu.controllerUrls[CONTROLLER] })).rejects.toThrow(
    /^getUpdateLog\(instanceUrl: ".*"\): missing setting cloudbees:apiToken, needed to call the CasC API of .*\n {2}cloudbees:apiToken \(API token of that user\): pulumi config set --secret cloudbees:apiToken <token>/,
  );
  expect(emu.journal.entries()).toHaveLength(0);
});

it("an unusable stack config value names the key and the command", async () => {
  stackConfig({ "cloudbees:insecureSkipTlsVerify": "yes" });
  await expect(getBundles()).rejects.toThrow(
    'getBundles(): invalid setting cloudbees:insecureSkipTlsVerify: expected true or false, got "yes". Fix: pulumi config set cloudbees:insecureSkipTlsVerify true (or the environment variable CLOUDBEES_INSECURE_SKIP_TLS_VERIFY)',
  );
  expect(emu.journal.entries()).toHaveLength(0);
});

it("connection reads cloudbees:connections (the JSON text `pulumi config set --path` builds), and instance its named instance", async () => {
  const { nonAdmin } = emu.credentials;
  stackConfig({
    "cloudbees:connections": JSON.stringify({
      prod: {
        operationsCenterUrl: emu.operationsCenterUrl,
        username: emu.credentials.admin.username,
        apiToken: emu.credentials.admin.apiToken,
        instances: { b: { url: emu.controllerUrls[CONTROLLER], username: nonAdmin.username, apiToken: nonAdmin.apiToken } },
      },
    }),
    // The default connection has no token: only the named connection can work.
    "cloudbees:apiToken": undefined,
  });
  await getBundles({ connection: "prod" });
  expect(last().headers.authorization).toBe(basicOf(emu.credentials.admin.username, emu.credentials.admin.apiToken));
  // The instance's own user (here one the emulator refuses with 403: what counts is whose credentials were sent).
  await getUpdateLog({ connection: "prod", instance: "b" }).catch(() => undefined);
  expect([last().path, last().headers.authorization]).toEqual([
    `/controllers/${CONTROLLER}/casc-bundle-mgnt/casc-bundle-update-log`,
    basicOf(nonAdmin.username, nonAdmin.apiToken),
  ]);
  await expect(getUpdateLog({ connection: "prod", instance: "b", instanceUrl: emu.controllerUrls[CONTROLLER] })).rejects.toThrow(
    /give either instance .* or instanceUrl, not both/,
  );
  await expect(getBundles({ connection: "qa" })).rejects.toThrow(/^getBundles\(\): connection "qa" is not configured: cloudbees:connections has no "qa" \(connections: default, prod\)/);
});
