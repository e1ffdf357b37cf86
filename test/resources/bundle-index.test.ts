import type { ListedBundle } from "../../provider";
import { bundleNamed, bundleUsedBy, moveController, replaceBundle } from "../../provider/resources/shared/bundle-index";
import { availabilityPatternSet, controllerAssigned } from "../../provider/resources/shared/bundle-list-cache";

const bundle = (name: string, usedBy: string[] = []): ListedBundle => ({
  name,
  linkFileContent: "",
  url: "",
  token: "",
  regex: "",
  availabilityPatternFromYaml: false,
  usedBy,
  availableFor: [],
});

describe("bundle index", () => {
  it("finds what find() finds, by name and by controller", () => {
    const list = [bundle("a", ["c1"]), bundle("b", ["c2", "c3"]), bundle("a", ["c4"])];
    for (const name of ["a", "b", "none"]) expect(bundleNamed(list, name)).toBe(list.find((b) => b.name === name));
    for (const c of ["c1", "c3", "c4", "none"]) expect(bundleUsedBy(list, c)).toBe(list.find((b) => b.usedBy.includes(c)));
  });

  it("an assignment moves the controller in place, keeps usedBy sorted and the lookups right", () => {
    const list = [bundle("a", ["c1", "c3"]), bundle("b", ["c2"])];
    const before = list[0];
    expect(controllerAssigned("b", "c1")(list, undefined)).toBe(list);
    expect(list.map((b) => [b.name, b.usedBy])).toEqual([["a", ["c3"]], ["b", ["c1", "c2"]]]);
    expect(before!.usedBy).toEqual(["c1", "c3"]); // a bundle object a caller holds is not changed
    expect(bundleUsedBy(list, "c1")!.name).toBe("b");
    expect(moveController(list, "b", "c1")).toBe(true); // already there: nothing changes
    expect(list[1]!.usedBy).toEqual(["c1", "c2"]);
    expect(moveController(list, "a", "c9")).toBe(true); // a controller no bundle listed
    expect(list[0]!.usedBy).toEqual(["c3", "c9"]);
    expect(controllerAssigned("none", "c1")(list, undefined)).toBeUndefined();
  });

  it("a pattern set replaces the bundle in place; an unknown bundle does not fit", () => {
    const list = [bundle("a"), bundle("b", ["c2"])];
    expect(availabilityPatternSet("b", "c.*")(list, ["c2"])).toBe(list);
    expect(list[1]).toEqual({ ...bundle("b", ["c2"]), regex: "c.*", availableFor: ["c2"] });
    expect(bundleNamed(list, "b")).toBe(list[1]);
    expect(availabilityPatternSet("none", "x")(list, [])).toBeUndefined();
    expect(replaceBundle(list, "none", (b) => b)).toBe(false);
  });
});
