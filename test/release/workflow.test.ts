/**
 * Issue 45: the release workflow is checked as GitHub would run it, by actionlint (rhysd/actionlint, a Go module,
 * built once into the cache beside the Pulumi CLI's: ~/.cache/pulumi-cloudbees/actionlint/<version>), which also
 * runs shellcheck-free checks of every `run:` script's expressions. And it releases what `npm run release` makes.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const ROOT = path.join(__dirname, "..", "..");
const WORKFLOW = path.join(ROOT, ".github", "workflows", "release.yml");
const ACTIONLINT_VERSION = "v1.7.12";

function actionlint(): string {
  const dir = path.join(process.env.PULUMI_CLOUDBEES_CLI_CACHE ?? path.join(os.homedir(), ".cache", "pulumi-cloudbees"), "actionlint", ACTIONLINT_VERSION);
  const bin = path.join(dir, "actionlint");
  if (!fs.existsSync(bin)) {
    execFileSync("go", ["install", `github.com/rhysd/actionlint/cmd/actionlint@${ACTIONLINT_VERSION}`], { env: { ...process.env, GOBIN: dir }, stdio: "pipe" });
  }
  return bin;
}

it("actionlint finds nothing in .github/workflows/release.yml", () => {
  let out = "";
  try {
    out = execFileSync(actionlint(), ["-no-color", "-shellcheck=", "-pyflakes=", WORKFLOW], { cwd: ROOT, encoding: "utf8", stdio: "pipe" });
  } catch (e) {
    out = String((e as { stdout?: string }).stdout ?? e);
  }
  expect(out).toBe("");
}, 120_000);

it("the workflow runs npm run release on each platform the engine downloads for, and releases on a v tag", () => {
  const text = fs.readFileSync(WORKFLOW, "utf8");
  expect(text).toContain('tags: ["v*"]');
  for (const platform of ["linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64", "windows-amd64", "windows-arm64"]) expect(text).toContain(`platform: ${platform}`);
  expect(text).toContain("npm run release -- --plugin-only");
  expect(text).toContain("--checksums dist/release");
});
