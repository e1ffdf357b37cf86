/* istanbul ignore file */
import { resources } from "../../provider/resources";
import { providerState, resetProviderState } from "../../provider/config";
import { ProviderHostError } from "../harness";
import { BLANK_ENV } from "../resources/helpers";
import { cascSnapshot, startActionWorld, type ActionWorld } from "./helpers";

// Credentials of a user who is not an administrator, from environment variables: every CasC call gets 403, and the
// error says which setting to change, and how; nothing changes.
let w: ActionWorld;
beforeAll(async () => {
  w = await startActionWorld({
    config: () => ({}),
    env: (emu) => ({
      CLOUDBEES_OPERATIONS_CENTER_URL: emu.operationsCenterUrl,
      CLOUDBEES_USERNAME: emu.credentials.nonAdmin.username,
      CLOUDBEES_API_TOKEN: emu.credentials.nonAdmin.apiToken,
      CLOUDBEES_MAX_RETRIES: "0",
    }),
  });
  await w.oc.setControllerToBundle("team-a", "team-a/controller-a");
});
afterAll(async () => {
  await w?.close();
});

describe("action resources with a user without administrator permission", () => {
  const controller = () => w.emu.controllerUrls["team-a/controller-a"]!;
  const cases: Array<[Parameters<ActionWorld["action"]>[0], () => Record<string, unknown>, RegExp]> = [
    ["bundleCheckout", () => ({}), /\/cjoc\//],
    ["controllerBundleToken", () => ({ controllerPath: "team-a/controller-a" }), /\/cjoc\//],
    ["bundleReload", () => ({ instanceUrl: controller() }), /\/controllers\/team-a\/controller-a\//],
    ["items", () => ({ yaml: "items: []\n", instanceUrl: controller() }), /\/controllers\/team-a\/controller-a\//],
    ["bundleValidation", () => ({ bundlePath: "examples/bundles/base" }), /\/cjoc\//],
  ];

  it.each(cases)("%s fails at its first call, naming cloudbees:username and the fix; nothing changes", async (kind, inputs, where) => {
    const before = await cascSnapshot(w);
    const token = w.emu.state.controllerToken("team-a/controller-a");
    const r = w.action(kind, kind, inputs());
    const error = (await r.up().catch((e: unknown) => e)) as ProviderHostError;
    expect(error).toBeInstanceOf(ProviderHostError);
    expect(error.details).toMatch(/^creating \w+ \([^)]+\): the operations-center user "developer" \(cloudbees:username\) is not allowed to use the CasC API at http:\/\/127\.0\.0\.1:\d+\/\S+ \(403: it requires Overall\/Administer\)\. Fix: use an administrator/);
    expect(error.details).toMatch(where);
    expect(error.details).toContain("pulumi config set --secret cloudbees:apiToken <token>");
    expect(error.details).not.toContain(w.emu.credentials.nonAdmin.apiToken);
    expect(r.state).toBeUndefined();
    expect(await cascSnapshot(w)).toEqual(before);
    expect(w.emu.state.controllerToken("team-a/controller-a")).toBe(token);
    expect(w.emu.state.appliedBundle("team-a/controller-a")).toBeNull();
    expect(w.emu.state.items("team-a/controller-a")).toEqual([]);
  });
});

describe("missing settings fail before any request, with the commands that set them", () => {
  const saved = { ...process.env };
  beforeAll(async () => {
    await resetProviderState();
    Object.assign(process.env, BLANK_ENV);
    providerState().stackConfig = {};
  });
  afterAll(async () => {
    await resetProviderState();
    for (const k of Object.keys(BLANK_ENV)) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });

  it("on the operations center: the URL, the user and the token", async () => {
    const error = (await resources.bundleCheckout.create({}).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/^creating BundleCheckout \(bundle-checkout\): missing settings cloudbees:operationsCenterUrl, cloudbees:username, cloudbees:apiToken/);
    expect(error.message).toContain("pulumi config set --secret cloudbees:apiToken <token>");
  });

  it("on a controller: only the user and the token (no operations center needed)", async () => {
    const error = (await resources.bundleReload.create({ instanceUrl: "https://ci.example.com/team-a/" }).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/^creating BundleReload \(bundle-reload\/https:\/\/ci\.example\.com\/team-a\/\): missing settings cloudbees:username, cloudbees:apiToken, needed to call the CasC API of https:\/\/ci\.example\.com\/team-a\//);
  });

  it("plain http to a remote instance is refused naming instanceUrl and the setting that allows it", async () => {
    providerState().stackConfig = { username: "admin", apiToken: "t" };
    const error = (await resources.items.create({ yaml: "items: []\n", instanceUrl: "http://ci.example.com/team-a/" }).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/^creating Items \(items\/http:\/\/ci\.example\.com\/team-a\/\): instanceUrl "http:\/\/ci\.example\.com\/team-a\/" cannot be used: plain http .*set cloudbees:allowInsecureHttp to true/);
  });
});
