/* istanbul ignore file */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { bundleHash, zipBundleTree } from "../../provider/bundle";
import { CheckFailedError, ProviderHostError, UNKNOWN, type ManagedResource } from "../harness";
import { calls, cascSnapshot, SAMPLE_BUNDLES, startActionWorld, tempDir, type ActionWorld } from "./helpers";
import { ALL_PASSED } from "../bundle/helpers";

let w: ActionWorld;
let tmp: string;
const VALIDATE = "POST /cjoc/casc-bundle-mgnt/casc-bundle-validate";
const PRE_VALIDATE = "POST /cjoc/casc-bundle/pre-validate-bundle";
const MISSING = "ERROR - [CONTVAL] - The file 'missing.yaml' referenced in section 'jcasc' does not exist in the bundle.";

beforeAll(async () => {
  tmp = tempDir("bundle-validation-");
  w = await startActionWorld();
});
afterAll(async () => {
  await w?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A copy of the sample bundle location under tmp. */
function copyTree(name: string): string {
  const dir = path.join(tmp, name);
  fs.cpSync(SAMPLE_BUNDLES, dir, { recursive: true });
  return dir;
}

/** Makes a bundle reference a file that does not exist: the inconsistency of the spec's rule. */
function referenceMissingFile(bundleDir: string): void {
  const file = path.join(bundleDir, "bundle.yaml");
  fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace('  - "jenkins.yaml"', '  - "jenkins.yaml"\n  - "missing.yaml"'));
}

async function failure(r: ManagedResource, inputs?: Record<string, unknown>): Promise<string> {
  const error = (await r.up(inputs).catch((e: unknown) => e)) as ProviderHostError;
  expect(error).toBeInstanceOf(ProviderHostError);
  return error.details;
}

describe("BundleValidation of one bundle folder (lint, then casc-bundle-validate)", () => {
  let r: ManagedResource;

  it("validates a good sample bundle given relative to the program's folder; outputs messages and the content hash", async () => {
    w.emu.journal.clear();
    r = w.action("bundleValidation", "base", { bundlePath: "examples/bundles/base" });
    expect(await r.up()).toMatchObject({ op: "create", changedFields: ["bundlePath", "contentHash"] });
    expect(calls(w)).toEqual([VALIDATE]);
    expect(r.state!.id).toBe("bundle-validation/examples/bundles/base");
    const { __provider, ...outs } = r.state!.outputs;
    expect(outs).toEqual({
      bundlePath: "examples/bundles/base",
      contentHash: bundleHash(path.join(SAMPLE_BUNDLES, "base")),
      messages: ALL_PASSED,
      lintMessages: ALL_PASSED,
    });
  });

  it("an unchanged bundle is not validated again: no diff, no request; refresh and delete send nothing", async () => {
    w.emu.journal.clear();
    expect(await r.up()).toMatchObject({ op: "same" });
    expect(await r.refresh()).toMatchObject({ changedFields: [] });
    await r.destroy();
    expect(calls(w)).toEqual([]);
  });

  it("a changed bundle is validated again (the diff sees the new hash); a trigger change too", async () => {
    const dir = path.join(copyTree("changing"), "base");
    const v = w.action("bundleValidation", "changing", { bundlePath: dir });
    await v.up();
    const first = v.state!.outputs.contentHash;
    fs.appendFileSync(path.join(dir, "jenkins.yaml"), "# a comment changes the content\n");
    w.emu.journal.clear();
    expect(await v.preview()).toMatchObject({ op: "update", changedFields: ["contentHash"], replaces: [] });
    expect(await v.up()).toMatchObject({ op: "update", changedFields: ["contentHash"] });
    expect(calls(w)).toEqual([VALIDATE]);
    expect(v.state!.outputs.contentHash).not.toBe(first);
    expect(v.state!.outputs.contentHash).toBe(bundleHash(dir));
    w.emu.journal.clear();
    expect(await v.up({ bundlePath: dir, triggers: ["again"] })).toMatchObject({ op: "update", changedFields: ["triggers"] });
    expect(calls(w)).toEqual([VALIDATE]);
  });

  it("a failed update keeps the last validated state; restoring the files needs no new validation", async () => {
    const dir = path.join(copyTree("breaking"), "base");
    const v = w.action("bundleValidation", "breaking", { bundlePath: dir });
    await v.up();
    const good = v.state!;
    const descriptor = fs.readFileSync(path.join(dir, "bundle.yaml"), "utf8");
    referenceMissingFile(dir);
    const message = await failure(v);
    expect(message).toContain(MISSING);
    expect(v.state).toEqual(good);
    fs.writeFileSync(path.join(dir, "bundle.yaml"), descriptor);
    w.emu.journal.clear();
    expect(await v.up()).toMatchObject({ op: "same" });
    expect(calls(w)).toEqual([]);
  });

  it("a reference to a missing file fails the create with the server's message, listing every message; nothing is assigned or reloaded", async () => {
    const dir = path.join(copyTree("broken"), "team-a");
    referenceMissingFile(dir);
    const before = await cascSnapshot(w);
    w.emu.journal.clear();
    const v = w.action("bundleValidation", "broken", { bundlePath: dir });
    const message = await failure(v);
    expect(calls(w)).toEqual([VALIDATE]);
    expect(message).toMatch(new RegExp(`^creating BundleValidation \\(bundle-validation/${dir.replace(/[./\\-]/g, "\\$&")}\\): bundle "${dir.replace(/[./\\-]/g, "\\$&")}" is not valid \\(2 errors\\)\\. casc-bundle-validate on the operations center \\(${w.emu.operationsCenterUrl.replace(/[./:]/g, "\\$&")}\\) reported:\\n`));
    // Every message the server wrote, the warning about the parent included, not only the errors.
    expect(message).toContain(`\n  ${MISSING}\n`);
    expect(message).toMatch(/\n {2}WARNING - \[\w+\] - .*parent/);
    expect(message).toContain("resources that depend on this one (dependsOn) are not created or updated until it passes");
    expect(v.state).toBeUndefined();
    // What an engine does with a failed dependency: the dependents (an assignment, a reload) never run.
    expect(await cascSnapshot(w)).toEqual(before);
    expect(w.emu.state.appliedBundle("team-a/controller-a")).toBeNull();
  });

  it("validates on a controller when instanceUrl is given", async () => {
    const url = w.emu.controllerUrls["team-b/controller-b"]!;
    w.emu.journal.clear();
    const v = w.action("bundleValidation", "on-controller", { bundlePath: "examples/bundles/team-b", instanceUrl: url });
    await v.up();
    expect(calls(w)).toEqual(["POST /controllers/team-b/controller-b/casc-bundle-mgnt/casc-bundle-validate"]);
    expect(v.state!.outputs.messages).toEqual(expect.arrayContaining([expect.stringMatching(/^WARNING - .*parent/)]));
    expect(await v.preview({ bundlePath: "examples/bundles/team-b" })).toMatchObject({ op: "update", replaces: [] });
    expect(await v.preview({ bundlePath: UNKNOWN, instanceUrl: url })).toMatchObject({ op: "replace", replaces: ["bundlePath"] });
  });
});

describe("BundleValidation of a bundle tree (lint, then pre-validate-bundle on the operations center)", () => {
  it("pre-validates the bundles asked for with their parents; bundles compare as a set", async () => {
    const root = copyTree("tree");
    w.emu.journal.clear();
    const v = w.action("bundleValidation", "tree", { bundleTreePath: root, bundles: ["team-a", "team-b"] });
    expect(await v.up()).toMatchObject({ op: "create" });
    expect(calls(w)).toEqual([PRE_VALIDATE]);
    expect(v.state!.id).toBe(`bundle-tree-validation/${root}`);
    const zip = await zipBundleTree(root, { bundles: ["team-a", "team-b"] });
    expect(v.state!.outputs.contentHash).toBe(createHash("sha256").update(zip).digest("hex"));
    expect(v.state!.outputs.messages).toEqual(expect.arrayContaining([expect.stringMatching(/^main\/team-a: INFO - \[STRUCTURE\] - /)]));
    expect(v.state!.outputs.lintMessages).toEqual(expect.arrayContaining([expect.stringMatching(/^team-b: INFO - \[STRUCTURE\] - /)]));
    w.emu.journal.clear();
    expect(await v.up({ bundleTreePath: root, bundles: ["team-b", "team-a", "team-b"] })).toMatchObject({ op: "same" });
    expect(await v.up({ bundleTreePath: root, bundles: ["team-b", "team-a"], branch: "feature/x" })).toMatchObject({ op: "update", changedFields: ["branch", "bundles", "contentHash"] });
    expect(calls(w)).toEqual([PRE_VALIDATE]);
    expect(w.emu.journal.entries()[0]!.body.length).toBeGreaterThan(0);
  });

  it("an inconsistent bundle (a reference to a missing file) fails with the server's message, and nothing is assigned or reloaded", async () => {
    const root = copyTree("broken-tree");
    referenceMissingFile(path.join(root, "team-b"));
    const before = await cascSnapshot(w);
    w.emu.journal.clear();
    const v = w.action("bundleValidation", "broken-tree", { bundleTreePath: root, bundles: ["team-b"] });
    const message = await failure(v);
    expect(calls(w)).toEqual([PRE_VALIDATE]);
    expect(message).toMatch(/bundle tree ".*" is not valid \(2 errors\)\. pre-validate-bundle on the operations center \(.*\) refused it: .*missing\.yaml.* \(status 400\)/);
    expect(message).toContain("the local lint (provider/bundle) also reported:\n  team-b: INFO - ");
    expect(message).toContain(`\n  team-b: ${MISSING}\n`);
    expect(v.state).toBeUndefined();
    expect(await cascSnapshot(w)).toEqual(before);
    expect(w.emu.state.appliedBundle("team-b/controller-b")).toBeNull();
  });
});

describe("BundleValidation bad input fails in check, naming the input and the fix, with no request", () => {
  it.each([
    [{}, "bundlePath", /give bundlePath .* or bundleTreePath/],
    [{ bundlePath: "examples/bundles/base", bundleTreePath: "examples/bundles" }, "bundlePath", /either bundlePath .* or bundleTreePath .*, not both/],
    [{ bundlePath: "examples/no-such-bundle" }, "bundlePath", /is not a folder \(resolved from .* to .*examples\/no-such-bundle\)/],
    [{ bundlePath: "examples/bundles" }, "bundlePath", /holds no bundle\.yaml.*write bundleTreePath: "examples\/bundles" instead/],
    [{ bundleTreePath: "examples/bundles/base" }, "bundleTreePath", /holds no bundle folder.*it is a bundle itself: write bundlePath/],
    [{ bundleTreePath: "examples/bundles", bundles: ["team-z"] }, "bundles", /"team-z" is not a bundle folder below bundleTreePath.*"base", "team-a", "team-b"/],
    [{ bundlePath: "examples/bundles/base", bundles: ["base"] }, "bundles", /bundles goes with bundleTreePath/],
    [{ bundleTreePath: "examples/bundles", instanceUrl: "https://ci.example.com/a/" }, "instanceUrl", /runs on the operations center only/],
    [{ bundleTreePath: "examples/bundles", branch: "a//b" }, "branch", /Invalid branch name "a\/\/b"/],
  ])("%j", async (inputs, property, reason) => {
    w.emu.journal.clear();
    const error = (await w.action("bundleValidation", "bad", inputs).up().catch((e: unknown) => e)) as CheckFailedError;
    expect(error).toBeInstanceOf(CheckFailedError);
    expect(error.failures).toEqual([{ property, reason: expect.stringMatching(reason) }]);
    expect(calls(w)).toEqual([]);
  });
});
