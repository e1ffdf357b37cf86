/** The CasC policies of the pack (policy/bundles.ts), on constructed arguments of both faces. */
import { assignmentFallback, availabilityNarrow, bundleValidated } from "../../policy/bundles";
import { dependsOn, resource, runResource, runStack, UNKNOWN } from "./run-policy";

describe("cloudbees-bundle-validated", () => {
  it.each(["plugin", "dynamic"] as const)("an assignment that depends on a validation covering its bundle passes (%s)", async (face) => {
    const validation = resource("BundleValidation", "v", { bundlePath: "/repo/bundles/team-a" }, face);
    const assignment = dependsOn(resource("ControllerBundleAssignment", "a", { controllerPath: "team-a/c", bundleId: "team-a" }, face), validation);
    expect((await runStack(bundleValidated, [validation, assignment])).violations).toEqual([]);
  });

  it("a tree validation covers the bundles it lists, or all of them; the dependency may be indirect", async () => {
    const tree = resource("BundleValidation", "tree", { bundleTreePath: "/repo/bundles", bundles: ["team-a"] });
    const availability = dependsOn(resource("BundleAvailability", "av", { bundleId: "team-a", controllers: ["team-a/c"] }), tree);
    const a = dependsOn(resource("ControllerBundleAssignment", "a", { bundleId: "team-a" }), availability);
    const b = dependsOn(resource("ControllerBundleAssignment", "b", { bundleId: "team-b" }), tree);
    const { violations } = await runStack(bundleValidated, [tree, availability, a, b]);
    expect(violations).toEqual([{ message: expect.stringContaining('ControllerBundleAssignment "b" assigns bundle "team-b", which no BundleValidation of the stack covers'), urn: b.urn }]);
    const all = resource("BundleValidation", "all", { bundleTreePath: "/repo/bundles" });
    expect((await runStack(bundleValidated, [all, dependsOn(resource("ControllerBundleAssignment", "c", { bundleId: "team-b" }), all)])).violations).toEqual([]);
  });

  it("a covering validation the assignment does not wait for is named as the fix", async () => {
    const validation = resource("BundleValidation", "team-a-check", { bundlePath: "bundles/team-a/" });
    const assignment = resource("ControllerBundleAssignment", "a", { bundleId: "team-a" });
    const { violations } = await runStack(bundleValidated, [validation, assignment]);
    expect(violations[0]!.message).toContain('add "team-a-check" to this resource\'s dependsOn');
  });

  it("a reload must depend on a validation", async () => {
    const validation = resource("BundleValidation", "v", { bundlePath: "bundles/team-a" }, "dynamic");
    const reload = resource("BundleReload", "r", {}, "dynamic");
    expect((await runStack(bundleValidated, [validation, reload])).violations[0]!.message).toContain('BundleReload "r" reloads a bundle that no BundleValidation checks first');
    expect((await runStack(bundleValidated, [validation, dependsOn(reload, validation)])).violations).toEqual([]);
  });

  it("a bundle id unknown in preview is said once, naming the resource, and the others are still checked", async () => {
    const unknown = resource("ControllerBundleAssignment", "later", { bundleId: UNKNOWN });
    const plain = resource("ControllerBundleAssignment", "plain", { bundleId: "team-b" });
    const { violations, unseen } = await runStack(bundleValidated, [unknown, plain]);
    expect(violations.map((v) => v.urn)).toEqual([plain.urn]);
    expect(unseen).toContain('bundleId of ControllerBundleAssignment "later"');
  });
});

describe("cloudbees-availability-narrow", () => {
  it.each([".*", "^.*$", ".+", "(?:.*)", "[\\s\\S]*"])("the pattern %s matches every controller", async (regex) => {
    const violations = await runResource(availabilityNarrow, resource("BundleAvailability", "everyone", { bundleId: "team-a", regex }));
    expect(violations[0]!.message).toContain('makes bundle "team-a" available to every controller');
  });

  it.each(["team-a/.*", "^(?:team-a/c1|team-a/c2)$", "[a-z]+/controller-.*", "(unclosed"])("the pattern %s is narrow", async (regex) => {
    expect(await runResource(availabilityNarrow, resource("BundleAvailability", "narrow", { bundleId: "team-a", regex }))).toEqual([]);
  });

  it("a controllers list passes; allowedBundles exempts a bundle", async () => {
    expect(await runResource(availabilityNarrow, resource("BundleAvailability", "list", { bundleId: "team-a", controllers: ["team-a/c"] }, "dynamic"))).toEqual([]);
    expect(await runResource(availabilityNarrow, resource("BundleAvailability", "base", { bundleId: "base", regex: ".*" }), { allowedBundles: ["base"] })).toEqual([]);
  });

  it("the global switch on is reported, off passes", async () => {
    expect((await runResource(availabilityNarrow, resource("GlobalAvailabilityPattern", "g", { visibility: true }, "dynamic")))[0]!.message).toContain("set visibility to false");
    expect(await runResource(availabilityNarrow, resource("GlobalAvailabilityPattern", "g", { visibility: false }))).toEqual([]);
  });
});

describe("cloudbees-assignment-fallback", () => {
  it("an assignment without fallbackBundleId is reported, one with it passes", async () => {
    expect((await runResource(assignmentFallback, resource("ControllerBundleAssignment", "a", { bundleId: "team-a" })))[0]!.message).toContain('ControllerBundleAssignment "a" names no fallbackBundleId');
    expect(await runResource(assignmentFallback, resource("ControllerBundleAssignment", "a", { bundleId: "team-a", fallbackBundleId: "base" }, "dynamic"))).toEqual([]);
  });

  it("other resources are not its business", async () => {
    expect(await runResource(assignmentFallback, resource("BundleAvailability", "x", { bundleId: "team-a" }))).toEqual([]);
  });
});
