/* istanbul ignore file */
import { zipBundleTree } from "../../sdk";
import { ProviderHostError, type ManagedResource } from "../harness";
import { calls, SAMPLE_BUNDLES, startActionWorld, type ActionWorld } from "../actions/helpers";
import { LIST_PATH, TYPES } from "./helpers";

// Issue 52, through the real provider host (the dynamic providers' face): the lists the CasC resources read are read
// entry by entry, as the feature-flag lists are. One entry in a form this version cannot read is skipped, said once
// per answer in a warning on the host's output naming it, and the resources that do not need it go on; a resource
// that needs it fails, naming it, rather than taking it for missing (a refresh would drop it from the state).

let w: ActionWorld;
const VIEW = "/cjoc/view/Controllers/api/json";

beforeAll(async () => {
  w = await startActionWorld();
});
afterAll(async () => {
  await w?.close();
});

const resource = (kind: "bundleAvailability" | "controllerBundleAssignment", name: string, inputs: Record<string, unknown>): ManagedResource =>
  w.lc.resource(TYPES[kind], name, w.texts[kind], inputs);
const failure = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e as ProviderHostError);
/** The lines of the host's output since the last take that say an entry was skipped. */
const skippedLines = () => w.host.takeOutput().split("\n").filter((l) => l.includes("skipped"));
const answerOnce = (method: string, path: string, body: unknown) => w.emu.faults.inject({ method, path, status: 200, body: JSON.stringify(body), times: 1 });

describe("the bundle list (BundleAvailability, ControllerBundleAssignment, DefaultBundle, GlobalAvailabilityPattern share it)", () => {
  const stack: Record<string, ManagedResource> = {};

  it("one entry it cannot read: the resources of the others refresh unchanged, from one request, and one warning names it", async () => {
    stack.teamA = resource("bundleAvailability", "team-a", { bundleId: "team-a", regex: "team-a/.*" });
    stack.teamB = resource("bundleAvailability", "team-b", { bundleId: "team-b", regex: "team-b/.*" });
    stack.assignA = resource("controllerBundleAssignment", "controller-a", { controllerPath: "team-a/controller-a", bundleId: "team-a" });
    stack.assignB = resource("controllerBundleAssignment", "controller-b", { controllerPath: "team-b/controller-b", bundleId: "team-b" });
    for (const r of Object.values(stack)) expect(await r.up()).toMatchObject({ op: "create" });

    await w.nextDeployment();
    const bundles = (await w.oc.listBundles()).map((b) => (b.name === "team-b" ? { ...b, availableFor: "team-b/controller-b" } : b));
    answerOnce("GET", LIST_PATH, { bundles });
    w.emu.journal.clear();
    w.host.takeOutput();
    const refreshed = await Promise.all([stack.teamA!.refresh(), stack.assignA!.refresh()]);
    expect(refreshed.map((r) => r.changedFields)).toEqual([[], []]);
    expect(calls(w)).toEqual([`GET ${LIST_PATH}`]);
    const position = bundles.findIndex((b) => b.name === "team-b") + 1;
    expect(skippedLines()).toEqual([
      `warning: listing bundles: skipped bundle "team-b" (item ${position} of the answer), in a form this version of pulumi-cloudbees cannot read (availableFor: Invalid input: expected array, received string); the other items were read`,
    ]);
  });

  it("the resources that need it fail, naming it, and keep their state; no second warning for the same answer", async () => {
    const before = { teamB: stack.teamB!.state, assignB: stack.assignB!.state };
    const teamB = await failure(stack.teamB!.refresh());
    expect(teamB).toBeInstanceOf(ProviderHostError);
    expect(teamB!.details).toMatch(
      /^reading BundleAvailability \(bundle-availability\/team-b\): listing bundles: bundle "team-b" \(item \d of the answer\) is in a form this version of pulumi-cloudbees cannot read \(availableFor: [^)]+\)\. The other items of that list were read\./,
    );
    // No bundle read lists controller-b: the one that cannot be read may, so the assignment cannot be told gone.
    const assignB = await failure(stack.assignB!.refresh());
    expect(assignB!.details).toMatch(/^reading ControllerBundleAssignment \(.*\): listing bundles: no bundle read lists controller "team-b\/controller-b", and this one may: bundle "team-b"/);
    expect({ teamB: stack.teamB!.state, assignB: stack.assignB!.state }).toEqual(before);
    expect(skippedLines()).toEqual([]);
    expect(calls(w)).toEqual([`GET ${LIST_PATH}`]);
  });

  it("read again in the next deployment, every resource refreshes unchanged", async () => {
    await w.nextDeployment();
    for (const r of Object.values(stack)) expect(await r.refresh()).toMatchObject({ changedFields: [] });
    expect(skippedLines()).toEqual([]);
  });
});

describe("the Controllers view (Items, when a controller's delete lost its answer)", () => {
  const yaml = (name: string) =>
    `items:\n  - kind: folder\n    name: ${name}\n    items:\n      - kind: managedController\n        name: controller\n        properties:\n          - configurationAsCode: {}\n`;

  /** The view as the operations center will answer it once `controller` is deleted, with one item it cannot read added. */
  async function viewWithout(controller: string, odd: Record<string, unknown>): Promise<{ jobs: object[] }> {
    const items = (await w.oc.listControllerItems()).filter((i) => i.fullPath !== controller);
    return { jobs: [...items.map((i) => ({ name: i.name, url: i.url, fullName: i.fullPath })), odd] };
  }

  it("an entry it cannot read that is not the controller: the delete is confirmed by the others, and one warning names it", async () => {
    const items = w.action("items", "lost-delete", { yaml: yaml("lost") });
    await items.up();
    const view = await viewWithout("lost/controller", { name: "other", fullName: "elsewhere/other", url: 42 });
    w.emu.faults.inject({ method: "POST", path: "/cjoc/job/lost/job/controller/doDelete", dropAfterHandling: true });
    answerOnce("GET", VIEW, view);
    w.host.takeOutput();
    await items.destroy();
    expect(w.emu.state.controllers()).not.toContain("lost/controller");
    expect(skippedLines()).toEqual([
      `warning: listing the controllers: skipped controller "elsewhere/other" (item ${view.jobs.length} of the answer), in a form this version of pulumi-cloudbees cannot read (url: Invalid input: expected string, received number); the other items were read`,
    ]);
  });

  it("an entry it cannot read that may be the controller: the delete is not taken for done", async () => {
    const items = w.action("items", "unsure-delete", { yaml: yaml("unsure") });
    await items.up();
    const view = await viewWithout("unsure/controller", { name: "controller", url: null });
    w.emu.faults.inject({ method: "POST", path: "/cjoc/job/unsure/job/controller/doDelete", dropAfterHandling: true });
    answerOnce("GET", VIEW, view);
    w.host.takeOutput();
    const error = await failure(items.destroy());
    expect(error!.details).toMatch(/controller "unsure\/controller" could not be deleted: .*Run `pulumi destroy` again/);
    expect(skippedLines()).toEqual([expect.stringContaining('skipped controller "controller" (item')]);
    // Run again, the controller is gone: done.
    await items.destroy();
  });
});

describe("the pre-validation's verdicts (BundleValidation of a bundle tree)", () => {
  it("a verdict it cannot read is named in one warning, and is no pass: the validation fails, naming it", async () => {
    const answer = await w.oc.preValidateBundles(await zipBundleTree(SAMPLE_BUNDLES));
    const validations = answer.validations.map((v) => (v.bundle === "main/team-b" ? { ...v, result: { ...v.result, valid: "yes" } } : v));
    answerOnce("POST", "/cjoc/casc-bundle/pre-validate-bundle", { validations });
    w.host.takeOutput();
    const v = w.action("bundleValidation", "tree", { bundleTreePath: SAMPLE_BUNDLES });
    const error = await failure(v.up());
    expect(error!.details).toMatch(/^creating BundleValidation \(.*\): bundle tree ".*" is not valid\. pre-validate-bundle on the operations center \(.*\) answered the verdict of "main\/team-b" in a form this version of pulumi-cloudbees cannot read \(see the warning\): not a pass/);
    const position = validations.findIndex((x) => x.bundle === "main/team-b") + 1;
    expect(skippedLines()).toEqual([expect.stringMatching(new RegExp(`^warning: pre-validating bundles: skipped bundle "main/team-b" \\(item ${position} of the answer\\), .* \\(result\\.valid: [^)]+\\); the other items were read$`))]);
    expect(v.state).toBeUndefined();
    // The verdicts read again as the server writes them: the tree passes.
    expect(await v.up()).toMatchObject({ op: "create" });
  });
});
