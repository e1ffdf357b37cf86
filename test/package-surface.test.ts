// What a program sees when it imports "pulumi-cloudbees", and what the provider shells load in the host.
import * as root from "../sdk";
import * as provider from "../provider";

describe("the package's public surface", () => {
  it("the root offers resources, functions, toolkit, clients and errors, and none of the providers' internals", () => {
    for (const name of ["Application", "Environment", "Flag", "FlagConfiguration", "TargetGroup", "BundleValidation", "getBundles", "lintBundle", "OperationsCenterClient", "NotFoundError", "SettingError"]) {
      expect(root).toHaveProperty(name);
    }
    for (const name of ["resources", "actionResources", "configure", "providerShell", "SETTINGS"]) {
      expect(root).not.toHaveProperty(name);
    }
  });

  it("pulumi-cloudbees/provider has configure and a controller for every resource kind", () => {
    expect(typeof provider.configure).toBe("function");
    expect(Object.keys(provider.resources).sort()).toEqual(
      [
        "application",
        "bundleAvailability",
        "bundleCheckout",
        "bundleReload",
        "bundleValidation",
        "controllerBundleAssignment",
        "controllerBundleToken",
        "controllerConfiguration",
        "defaultBundle",
        "environment",
        "flag",
        "flagConfiguration",
        "globalAvailabilityPattern",
        "items",
        "targetGroup",
        "teamMember",
      ],
    );
  });
});
