/* istanbul ignore file */
import * as pulumi from "@pulumi/pulumi";
import { Environment, Flag, FlagConfiguration, TargetGroup, TeamMember } from "../../sdk";
import { providerShell } from "../../sdk/resources/provider-shell";
import { serializeProviderDetailed } from "../harness";
import { useRecordingMocks } from "../harness/recording-mocks";
import { FF_KINDS, FF_TYPES } from "./feature-flag-helpers";

const TOKEN = "env-fm-token-must-not-leak-77c1";
process.env.CLOUDBEES_FEATURE_MANAGEMENT_TOKEN = TOKEN;

describe("feature-flag provider shells", () => {
  it.each(FF_KINDS)("%s serializes to a small text that requires the implementation by package name", async (kind) => {
    const { text, containsSecrets } = await serializeProviderDetailed(providerShell(kind));
    expect(containsSecrets).toBe(false);
    expect(text.length).toBeLessThan(2500);
    expect(text).toContain('require("pulumi-cloudbees/provider")');
    expect(text).toContain(`kind: "${kind}"`);
    for (const forbidden of [TOKEN, "undici", "zod", "authorization"]) expect(text).not.toContain(forbidden);
  });
});

describe("feature-flag SDK classes under mocks", () => {
  let seen: pulumi.runtime.MockResourceArgs[] = [];
  beforeAll(async () => {
    seen = await useRecordingMocks({ [FF_TYPES.environment]: { key: "0123456789abcdef01234567" } });
  });
  const value = <T>(o: pulumi.Output<T>) => new Promise<T>((resolve) => o.apply(resolve));

  it("register their type tokens, send the inputs under the API's names, and resolve outputs", async () => {
    const env = new Environment("staging", { applicationId: "app1", name: "Staging" });
    const flag = new Flag("flag", { applicationId: "app1", name: "checkout.newFlow", availableValues: [false, true], isPermanent: false });
    const group = new TargetGroup("beta", { applicationId: "app1", name: "beta", operator: "or", conditions: [{ property: "beta", operator: "is-true" }] });
    const config = new FlagConfiguration("cfg", {
      applicationId: "app1",
      environment: env.name,
      flag: flag.name,
      enabled: true,
      value: [{ option: true, percentage: 50 }],
      conditions: [{ group: { name: group.name }, value: true }],
      labels: ["checkout"],
      description: "d",
      stickinessProperty: "userId",
      platforms: [{ name: "Android", value: false }],
    });
    const member = new TeamMember("alice", { email: "alice@example.com", teamAdmin: false, applications: { app1: { environments: { Production: "read" } } } });
    expect(await value(env.key)).toBe("0123456789abcdef01234567");
    expect(await value(member.email)).toBe("alice@example.com");
    expect(await value(config.flag)).toBe("checkout.newFlow");
    const byType = Object.fromEntries(seen.map((a) => [a.type, a]));
    expect(Object.keys(byType[FF_TYPES.environment]!.inputs).sort()).toEqual(["__provider", "applicationId", "name"]);
    expect(Object.keys(byType[FF_TYPES.flag]!.inputs).sort()).toEqual(["__provider", "applicationId", "availableValues", "isPermanent", "name"]);
    expect(Object.keys(byType[FF_TYPES.targetGroup]!.inputs).sort()).toEqual(["__provider", "applicationId", "conditions", "name", "operator"]);
    expect(Object.keys(byType[FF_TYPES.flagConfiguration]!.inputs).sort()).toEqual(
      ["__provider", "applicationId", "conditions", "description", "enabled", "environment", "flag", "labels", "platforms", "stickinessProperty", "value"].sort(),
    );
    expect(Object.keys(byType[FF_TYPES.teamMember]!.inputs).sort()).toEqual(["__provider", "applications", "email", "teamAdmin"]);
    for (const kind of FF_KINDS) expect(byType[FF_TYPES[kind]]!.inputs.__provider).toBe((await serializeProviderDetailed(providerShell(kind))).text);
  });
});
