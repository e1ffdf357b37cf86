/* istanbul ignore file */
import type { FeatureFlagKind } from "../../provider/resources";
import { ProviderHostError } from "../harness";
import { FF_KINDS, startFlagWorld, type FlagWorld } from "./feature-flag-helpers";

// No cloudbees:* config and no CLOUDBEES_* variables: check passes, and the first call fails with the exact command
// to run for the feature-flag token, before any request.
let w: FlagWorld;
beforeAll(async () => {
  w = await startFlagWorld({ config: () => ({}) });
});
afterAll(async () => {
  await w?.close();
});

const APP = "5f1e2d3c4b5a69788796a5b4";
const INPUTS: Record<FeatureFlagKind, Record<string, unknown>> = {
  environment: { applicationId: APP, name: "Staging" },
  flag: { applicationId: APP, name: "checkout.newFlow" },
  flagConfiguration: { applicationId: APP, environment: "Production", flag: "checkout.newFlow", value: true },
  targetGroup: { applicationId: APP, name: "beta", conditions: [{ property: "beta", operator: "is-true" }] },
  teamMember: { email: "alice@example.com", applications: { [APP]: { environments: { Production: "read" } } } },
};

it.each(FF_KINDS)("%s fails at create with the command for the feature-flag token, sending nothing", async (kind) => {
  const error = (await w.ff(kind, kind, INPUTS[kind]).up().catch((e: unknown) => e)) as ProviderHostError;
  expect(error).toBeInstanceOf(ProviderHostError);
  expect(error.details).toMatch(/^creating \w+( "[^"]+")?( in "Production")?: missing setting cloudbees:featureManagementToken/);
  expect(error.details).toContain("pulumi config set --secret cloudbees:featureManagementToken <token> (or the environment variable CLOUDBEES_FEATURE_MANAGEMENT_TOKEN)");
  expect(w.emu.journal.entries()).toEqual([]);
});
