/**
 * Issue 45: the release workflow is checked as GitHub would run it, by actionlint (rhysd/actionlint, a Go module that
 * `npm run pulumi-cli` builds into its cache: scripts/pulumi-cli/actionlint.ts), its expressions, runner labels and
 * action inputs (shellcheck and pyflakes left out). And it releases what `npm run release` makes.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { lintWorkflow } from "../../scripts/pulumi-cli/actionlint";

const ROOT = path.join(__dirname, "..", "..");
const WORKFLOW = path.join(ROOT, ".github", "workflows", "release.yml");

it("actionlint finds nothing in .github/workflows/release.yml", () => {
  expect(lintWorkflow(WORKFLOW)).toBe("");
}, 120_000);

it("the workflow runs npm run release on each platform the engine downloads for, and releases on a v tag", () => {
  const text = fs.readFileSync(WORKFLOW, "utf8");
  expect(text).toContain('tags: ["v*"]');
  for (const platform of ["linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64", "windows-amd64", "windows-arm64"]) expect(text).toContain(`platform: ${platform}`);
  expect(text).toContain("npm run release -- --plugin-only");
  expect(text).toContain("--checksums dist/release");
});
