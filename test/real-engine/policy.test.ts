/**
 * Issue 46 under the real Pulumi CLI, on the dynamic providers: `pulumi preview --policy-pack policy` and `pulumi up`
 * on a TypeScript program holding one resource that breaks each policy of the pack (test/real-engine/programs/policy,
 * `guard:mode violating`), then on their compliant twins. Every policy reports, naming the resource and the fix; the
 * mandatory ones stop preview and up before anything is written (the emulator's journal holds no write);
 * `--policy-pack-config` turns a policy advisory and gives settings that let resources through; a user's own pack
 * (programs/policy-own-pack) of two of the policies, one with settings of its own, reports only what they leave.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { execFileSync } from "node:child_process";
import { parse } from "yaml";
import { startEmulator, type Emulator } from "../../emulator";
import { emulatorStackConfig } from "../../testing/emulator-config";
import { PulumiCliRunner } from "../../testing";
import { realCli, TIER_ENV } from "./life-cycle";
import { expectReports, PACK, policyReport, writes } from "./policy-expect";

const ROOT = path.join(__dirname, "..", "..");
const PROGRAM = path.join(__dirname, "programs", "policy");
/** A user's own pack of two of the policies (pulumi-cloudbees/policy), one with settings of its own. */
const OWN_PACK = path.join(__dirname, "programs", "policy-own-pack");

let emu: Emulator;
let runner: PulumiCliRunner;
let scratch: string;

beforeAll(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "policy-"));
  emu = await startEmulator({ bundlesDir: path.join(ROOT, "examples", "bundles"), controllers: ["team-a/controller-a"] });
  runner = await PulumiCliRunner.start({
    cwd: PROGRAM,
    config: { ...emulatorStackConfig(emu), "guard:mode": "violating", "guard:bundlesDir": path.join(ROOT, "examples", "bundles") },
    cli: realCli(),
    env: TIER_ENV,
  });
});
afterAll(async () => {
  await runner?.close();
  await emu?.close();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

const text = (r: { stdout: string; stderr: string }) => `${r.stdout}\n${r.stderr}`;
let violatingPreview = "";

/** The drift workflow's Summary step (examples/pipelines/drift-detection.yml), run by bash on a preview's log. */
function driftSummary(log: string): string {
  const workflow = parse(fs.readFileSync(path.join(ROOT, "examples", "pipelines", "drift-detection.yml"), "utf8")) as { jobs: Record<string, { steps: { name?: string; run?: string }[] }> };
  const script = Object.values(workflow.jobs)[0]!.steps.find((s) => s.name === "Summary")!.run!;
  const temp = fs.mkdtempSync(path.join(scratch, "runner-"));
  fs.writeFileSync(path.join(temp, "preview.log"), log);
  const summary = path.join(temp, "summary.md");
  execFileSync("bash", ["-e", "-c", script], { env: { PATH: process.env.PATH, RUNNER_TEMP: temp, GITHUB_STEP_SUMMARY: summary, STACK: "prod" } });
  return fs.readFileSync(summary, "utf8");
}

it("each policy reports its violating resource and the fix; the mandatory ones stop preview and up before any write", async () => {
  emu.journal.clear();
  const preview = await runner.run(["preview", "--policy-pack", PACK]);
  expect(preview.code).not.toBe(0);
  expectReports(text(preview), "dynamic");
  violatingPreview = text(preview);
  // The controllers' policy, on the dynamic face only (the plugin's program has no ControllerConfiguration).
  expect(policyReport(text(preview))).toMatch(
    /\[mandatory\]\s+cloudbees-controller-ignore-security\s+\([^)\n]*open-controller\)\n.*\n.*ignores "jenkins.yaml: jenkins.agentProtocols" \(the agent protocols\), "jenkins.yaml: credentials" \(the credentials\): /,
  );
  // The value it cannot see in preview, said once (advisory), naming the resource.
  expect(text(preview).match(/can't run policy 'cloudbees-bundle-validated'[^\n]*it cannot see bundleId of ControllerBundleAssignment "unknown-bundle"/g)).toHaveLength(1);
  const up = await runner.run(["up", "--yes", "--policy-pack", PACK]);
  expect(up.code).not.toBe(0);
  expect(text(up)).toContain("cloudbees-bundle-validated");
  expect(writes(emu)).toEqual([]);
});

it("--policy-pack-config turns a policy advisory and its settings let resources through", async () => {
  const config = path.join(scratch, "policy-config.json");
  fs.writeFileSync(
    config,
    JSON.stringify({
      "cloudbees-bundle-validated": "advisory",
      "cloudbees-assignment-fallback": "disabled",
      "cloudbees-availability-narrow": { allowedBundles: ["team-a"] },
      "cloudbees-flag-target-groups": { externalGroups: ["ghosts"] },
      "cloudbees-team-admins": { adminEmails: ["DEV@example.com"] },
      "cloudbees-flag-protected-environments": { protectedEnvironments: ["Live"] },
    }),
  );
  const preview = await runner.run(["preview", "--policy-pack", PACK, "--policy-pack-config", config]);
  const out = policyReport(text(preview));
  // What is left: the global switch (no setting exempts it), and the advisory ones.
  expect(out).toMatch(/\[advisory\]\s+cloudbees-bundle-validated/);
  expect(out).not.toContain("cloudbees-assignment-fallback");
  expect(out).not.toContain("everyone-availability");
  expect(out).not.toContain("ghosts");
  expect(out).not.toContain("developer-admin");
  expect(out).not.toMatch(/\[mandatory\]\s+cloudbees-flag-protected-environments/);
  expect(out).toMatch(/\[mandatory\]\s+cloudbees-availability-narrow[\s\S]*global-switch/);
  expect(preview.code).not.toBe(0);
});

it("a user's own pack of two of them, one with its own settings, reports what those settings leave, at the levels it chose", async () => {
  const preview = await runner.run(["preview", "--policy-pack", OWN_PACK]);
  const out = policyReport(text(preview));
  expect(text(preview)).toContain("acme-guardrails@v1.0.0");
  // The two policies of the pack, nothing of the others.
  expect([...new Set([...out.matchAll(/- \[(\w+)\]\s+(\S+)/g)].map((m) => `${m[1]} ${m[2]}`))].sort()).toEqual([
    "advisory cloudbees-team-admins",
    "mandatory cloudbees-controller-ignore-security",
  ]);
  // allowedPaths lets the agent protocols through; the credentials still stop the preview.
  expect(out).toContain('ControllerConfiguration "open-controller" ignores "jenkins.yaml: credentials" (the credentials): ');
  expect(out).not.toContain("agentProtocols");
  expect(out).toMatch(/\[advisory\]\s+cloudbees-team-admins\s+\([^)\n]*developer-admin\)/);
  expect(preview.code).not.toBe(0);
});

it("the compliant twins pass: preview reports no mandatory violation", async () => {
  runner.setConfig("guard:mode", "compliant");
  const preview = await runner.run(["preview", "--policy-pack", PACK]);
  expect(policyReport(text(preview))).toBe("");
  expect(preview.code).toBe(0);
});

it("the drift workflow's summary says a policy stopped the stack, apart from drift and from a run that could not start", () => {
  expect(violatingPreview).not.toBe("");
  const summary = driftSummary(violatingPreview);
  expect(summary).toContain("### A policy of the pack stops stack `prod`");
  expect(summary).toMatch(/\[mandatory\]\s+cloudbees-availability-narrow/);
  expect(summary).not.toContain("could not run");
  expect(driftSummary("error: could not connect")).toContain("could not run");
});
