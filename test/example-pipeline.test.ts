/* istanbul ignore file */
/**
 * The pipeline example (examples/pipeline) run as `pulumi up` would (testing/processes/program-runner.ts: the program under
 * the SDK's mocks, every resource through the real provider host, dependencies honoured), against the emulator whose
 * bundle location is the tree the pipeline validates (a git checkout, say): a bad bundle stops the pipeline at
 * BundleValidation, and nothing is checked out, made available, assigned or reloaded.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type Emulator } from "../emulator";
import { emulatorStackConfig } from "../testing/emulator-config";
import { isSecret, ProgramRunError, ProgramRunner, type ProgramPlan } from "./harness";

const ROOT = path.join(__dirname, "..");
const A = "team-a/controller-a";
const B = "team-b/controller-b";
let tmp: string;
let tree: string;
let emu: Emulator;
let runner: ProgramRunner;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pipeline-"));
  tree = path.join(tmp, "bundles");
  fs.cpSync(path.join(ROOT, "examples", "bundles"), tree, { recursive: true });
  emu = await startEmulator({ bundlesDir: tree });
  runner = await ProgramRunner.start({
    cwd: path.join(ROOT, "examples", "pipeline"),
    config: {
      ...emulatorStackConfig(emu),
      "pipeline:bundlesDir": tree,
      "pipeline:controllers": JSON.stringify({
        [A]: { bundle: "team-a", url: emu.controllerUrls[A] },
        [B]: { bundle: "team-b", url: emu.controllerUrls[B] },
      }),
    },
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

describe("the bundles-as-code pipeline example", () => {
  jest.setTimeout(40_000);
  let good: string;

  it("a bundle with a reference to a missing file fails at BundleValidation with the server's message; nothing is assigned or reloaded", async () => {
    good = fs.readFileSync(descriptor(), "utf8");
    fs.writeFileSync(descriptor(), good.replace('  - "jenkins.yaml"', '  - "jenkins.yaml"\n  - "missing.yaml"'));
    emu.journal.clear();
    const error = (await runner.up().catch((e: unknown) => e)) as ProgramRunError;
    expect(error).toBeInstanceOf(ProgramRunError);
    expect(error.message).toContain("creating BundleValidation");
    expect(error.message).toContain("Bundle 'main/team-b' references the missing file 'missing.yaml' in section 'jcasc'");
    // Only the validation ran: no check-out, availability, assignment, token or reload.
    expect(posts()).toEqual(["/cjoc/casc-bundle/pre-validate-bundle"]);
    expect(emu.state.assignments()).toEqual({});
    expect(emu.state.apiAvailabilityPatterns()).toEqual({});
    expect(emu.state.appliedBundle(B)).toBeNull();
    expect(runner.state().resources).toEqual([]);
  });

  it("once the bundle is fixed, up runs the whole pipeline: each controller reloads its bundle; link files are secrets", async () => {
    fs.writeFileSync(descriptor(), good);
    const plan = await runner.up();
    expect(new Set(plan.map((e) => e.op))).toEqual(new Set(["create"]));
    expect(emu.state.assignments()).toEqual({ [A]: "team-a", [B]: "team-b" });
    expect(emu.state.apiAvailabilityPatterns()).toEqual({ "team-a": "^(?:team-a/controller-a)$", "team-b": "^(?:team-b/controller-b)$" });
    expect(emu.state.appliedBundle(A)).toMatchObject({ bundle: "team-a" });
    expect(emu.state.appliedBundle(B)).toMatchObject({ bundle: "team-b" });
    const outputs = runner.outputs();
    expect(outputs.checkedOut).toEqual(["base", "team-a", "team-b"]);
    expect(outputs.reloads).toEqual({
      [A]: { reloaded: true, version: emu.state.appliedBundle(A)!.version },
      [B]: { reloaded: true, version: emu.state.appliedBundle(B)!.version },
    });
    expect(isSecret(outputs.linkFiles)).toBe(true);
    const link = runner.state().resources.find((r) => r.name === "link-team-b-controller-b")!;
    expect(isSecret(link.outputs.token)).toBe(true);
    expect(isSecret(link.outputs.linkFileContent)).toBe(true);
    expect(JSON.stringify(runner.state())).not.toContain(emu.credentials.admin.apiToken);
  });

  it("a second up with the bundles unchanged changes nothing and sends no write", async () => {
    emu.journal.clear();
    const plan = await runner.up();
    expect(new Set(plan.map((e) => e.op))).toEqual(new Set(["same"]));
    expect(posts()).toEqual([]);
  });

  it("a change to a bundle validates, checks out and reloads again; only its controller gets a new version", async () => {
    const file = path.join(tree, "team-b", "jenkins.yaml");
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace('labelString: "team-b"', 'labelString: "team-b linux"'));
    const beforeA = emu.state.appliedBundle(A)!.version;
    const beforeB = emu.state.appliedBundle(B)!.version;
    emu.journal.clear();
    const plan = await runner.up();
    expect(ops(plan)).toMatchObject({
      bundles: "update",
      checkout: "update",
      "available-team-b": "same",
      "assign-team-b-controller-b": "same",
      "link-team-b-controller-b": "same",
      "reload-team-b-controller-b": "update",
      "reload-team-a-controller-a": "update",
    });
    expect(posts()).toEqual(
      expect.arrayContaining([
        "/cjoc/casc-bundle/pre-validate-bundle",
        "/cjoc/casc-bundle/check-out",
        "/controllers/team-b/controller-b/casc-bundle-mgnt/reload-bundle",
      ]),
    );
    // team-a's controller was checked, found nothing new, and was not reloaded.
    expect(posts()).not.toContain("/controllers/team-a/controller-a/casc-bundle-mgnt/reload-bundle");
    expect(emu.state.appliedBundle(A)!.version).toBe(beforeA);
    expect(emu.state.appliedBundle(B)!.version).not.toBe(beforeB);
    expect(runner.outputs().reloads).toMatchObject({ [A]: { reloaded: false }, [B]: { reloaded: true } });
  });
});
