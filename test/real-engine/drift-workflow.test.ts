/**
 * The drift job of examples/pipelines checked as GitHub would run it, by actionlint (the release workflow's checker,
 * test/real-engine/release-workflow.test.ts): its expressions (`env.PROJECT_DIR` in the job's defaults, the secrets
 * of both backends), runner labels and action inputs (setup-node's cache-dependency-path). shellcheck and pyflakes
 * left out, as there. The estate and flag-hygiene recipes beside it likewise (the latter's `runner.temp` in action
 * inputs, its steps' outputs in `if:` and `env:`).
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

it("actionlint finds nothing in examples/pipelines/flag-hygiene.yml (the weekly flags report)", () => {
  expect(lint(path.join(ROOT, "examples", "pipelines", "flag-hygiene.yml"))).toBe("");
}, 120_000);

it("and finds an output read from a step id the job does not have", () => {
  const dir = fs.mkdtempSync(path.join(ROOT, ".drift-workflow-"));
  const broken = path.join(dir, "flag-hygiene.yml");
  try {
    const text = fs.readFileSync(path.join(ROOT, "examples", "pipelines", "flag-hygiene.yml"), "utf8");
    expect(text).toContain("if: steps.flags.outputs.code == '1'");
    fs.writeFileSync(broken, text.replace("if: steps.flags.outputs.code == '1'", "if: steps.flag.outputs.code == '1'"));
    expect(lint(broken)).toMatch(/property "flag" is not defined/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
