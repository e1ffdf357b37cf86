/** The feature-flag policies of the pack (policy/flags.ts), on constructed arguments of both faces. */
import type { PolicyResource } from "@pulumi/policy";
import { flagDescription, flagOnEverywhere, isOnForEveryone, protectedEnvironments, targetGroupsKnown } from "../../policy/flags";
import { resource, runStack, UNKNOWN } from "./run-policy";

const app = resource("Application", "shop", { name: "shop" });

/** A flag configuration whose applicationId comes from `app` (an output: unknown in preview, its source known). */
function configuration(name: string, props: Record<string, unknown>, face: "plugin" | "dynamic" = "plugin"): PolicyResource {
  const r = resource("FlagConfiguration", name, { applicationId: UNKNOWN, description: "why", ...props }, face);
  r.propertyDependencies.applicationId = [app];
  return r;
}

describe("on for everyone", () => {
  it.each([
    [{ enabled: true, value: true }, true],
    [{ enabled: true, value: true, conditions: [] }, true],
    [{ enabled: true, conditions: [{ value: true }] }, true],
    [{ enabled: false, value: true }, false],
    [{ enabled: true, value: false }, false],
    [{ enabled: true, value: [{ option: true, percentage: 50 }] }, false],
    [{ enabled: true, conditions: [{ group: { name: "beta" }, value: true }] }, false],
    [{ enabled: true, value: true, platforms: [{ name: "iOS", value: false }] }, false],
  ])("%j: %s", (props, expected) => expect(isOnForEveryone(props)).toBe(expected));
});

describe("cloudbees-flag-protected-environments", () => {
  it.each(["plugin", "dynamic"] as const)("on for everyone in Production without another environment of the stack is reported (%s)", async (face) => {
    const prod = configuration("prod", { environment: "Production", flag: "checkout", enabled: true, value: true }, face);
    const { violations } = await runStack(protectedEnvironments, [app, prod]);
    expect(violations).toEqual([{ message: expect.stringContaining('turns flag "checkout" on for everyone in protected environment "Production"'), urn: prod.urn }]);
  });

  it("the same flag of the same application configured in Staging lets it through; another application's does not", async () => {
    const prod = configuration("prod", { environment: "Production", flag: "checkout", enabled: true, value: true });
    const staging = configuration("staging", { environment: "Staging", flag: "checkout", enabled: false });
    expect((await runStack(protectedEnvironments, [app, prod, staging])).violations).toEqual([]);
    const other = resource("FlagConfiguration", "other", { applicationId: "another-app", environment: "Staging", flag: "checkout" });
    expect((await runStack(protectedEnvironments, [app, prod, other])).violations).toHaveLength(1);
  });

  it("a narrower Production rule passes; protectedEnvironments moves the protection", async () => {
    const beta = configuration("beta", { environment: "Production", flag: "checkout", enabled: true, conditions: [{ group: { name: "beta" }, value: true }] });
    expect((await runStack(protectedEnvironments, [app, beta])).violations).toEqual([]);
    const live = configuration("live", { environment: "Live", flag: "checkout", enabled: true, value: true });
    expect((await runStack(protectedEnvironments, [app, live])).violations).toEqual([]);
    expect((await runStack(protectedEnvironments, [app, live], { protectedEnvironments: ["Live"] })).violations).toHaveLength(1);
  });

  it("a value unknown in preview is said once, naming the resources", async () => {
    const a = configuration("a", { environment: "Production", flag: "checkout", enabled: UNKNOWN });
    const b = configuration("b", { environment: UNKNOWN, flag: "checkout" });
    const { violations, unseen } = await runStack(protectedEnvironments, [app, a, b]);
    expect(violations).toEqual([]);
    expect(unseen).toMatch(/of FlagConfiguration "a", .* of FlagConfiguration "b"/);
  });
});

describe("cloudbees-flag-target-groups", () => {
  it("a group the stack declares (or reads) passes; an unknown one is reported with the fix", async () => {
    const group = resource("TargetGroup", "beta", { applicationId: "app", name: "beta-testers" }, "dynamic");
    const ok = configuration("ok", { environment: "Staging", flag: "f", conditions: [{ group: { name: ["beta-testers"] }, value: true }] });
    const ghost = configuration("ghost", { environment: "Staging", flag: "f", platforms: [{ name: "iOS", conditions: [{ group: { name: "ghosts" } }] }] });
    const { violations } = await runStack(targetGroupsKnown, [app, group, ok, ghost]);
    expect(violations).toEqual([{ message: expect.stringContaining('names target group "ghosts", which the stack neither declares nor reads'), urn: ghost.urn }]);
  });

  it("externalGroups lists the groups managed elsewhere", async () => {
    const ghost = configuration("ghost", { environment: "Staging", flag: "f", conditions: [{ group: { name: "ghosts" } }] });
    expect((await runStack(targetGroupsKnown, [app, ghost], { externalGroups: ["ghosts"] })).violations).toEqual([]);
  });

  it("a group name unknown in preview (an output of the stack's TargetGroup) is said once", async () => {
    const group = resource("TargetGroup", "beta", { applicationId: "app", name: UNKNOWN });
    const uses = configuration("uses", { environment: "Staging", flag: "f", conditions: [{ group: { name: UNKNOWN } }] });
    const { violations, unseen } = await runStack(targetGroupsKnown, [app, group, uses]);
    expect(violations).toEqual([]);
    expect(unseen).toContain('name of TargetGroup "beta"');
  });
});

describe("hygiene", () => {
  it("cloudbees-flag-description: a configuration without a description is reported", async () => {
    const none = configuration("none", { environment: "Staging", flag: "f", description: undefined });
    const blank = configuration("blank", { environment: "Staging", flag: "f", description: "  " });
    const { violations } = await runStack(flagDescription, [app, none, blank, configuration("ok", { environment: "Staging", flag: "f" })]);
    expect(violations.map((v) => v.urn)).toEqual([none.urn, blank.urn]);
    expect(violations[0]!.message).toContain("say what the flag is for");
  });

  it("cloudbees-flag-on-everywhere: on for everyone in every environment of the stack is reported once", async () => {
    const on = (env: string) => configuration(`old-${env}`, { environment: env, flag: "old", enabled: true, value: true });
    const { violations } = await runStack(flagOnEverywhere, [app, on("Staging"), on("Production"), configuration("new", { environment: "Staging", flag: "new", enabled: true, value: false })]);
    expect(violations).toHaveLength(1);
    expect(violations[0]!.message).toContain('Flag "old" is on for everyone in every environment of the stack');
  });

  it("cloudbees-flag-on-everywhere: off somewhere, or one environment only, passes", async () => {
    const on = configuration("on", { environment: "Staging", flag: "old", enabled: true, value: true });
    expect((await runStack(flagOnEverywhere, [app, on])).violations).toEqual([]);
    const off = configuration("off", { environment: "Production", flag: "old", enabled: false });
    expect((await runStack(flagOnEverywhere, [app, on, off])).violations).toEqual([]);
  });
});
