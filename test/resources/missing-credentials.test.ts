/* istanbul ignore file */
import { ProviderHostError } from "../harness";
import { KINDS, startWorld, TYPES, type World } from "./helpers";
import type { ResourceKind } from "../../provider/resources";

// A stack with no cloudbees:* config and no CLOUDBEES_* variables: check passes (it needs no credentials), and the
// first call that needs the service fails with the exact command to run, before any request.
let w: World;
beforeAll(async () => {
  w = await startWorld({ config: () => ({}) });
});
afterAll(async () => {
  await w?.close();
});

const INPUTS: Record<ResourceKind, Record<string, unknown>> = {
  application: { name: "web-shop" },
  bundleAvailability: { bundleId: "team-b", controllers: ["sandbox"] },
  controllerBundleAssignment: { controllerPath: "sandbox", bundleId: "team-b" },
  defaultBundle: { bundleId: "team-b" },
  globalAvailabilityPattern: { visibility: true },
};

describe("missing credentials", () => {
  it.each(KINDS.filter((k) => k !== "application"))("%s fails at create with the pulumi config set commands, sending nothing", async (kind) => {
    const r = w.lc.resource(TYPES[kind], kind, w.texts[kind], INPUTS[kind]);
    const error = (await r.up().catch((e: unknown) => e)) as ProviderHostError;
    expect(error).toBeInstanceOf(ProviderHostError);
    const message = error.details;
    expect(message).toMatch(/^creating \w+ \([^)]+\): missing settings cloudbees:operationsCenterUrl, cloudbees:username, cloudbees:apiToken/);
    expect(message).toContain("pulumi config set cloudbees:operationsCenterUrl https://ci.example.com/cjoc/ (or the environment variable CLOUDBEES_OPERATIONS_CENTER_URL)");
    expect(message).toContain("pulumi config set cloudbees:username <admin-user>");
    expect(message).toContain("pulumi config set --secret cloudbees:apiToken <token> (or the environment variable CLOUDBEES_API_TOKEN)");
    expect(r.state).toBeUndefined();
    expect(w.emu.journal.entries()).toEqual([]);
  });

  it("Application fails at create with the command for the feature-flag token, sending nothing", async () => {
    const r = w.lc.resource(TYPES.application, "app", w.texts.application, INPUTS.application);
    const error = (await r.up().catch((e: unknown) => e)) as ProviderHostError;
    expect(error.details).toMatch(/^creating Application "web-shop": missing setting cloudbees:featureManagementToken/);
    expect(error.details).toContain(
      "pulumi config set --secret cloudbees:featureManagementToken <token> (or the environment variable CLOUDBEES_FEATURE_MANAGEMENT_TOKEN)",
    );
    expect(w.emu.journal.entries()).toEqual([]);
    expect(w.emu.state.applications("acme")).toEqual([]);
  });

  it("a refresh fails the same way (it never drops resources it cannot see)", async () => {
    const error = (await w.host
      .read("default-bundle", "urn:pulumi:stack::project::" + TYPES.defaultBundle + "::d", { bundleId: "team-b", preselectedFor: [], __provider: w.texts.defaultBundle })
      .catch((e: unknown) => e)) as ProviderHostError;
    expect(error).toBeInstanceOf(ProviderHostError);
    expect(error.details).toMatch(/^reading DefaultBundle \(default-bundle\): missing settings/);
  });
});
