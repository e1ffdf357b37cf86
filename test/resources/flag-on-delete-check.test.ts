import { resources } from "../../provider/resources";
import { UNKNOWN } from "../../provider/resources/shared/values";

// The offline half of a Flag's onDelete (check and diff send no request): any value but "archive" or "delete" fails,
// naming the input; a change of it is an update, never a replacement; a replacement that the state's "archive" would
// turn into a kept old flag under the new one's name is refused before anything is written.
const { flag } = resources;
const APP = "5f1e2d3c4b5a69788796a5b4";
const base = { applicationId: APP, name: "checkout.newFlow" };

describe("check", () => {
  it.each([["archive"], ["delete"], [undefined], [null], [UNKNOWN]])("onDelete %p passes", async (onDelete) => {
    expect((await flag.check({}, { ...base, onDelete })).failures).toEqual([]);
  });

  it.each([
    ["another word", "retain", 'got "retain"'],
    ["the right word in capitals", "Archive", 'got "Archive"'],
    ["a boolean", true, "got boolean"],
    ["a list", ["archive"], "got a list"],
  ])("onDelete as %s fails, naming the input and both values", async (_what, onDelete, got) => {
    const { failures } = await flag.check({}, { ...base, onDelete });
    expect(failures).toEqual([{ property: "onDelete", reason: expect.stringContaining('onDelete must be "archive" (removing the resource keeps the flag') }]);
    expect(failures[0]!.reason).toContain('or "delete" (the default');
    expect(failures[0]!.reason.endsWith(`, ${got}`)).toBe(true);
  });

  it("a change of availableValues while the state says archive is refused (the old flag would be kept under the name); with delete it is a replacement", async () => {
    const olds = { ...base, availableValues: ["a", "b"], onDelete: "archive" };
    const { failures } = await flag.check(olds, { ...base, availableValues: ["a", "c"], onDelete: "delete" });
    expect(failures).toEqual([
      {
        property: "availableValues",
        reason: expect.stringMatching(/^a change of availableValues replaces flag "checkout\.newFlow" under the same name, .* its onDelete is "archive".* Fix: set onDelete: "delete" and run up, then change availableValues/),
      },
    ]);
    // The same set in another order, values not known yet, a new name, or the state's delete: nothing refused.
    expect((await flag.check(olds, { ...base, availableValues: ["b", "a"], onDelete: "archive" })).failures).toEqual([]);
    expect((await flag.check(olds, { ...base, availableValues: UNKNOWN, onDelete: "archive" })).failures).toEqual([]);
    expect((await flag.check(olds, { ...base, name: "checkout.other", availableValues: ["a", "c"], onDelete: "archive" })).failures).toEqual([]);
    expect((await flag.check({ ...olds, onDelete: "delete" }, { ...base, availableValues: ["a", "c"] })).failures).toEqual([]);
    // The default values ([false, true]) count as given.
    expect((await flag.check({ ...base, onDelete: "archive" }, { ...base, availableValues: ["on", "off"], onDelete: "archive" })).failures).toHaveLength(1);
  });
});

describe("diff", () => {
  const old = { ...base, availableValues: [false, true], isPermanent: false };

  it("a change of onDelete is an update (sending nothing), never a replacement; absent is delete", async () => {
    expect(await flag.diff("id", old, { ...base, onDelete: "archive" })).toEqual({ changes: true, replaces: [], deleteBeforeReplace: true });
    expect(await flag.diff("id", { ...old, onDelete: "archive" }, { ...base })).toMatchObject({ changes: true, replaces: [] });
    expect(await flag.diff("id", { ...old, onDelete: "archive" }, { ...base, onDelete: "delete" })).toMatchObject({ changes: true, replaces: [] });
    expect(await flag.diff("id", { ...old, onDelete: "archive" }, { ...base, onDelete: UNKNOWN })).toMatchObject({ changes: true, replaces: [] });
    expect(await flag.diff("id", old, { ...base, onDelete: "delete" })).toMatchObject({ changes: false, replaces: [] });
    expect(await flag.diff("id", { ...old, onDelete: "archive" }, { ...base, onDelete: "archive" })).toMatchObject({ changes: false, replaces: [] });
  });
});
