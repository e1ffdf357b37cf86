import { resources } from "../../provider/resources";
import { UNKNOWN } from "../../provider/resources/shared/values";
import { sameJson } from "../../provider/resources/shared/values";

// The offline half of the action controllers (check and diff need no server), directly.
const { bundleCheckout: checkout, controllerBundleToken: token, bundleReload: reload, items, bundleValidation: validation } = resources;

describe("check lets values not known yet through", () => {
  it.each([
    ["BundleCheckout", checkout, { timeoutSeconds: UNKNOWN, triggers: UNKNOWN }],
    ["BundleCheckout, an unknown trigger item", checkout, { triggers: ["a", UNKNOWN] }],
    ["ControllerBundleToken", token, { controllerPath: UNKNOWN, triggers: [UNKNOWN] }],
    ["BundleReload (a boolean arrives as the placeholder string)", reload, { instanceUrl: UNKNOWN, allowRestartRequired: UNKNOWN, triggers: UNKNOWN }],
    ["Items", items, { yaml: UNKNOWN, path: UNKNOWN, instanceUrl: UNKNOWN }],
    ["BundleValidation, bundlePath", validation, { bundlePath: UNKNOWN, instanceUrl: UNKNOWN }],
    ["BundleValidation, tree", validation, { bundleTreePath: UNKNOWN, bundles: [UNKNOWN], branch: UNKNOWN }],
  ] as const)("%s", async (_name, controller, news) => {
    const result = await controller.check({}, news);
    expect(result.failures).toEqual([]);
    // No hash of files not known yet: the diff then counts it as a change.
    expect(result.inputs.contentHash).toBeUndefined();
  });

  it("returns the inputs as given (BundleValidation adds only contentHash, and drops one the program sent)", async () => {
    const news = { triggers: [{ b: 1, a: 2 }], timeoutSeconds: 5, __provider: "text" };
    expect((await checkout.check({}, news)).inputs).toEqual(news);
    const checked = await validation.check({}, { bundlePath: "examples/bundles/base", contentHash: "forged", __provider: "text" });
    expect(checked.failures).toEqual([]);
    expect(checked.inputs).toEqual({ bundlePath: "examples/bundles/base", contentHash: expect.stringMatching(/^[0-9a-f]{64}$/), __provider: "text" });
  });
});

describe("diff of the action resources", () => {
  const no = { changes: false, replaces: [], deleteBeforeReplace: false };

  it("always says whether anything changed, ignoring a new provider text; triggers compare as JSON, keys in any order", async () => {
    const olds = { triggers: [{ a: 1, b: [2, 3] }, "x"], remotes: [], bundles: [], __provider: "old" };
    expect(await checkout.diff("id", olds, { triggers: [{ b: [2, 3], a: 1 }, "x"], __provider: "new" })).toEqual(no);
    expect(await checkout.diff("id", olds, { triggers: [{ a: 1, b: [3, 2] }, "x"] })).toMatchObject({ changes: true, replaces: [] });
    expect(await checkout.diff("id", olds, { triggers: [{ a: 1, b: [2, 3] }, UNKNOWN] })).toMatchObject({ changes: true });
    expect(await checkout.diff("id", { ...olds, triggers: undefined }, {})).toEqual(no);
    expect(await checkout.diff("id", { timeoutSeconds: 5 }, { timeoutSeconds: 6 })).toMatchObject({ changes: true, replaces: [] });
  });

  it("ControllerBundleToken: controllerPath replaces (also when not known yet); triggers update", async () => {
    const olds = { controllerPath: "a", url: "u", token: "t", linkFileContent: "u\nt" };
    expect(await token.diff("id", olds, { controllerPath: "a" })).toEqual(no);
    expect(await token.diff("id", olds, { controllerPath: "b" })).toMatchObject({ changes: true, replaces: ["controllerPath"] });
    expect(await token.diff("id", olds, { controllerPath: UNKNOWN })).toMatchObject({ changes: true, replaces: ["controllerPath"] });
    expect(await token.diff("id", olds, { controllerPath: "a", triggers: [1] })).toMatchObject({ changes: true, replaces: [] });
  });

  it("BundleReload and Items: instanceUrl replaces; yaml and path update Items", async () => {
    expect(await reload.diff("id", { updateAvailable: false }, { instanceUrl: "https://c/" })).toMatchObject({ replaces: ["instanceUrl"] });
    expect(await reload.diff("id", { allowRestartRequired: true }, { allowRestartRequired: false })).toMatchObject({ changes: true, replaces: [] });
    const olds = { yaml: "items: []", path: "f", basePath: "f" };
    expect(await items.diff("id", olds, { yaml: "items: []", path: "f" })).toEqual(no);
    expect(await items.diff("id", olds, { yaml: "items: [ ]", path: "f" })).toMatchObject({ changes: true, replaces: [] });
    expect(await items.diff("id", olds, { yaml: "items: []" })).toMatchObject({ changes: true, replaces: [] });
    expect(await items.diff("id", olds, { yaml: "items: []", path: "f", instanceUrl: "https://c/" })).toMatchObject({ replaces: ["instanceUrl"] });
  });

  it("BundleValidation: the paths replace; a new hash, or none (not known yet), updates; bundles compare as a set", async () => {
    const olds = { bundleTreePath: "t", bundles: ["a", "b"], contentHash: "h", messages: [], lintMessages: [] };
    expect(await validation.diff("id", olds, { bundleTreePath: "t", bundles: ["b", "a", "a"], contentHash: "h" })).toEqual(no);
    expect(await validation.diff("id", olds, { bundleTreePath: "t", bundles: ["a"], contentHash: "h" })).toMatchObject({ changes: true, replaces: [] });
    expect(await validation.diff("id", olds, { bundleTreePath: "t", bundles: ["a", "b"], contentHash: "h2" })).toMatchObject({ changes: true, replaces: [] });
    expect(await validation.diff("id", olds, { bundleTreePath: "t", bundles: ["a", "b"] })).toMatchObject({ changes: true });
    expect(await validation.diff("id", olds, { bundleTreePath: "t2", bundles: ["a", "b"], contentHash: "h" })).toMatchObject({ replaces: ["bundleTreePath"] });
    expect(await validation.diff("id", olds, { bundlePath: UNKNOWN })).toMatchObject({ changes: true, replaces: ["bundlePath", "bundleTreePath"] });
  });
});

describe("sameJson", () => {
  it.each([
    [{ a: 1, b: null }, { b: undefined, a: 1 }, true],
    [[1, { x: [true] }], [1, { x: [true] }], true],
    [[1, 2], [2, 1], false],
    ["1", 1, false],
    [{}, [], false],
    [null, undefined, true],
  ] as const)("%j vs %j: %s", (a, b, expected) => {
    expect(sameJson(a, b)).toBe(expected);
  });
});
