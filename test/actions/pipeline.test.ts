/* istanbul ignore file */
/**
 * The action resources in a whole program, run as `pulumi up` would (test/harness/program-runner.ts: the program
 * under the SDK's mocks, every resource through the real provider host, dependencies honoured): a bad bundle stops
 * the pipeline at BundleValidation, and nothing is checked out, made available, assigned or reloaded.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator, type Emulator } from "../../emulator";
import { emulatorStackConfig } from "../../examples/emulator-stack";
import { isSecret, ProgramRunError, ProgramRunner, type ProgramPlan } from "../harness";
import { REPO_ROOT, SAMPLE_BUNDLES, tempDir } from "./helpers";

const PROGRAM = "test/actions/fixtures/pipeline";
const B = "team-b/controller-b";
let tmp: string;
let tree: string;
let emu: Emulator;
let runner: ProgramRunner;

beforeAll(async () => {
  tmp = tempDir("pipeline-");
  tree = path.join(tmp, "bundles");
  fs.cpSync(SAMPLE_BUNDLES, tree, { recursive: true });
  // The bundle location the operations center checks out is the tree the pipeline validates (a git checkout, say).
  emu = await startEmulator({ bundlesDir: tree });
  runner = await ProgramRunner.start({
    cwd: REPO_ROOT,
    config: { ...emulatorStackConfig(emu), "pipeline:bundleTree": tree, "pipeline:controllerUrl": emu.controllerUrls[B]! },
    timeoutMs: 40_000,
  });
}, 30_000);
afterAll(async () => {
  await runner?.close();
  await emu?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

const ops = (plan: ProgramPlan) => Object.fromEntries(plan.map((e) => [e.name, e.op]));
const posts = () => emu.journal.entries().filter((e) => e.method === "POST").map((e) => e.path);
const descriptor = () => path.join(tree, "team-b", "bundle.yaml");

describe("a bundles-as-code pipeline", () => {
  jest.setTimeout(40_000);
  let good: string;

  it("a bundle with a reference to a missing file fails at BundleValidation with the server's message; nothing is assigned or reloaded", async () => {
    good = fs.readFileSync(descriptor(), "utf8");
    fs.writeFileSync(descriptor(), good.replace('  - "jenkins.yaml"', '  - "jenkins.yaml"\n  - "missing.yaml"'));
    emu.journal.clear();
    const error = (await runner.up(PROGRAM).catch((e: unknown) => e)) as ProgramRunError;
    expect(error).toBeInstanceOf(ProgramRunError);
    expect(error.message).toContain("creating BundleValidation");
    expect(error.message).toContain("refused it: Bundle 'main/team-b' references the missing file 'missing.yaml' in section 'jcasc' (status 400)");
    // Only the validation ran: no check-out, availability, assignment, token or reload.
    expect(posts()).toEqual(["/cjoc/casc-bundle/pre-validate-bundle"]);
    expect(emu.state.assignments()).toEqual({});
    expect(emu.state.apiAvailabilityPatterns()).toEqual({});
    expect(emu.state.appliedBundle(B)).toBeNull();
    expect(runner.state().resources).toEqual([]);
  });

  it("once the bundle is fixed, up runs the whole pipeline: the controller reloads the bundle; the link file is a secret", async () => {
    fs.writeFileSync(descriptor(), good);
    const plan = await runner.up(PROGRAM);
    expect(new Set(plan.map((e) => e.op))).toEqual(new Set(["create"]));
    expect(emu.state.assignments()).toEqual({ [B]: "team-b" });
    expect(emu.state.appliedBundle(B)).toMatchObject({ bundle: "team-b" });
    const outputs = runner.outputs();
    expect(outputs).toMatchObject({ checkedOut: ["base", "team-a", "team-b"], reloaded: true, version: emu.state.appliedBundle(B)!.version });
    expect(isSecret(outputs.linkFile)).toBe(true);
    const token = runner.state().resources.find((r) => r.name === "token")!;
    expect(isSecret(token.outputs.token)).toBe(true);
    expect(isSecret(token.outputs.linkFileContent)).toBe(true);
    expect(token.outputs.url).toBe(`${emu.operationsCenterUrl}config-bundle/team-b`);
    expect(JSON.stringify(runner.state())).not.toContain(emu.credentials.admin.apiToken);
  });

  it("a second up with the bundle unchanged changes nothing and sends no write", async () => {
    emu.journal.clear();
    const plan = await runner.up(PROGRAM);
    expect(new Set(plan.map((e) => e.op))).toEqual(new Set(["same"]));
    expect(posts()).toEqual([]);
  });

  it("a change to the bundle validates, checks out and reloads again; the rest stays", async () => {
    const file = path.join(tree, "team-b", "jenkins.yaml");
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace('labelString: "team-b"', 'labelString: "team-b linux"'));
    const before = emu.state.appliedBundle(B)!.version;
    emu.journal.clear();
    const plan = await runner.up(PROGRAM);
    expect(ops(plan)).toEqual({ validate: "update", checkout: "update", "team-b": "same", assign: "same", token: "same", reload: "update" });
    expect(posts()).toEqual([
      "/cjoc/casc-bundle/pre-validate-bundle",
      "/cjoc/casc-bundle/check-out",
      "/controllers/team-b/controller-b/casc-bundle-mgnt/reload-bundle",
    ]);
    expect(emu.state.appliedBundle(B)!.version).not.toBe(before);
    expect(runner.outputs()).toMatchObject({ reloaded: true, version: emu.state.appliedBundle(B)!.version });
  });
});
