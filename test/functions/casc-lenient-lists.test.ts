import { startEmulator, type Emulator } from "../../emulator";
import { closeClients, getBundle, getBundles, getControllerItems, getControllers, OperationsCenterClient, UnexpectedResponseError } from "../../sdk";
import { adminSettings, answerOnce, isolateEnvironment, warningsOf } from "./helpers";

// Issue 52: the operations center's lists are read item by item, as the feature-flag lists are (lenient-lists.test.ts):
// one entry in a form this version cannot read is skipped and said once, in a warning naming it (quoted, escaped,
// bounded) and its field; the others are answered. Over real HTTP: the emulator answers its own list with one entry
// altered, as a newer server could write it. The logs' lists: casc-lenient-logs.test.ts.

let emu: Emulator;
let oc: OperationsCenterClient;
const LIST = "/cjoc/casc-bundle/list";
const VIEW = "/cjoc/view/Controllers/api/json";
isolateEnvironment();
const opts = () => ({ settings: adminSettings(emu) });

beforeAll(async () => {
  emu = await startEmulator();
  oc = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...emu.credentials.admin, maxRetries: 0 });
  await oc.setControllerToBundle("team-a", "team-a/controller-a");
});
afterAll(async () => {
  await oc.close();
  await closeClients();
  await emu.close();
});

/** The bundle list as the emulator answers it, with `team-b`'s `usedBy` made a text (a form no schema takes). */
async function listWithOddTeamB(): Promise<{ bundles: object[] }> {
  const bundles = (await oc.listBundles()).map((b) => (b.name === "team-b" ? { ...b, usedBy: "team-b/controller-b" } : b));
  return { bundles };
}

const SKIPPED_TEAM_B = /^warning: \[runtime\] (getBundles|getControllers)\(\): skipped bundle "team-b" \(item \d of the answer\), in a form this version of pulumi-cloudbees cannot read \(usedBy: [^)]+\); the other items were read$/;

describe("the bundle list, read bundle by bundle", () => {
  it("getBundles answers the bundles it can read and warns once of the one it cannot, naming it and the field", async () => {
    answerOnce(emu, "GET", LIST, await listWithOddTeamB());
    const { result, warnings } = await warningsOf(() => getBundles(opts()));
    expect(result.map((b) => b.name).sort()).toEqual(["base", "team-a"]);
    expect(warnings).toEqual([expect.stringMatching(SKIPPED_TEAM_B)]);
    // A null list inside a bundle is an empty one, and fields this version has no name for are no fault.
    const tolerant = (await oc.listBundles()).map((b) => (b.name === "base" ? { ...b, usedBy: null, availableFor: null, since: "3.0" } : b));
    answerOnce(emu, "GET", LIST, { bundles: tolerant });
    const again = await warningsOf(() => getBundles(opts()));
    expect(again.warnings).toEqual([]);
    expect(again.result.find((b) => b.name === "base")).toMatchObject({ usedBy: [], availableFor: [] });
    expect(again.result.find((b) => b.name === "base")).not.toHaveProperty("since");
  });

  it("getControllers builds on the bundles it can read, and warns once of the one it cannot", async () => {
    answerOnce(emu, "GET", LIST, await listWithOddTeamB());
    const { result, warnings } = await warningsOf(() => getControllers(opts()));
    expect(result.find((c) => c.controllerPath === "team-a/controller-a")).toMatchObject({ bundleId: "team-a" });
    expect(result.flatMap((c) => c.availableBundles)).not.toContain("team-b");
    expect(warnings).toEqual([expect.stringMatching(SKIPPED_TEAM_B)]);
  });

  it("getBundle of the bundle it cannot read fails naming it (it is not missing); of another, it answers without a word", async () => {
    answerOnce(emu, "GET", LIST, await listWithOddTeamB());
    const failed = await warningsOf(() => getBundle("team-b", opts()).catch((e: unknown) => e));
    expect(failed.result).toBeInstanceOf(UnexpectedResponseError);
    expect((failed.result as Error).message).toMatch(
      /^getBundle\(name: "team-b"\): listing bundles: bundle "team-b" \(item \d of the answer\) is in a form this version of pulumi-cloudbees cannot read \(usedBy: [^)]+\)\. The other items of that list were read\./,
    );
    answerOnce(emu, "GET", LIST, await listWithOddTeamB());
    const other = await warningsOf(() => getBundle("team-a", opts()));
    expect(other.result.usedBy).toEqual(["team-a/controller-a"]);
    expect([...failed.warnings, ...other.warnings]).toEqual([]);
  });

  it("names a hostile name escaped, quoted and bounded, and a bundle without a name by its place", async () => {
    const [first, ...rest] = await oc.listBundles();
    const hostile = `odd\n::error::owned\u001b[31m${"x".repeat(5000)}`;
    answerOnce(emu, "GET", LIST, { bundles: [{ ...first, name: hostile, regex: 1 }, ...rest, { ...first, name: 7 }] });
    const { result, warnings } = await warningsOf(() => getBundles(opts()));
    expect(result.map((b) => b.name)).toEqual(rest.map((b) => b.name));
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('skipped bundle "odd\\n::error::owned\\u001b[31mxxx');
    expect(warnings[0]).toContain("characters left out");
    expect(warnings[0]!.length).toBeLessThan(1000);
    expect(warnings[0]).not.toMatch(/[\n\u001b]/);
    expect(warnings[1]).toMatch(new RegExp(`: skipped an unnamed bundle \\(item ${rest.length + 2} of the answer\\), in a form .* \\(name: [^)]+\\)`));
  });
});

describe("the Controllers view, read item by item", () => {
  it("getControllerItems answers the items it can read and warns once of the one it cannot, by its full name", async () => {
    const jobs = (await oc.listControllerItems()).map((i) => ({ name: i.name, url: i.url, fullName: i.fullPath }));
    const odd = { ...jobs[0]!, url: { href: jobs[0]!.url } };
    answerOnce(emu, "GET", VIEW, { jobs: [...jobs.slice(1), odd] });
    const { result, warnings } = await warningsOf(() => getControllerItems(opts()));
    expect(result.map((i) => i.fullPath)).toEqual(jobs.slice(1).map((j) => j.fullName).sort());
    expect(warnings).toEqual([
      expect.stringMatching(new RegExp(`^warning: \\[runtime\\] getControllerItems\\(\\): skipped controller "${jobs[0]!.fullName}" \\(item ${jobs.length} of the answer\\), .* \\(url: [^)]+\\)`)),
    ]);
    // Without a full name, an item is named by its name.
    answerOnce(emu, "GET", VIEW, { jobs: [...jobs.slice(1), { name: "plain", url: null }] });
    expect((await warningsOf(() => getControllerItems(opts()))).warnings).toEqual([expect.stringMatching(/: skipped controller "plain" \(item \d of the answer\)/)]);
  });
});
