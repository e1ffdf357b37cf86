/* istanbul ignore file */
/**
 * Named connections through the real provider host: what check, diff and the first call say about them. One
 * emulator suffices here (test/example-promotion.test.ts runs two): the `prod` connection reaches it with the
 * feature-flag token of another account, so each connection's applications land in their own account.
 */
import { CheckFailedError, ProviderHostError, secret } from "../harness";
import { startActionWorld, type ActionWorld } from "../actions/helpers";
import { adminConfig, TYPES } from "./helpers";

let w: ActionWorld;
beforeAll(async () => {
  w = await startActionWorld({
    config: (emu) => ({
      ...adminConfig(emu),
      "cloudbees:connections": secret({
        prod: {
          operationsCenterUrl: emu.operationsCenterUrl,
          username: emu.credentials.admin.username,
          apiToken: emu.credentials.admin.apiToken,
          featureManagementUrl: emu.featureManagementUrl,
          featureManagementToken: emu.credentials.otherFeatureManagementToken,
          maxRetries: 0,
          instances: { sandbox: { url: emu.controllerUrls["sandbox"] } },
        },
        // A connection whose token was never set.
        partial: { operationsCenterUrl: emu.operationsCenterUrl, username: emu.credentials.admin.username },
      }),
    }),
  });
});
afterAll(async () => {
  await w?.close();
});
beforeEach(() => w.emu.journal.clear());

const failureOf = (e: unknown) => (e as CheckFailedError).failures;

describe("connections", () => {
  it("each connection's Application goes to its own feature-flag account; outputs name the connection", async () => {
    const acme = w.lc.resource(TYPES.application, "acme", w.texts.application, { name: "checkout" });
    const globex = w.lc.resource(TYPES.application, "globex", w.texts.application, { name: "checkout", connection: "prod" });
    await acme.up();
    await globex.up();
    expect(w.emu.state.applications("acme").map((a) => a.name)).toEqual(["checkout"]);
    expect(w.emu.state.applications("globex").map((a) => a.name)).toEqual(["checkout"]);
    expect(globex.state!.outputs).toMatchObject({ connection: "prod", name: "checkout" });
    expect(acme.state!.outputs).not.toHaveProperty("connection");
    // Each create lists its account first (to reconcile a lost answer), then creates: all with that account's token.
    expect(w.emu.journal.entries().map((e) => `${e.method} ${e.headers.authorization}`)).toEqual([
      `GET Bearer ${w.emu.credentials.featureManagementToken}`,
      `POST Bearer ${w.emu.credentials.featureManagementToken}`,
      `GET Bearer ${w.emu.credentials.otherFeatureManagementToken}`,
      `POST Bearer ${w.emu.credentials.otherFeatureManagementToken}`,
    ]);
  });

  it("a change of connection replaces the resource; naming the default connection explicitly changes nothing", async () => {
    const r = w.lc.resource(TYPES.globalAvailabilityPattern, "visibility", w.texts.globalAvailabilityPattern, { visibility: false });
    await r.up();
    expect(await r.up({ visibility: false, connection: "default" })).toMatchObject({ op: "same" });
    expect(await r.up({ visibility: false, connection: "prod" })).toMatchObject({ op: "replace", replaces: ["connection"] });
    expect(r.state!.outputs).toMatchObject({ connection: "prod", visibility: false });
  });

  it("errors name the connection after the resource's id", async () => {
    const r = w.lc.resource(TYPES.bundleAvailability, "nope", w.texts.bundleAvailability, { bundleId: "nope", regex: "x", connection: "prod" });
    const error = (await r.up().catch((e: unknown) => e)) as ProviderHostError;
    expect(error).toBeInstanceOf(ProviderHostError);
    expect(error.details).toMatch(/^creating BundleAvailability \(bundle-availability\/nope\) on connection prod: bundleId "nope" names no bundle/);
  });

  it("a missing key of a named connection fails the first call with the pulumi config set --path command, sending nothing", async () => {
    const r = w.lc.resource(TYPES.defaultBundle, "partial", w.texts.defaultBundle, { bundleId: "base", connection: "partial" });
    const error = (await r.up().catch((e: unknown) => e)) as ProviderHostError;
    expect(error.details).toMatch(/^creating DefaultBundle \(default-bundle\) on connection partial: missing setting cloudbees:connections\.partial\.apiToken/);
    expect(error.details).toContain("pulumi config set --secret --path 'cloudbees:connections.partial.apiToken' <token>");
    expect(w.emu.journal.entries()).toEqual([]);
  });

  it("check refuses a connection or instance that is not configured, and instance where it does not apply", async () => {
    const unknown = w.lc.resource(TYPES.defaultBundle, "qa", w.texts.defaultBundle, { bundleId: "base", connection: "qa" });
    const [connection] = failureOf(await unknown.up().catch((e: unknown) => e));
    expect(connection).toMatchObject({ property: "connection" });
    expect(connection!.reason).toMatch(/^connection "qa" is not configured: cloudbees:connections has no "qa" \(connections: default, partial, prod\)/);
    expect(connection!.reason).toContain("pulumi config set --path 'cloudbees:connections.qa.operationsCenterUrl' https://ci.example.com/cjoc/");

    const reload = w.action("bundleReload", "reload", { connection: "prod", instance: "team-z" });
    const [instance] = failureOf(await reload.up().catch((e: unknown) => e));
    expect(instance).toMatchObject({ property: "instance" });
    expect(instance!.reason).toContain(`connection "prod" has no instance "team-z" (instances: sandbox)`);
    expect(instance!.reason).toContain("pulumi config set --path 'cloudbees:connections.prod.instances.team-z.url' https://ci.example.com/team-a/");

    const both = w.action("items", "both", { yaml: "items: []\n", connection: "prod", instance: "sandbox", instanceUrl: w.emu.controllerUrls["sandbox"]! });
    expect(failureOf(await both.up().catch((e: unknown) => e))).toEqual([
      { property: "instance", reason: "give either instance (a name from the connection's instances) or instanceUrl, not both" },
    ]);
    const misplaced = w.lc.resource(TYPES.defaultBundle, "misplaced", w.texts.defaultBundle, { bundleId: "base", instance: "sandbox" });
    expect(failureOf(await misplaced.up().catch((e: unknown) => e))[0]).toMatchObject({ property: "instance" });
    expect(w.emu.journal.entries()).toEqual([]);
  });

  it("an instance-level resource reaches the connection's named instance; its id names it", async () => {
    const r = w.action("items", "sandbox-items", { yaml: 'items:\n  - kind: "folder"\n    name: "from-connection"\n', connection: "prod", instance: "sandbox" });
    await r.up();
    expect(r.state!.id).toBe("items/sandbox");
    expect(r.state!.outputs).toMatchObject({ connection: "prod", instance: "sandbox", basePath: "" });
    expect(w.emu.state.items("sandbox")).toContain("from-connection");
    expect(w.emu.journal.entries().map((e) => e.path)).toEqual(["/controllers/sandbox/casc-items/create-items"]);
  });
});
