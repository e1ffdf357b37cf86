import { resources } from "../../provider/resources";
import { inferVisibility } from "../../provider/resources/global-availability-pattern/controller";
import { UNKNOWN } from "../../provider/resources/shared/values";
import type { ListedBundle } from "../../provider";

// The offline half of the controllers (check and diff need no server): edge cases, directly.
const { bundleAvailability: ba, controllerBundleAssignment: cba, application: app, defaultBundle: db, globalAvailabilityPattern: gap } = resources;

describe("check lets unknown values through", () => {
  it.each([
    ["BundleAvailability, all unknown", ba, { bundleId: UNKNOWN, regex: UNKNOWN }],
    ["BundleAvailability, an unknown regex beside controllers", ba, { bundleId: "b", regex: UNKNOWN, controllers: ["sandbox"] }],
    ["BundleAvailability, an unknown list item", ba, { bundleId: "b", controllers: ["sandbox", UNKNOWN] }],
    ["BundleAvailability, an unknown list", ba, { bundleId: "b", controllers: UNKNOWN }],
    ["ControllerBundleAssignment", cba, { controllerPath: UNKNOWN, bundleId: UNKNOWN, fallbackBundleId: UNKNOWN }],
    ["Application (a boolean arrives as the placeholder string)", app, { name: UNKNOWN, adoptExisting: UNKNOWN }],
    ["DefaultBundle", db, { bundleId: UNKNOWN }],
    ["GlobalAvailabilityPattern", gap, { visibility: UNKNOWN }],
  ] as const)("%s", async (_name, controller, news) => {
    expect((await controller.check({}, news)).failures).toEqual([]);
  });

  it("returns the inputs as given (no reordering that would show as a change)", async () => {
    const news = { bundleId: "b", controllers: ["z", "a", "a"], __provider: "text" };
    expect((await ba.check({}, news)).inputs).toEqual(news);
  });
});

describe("diff", () => {
  const olds = {
    bundleId: "b",
    controllers: ["b/x", "a"],
    regex: "^(?:a|b/x)$",
    __provider: "old text",
  };

  it("always says whether there are changes, ignoring a new provider text", async () => {
    expect(await ba.diff("id", olds, { bundleId: "b", controllers: ["a", "b/x", "a"], __provider: "new text" })).toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it("BundleAvailability: a new pattern, a switch of form or an unknown is a change", async () => {
    expect((await ba.diff("id", olds, { bundleId: "b", controllers: ["a"] })).changes).toBe(true);
    expect((await ba.diff("id", olds, { bundleId: "b", regex: "^(?:a|b/x)$" })).changes).toBe(true);
    // Outputs an earlier version kept (availableFor, usedBy) are not compared: they go at the next refresh.
    expect((await ba.diff("id", { ...olds, availableFor: ["a"], usedBy: ["a"] }, { bundleId: "b", controllers: ["a", "b/x"] })).changes).toBe(false);
    expect((await ba.diff("id", olds, { bundleId: "b", controllers: ["a", UNKNOWN] })).changes).toBe(true);
    expect(await ba.diff("id", olds, { bundleId: "c", controllers: ["a", "b/x"] })).toMatchObject({ changes: true, replaces: ["bundleId"] });
    const regexOlds = { ...olds, controllers: undefined, regex: "a|b" };
    expect((await ba.diff("id", regexOlds, { bundleId: "b", regex: "a|b" })).changes).toBe(false);
  });

  it("ControllerBundleAssignment: only controllerPath replaces; a fallback added or removed updates", async () => {
    const o = { controllerPath: "c", bundleId: "b" };
    expect(await cba.diff("id", o, { controllerPath: "c", bundleId: "b" })).toMatchObject({ changes: false });
    expect(await cba.diff("id", o, { controllerPath: "c", bundleId: "b2" })).toMatchObject({ changes: true, replaces: [] });
    expect(await cba.diff("id", o, { controllerPath: "c", bundleId: "b", fallbackBundleId: "f" })).toMatchObject({ changes: true, replaces: [] });
    expect(await cba.diff("id", { ...o, fallbackBundleId: "f" }, o)).toMatchObject({ changes: true, replaces: [] });
    expect(await cba.diff("id", o, { controllerPath: "d", bundleId: "b" })).toMatchObject({ changes: true, replaces: ["controllerPath"] });
  });

  it("Application: a name change replaces; adoptExisting alone is no change (it only matters to create)", async () => {
    const o = { applicationId: "x", name: "n", adopted: false };
    expect(await app.diff("x", o, { name: "n", adoptExisting: true })).toMatchObject({ changes: false });
    expect(await app.diff("x", o, { name: "m" })).toMatchObject({ changes: true, replaces: ["name"] });
  });
});

describe("GlobalAvailabilityPattern reads the switch from the bundle list where it can", () => {
  const b = (regex: string, availableFor: string[], usedBy: string[] = []): ListedBundle => ({
    name: "n", linkFileContent: "", url: "", token: "", regex, availabilityPatternFromYaml: false, availableFor, usedBy,
  });
  it.each([
    ["a bundle without pattern available to controllers: on", [b("", ["c1", "c2"])], true],
    ["available to none while controllers exist: off", [b("", []), b("c1", ["c1"])], false],
    ["available to none while a controller uses it: off", [b("", [], ["c1"])], false],
    ["no controller anywhere: cannot tell", [b("", [])], undefined],
    ["every bundle has a pattern: cannot tell", [b("c1", ["c1"])], undefined],
    ["no bundle: cannot tell", [], undefined],
  ] as const)("%s", (_name, bundles, expected) => {
    expect(inferVisibility([...bundles])).toBe(expected);
  });
});
