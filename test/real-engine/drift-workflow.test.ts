/**
 * The drift job of examples/pipelines checked as GitHub would run it, by actionlint (the release workflow's checker,
 * test/real-engine/release-workflow.test.ts): its expressions (`env.PROJECT_DIR` in the job's defaults, the secrets
 * of both backends), runner labels and action inputs (setup-node's cache-dependency-path). shellcheck and pyflakes
 * left out, as there.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { lintWorkflow as lint } from "../../scripts/pulumi-cli/actionlint";

const ROOT = path.join(__dirname, "..", "..");
const WORKFLOW = path.join(ROOT, "examples", "pipelines", "drift-detection.yml");

it("actionlint finds nothing in examples/pipelines/drift-detection.yml", () => {
  expect(lint(WORKFLOW)).toBe("");
}, 120_000);

it("and finds a context the job's defaults cannot read (the check can fail)", () => {
  const broken = path.join(fs.mkdtempSync(path.join(ROOT, ".drift-workflow-")), "drift-detection.yml");
  try {
    fs.writeFileSync(broken, fs.readFileSync(WORKFLOW, "utf8").replace("${{ env.PROJECT_DIR }} #", "${{ steps.drift.outputs.dir }} #"));
    expect(lint(broken)).toMatch(/context "steps" is not allowed here/);
  } finally {
    fs.rmSync(path.dirname(broken), { recursive: true, force: true });
  }
}, 120_000);

it("actionlint finds nothing in examples/pipelines/estate-drift.yml (the sharded estate recipe)", () => {
  expect(lint(path.join(ROOT, "examples", "pipelines", "estate-drift.yml"))).toBe("");
}, 120_000);
