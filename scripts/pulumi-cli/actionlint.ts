/**
 * The release's tools, fetched once into the cache beside the CLI, as the Go SDK floors are (outside the CLI's build
 * recipe, so that adding them does not rebuild the CLI): actionlint (rhysd/actionlint, a Go module), which the tier's
 * test of .github/workflows/release.yml runs, and the wheels of `build`, with which the tier makes a release's Python
 * SDK offline. Only `npm run pulumi-cli` reaches the Go module proxy and PyPI; the tests send nothing off loopback.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { pulumiCliCacheRoot } from "../../testing/cli/pulumi-cli";

export const ACTIONLINT_VERSION = "v1.7.12";

/** Where the built actionlint is (it may not be there yet). */
export function actionlintPath(): string {
  return path.join(pulumiCliCacheRoot(), "actionlint", ACTIONLINT_VERSION, "actionlint");
}

/** `build` and what it needs as wheels in `wheels` (the CLI cache's python-wheels), unless they are there. */
export function downloadBuildWheels(wheels: string, say: (message: string) => void): void {
  if (!fs.existsSync(wheels) || fs.readdirSync(wheels).some((f) => /^build-.*\.whl$/.test(f))) return;
  say("downloading the wheels of build (PyPI), with which a release's Python SDK is made offline");
  execFileSync("python3", ["-m", "pip", "download", "--disable-pip-version-check", "--only-binary=:all:", "--dest", wheels, "build"], { stdio: ["ignore", "pipe", "pipe"] });
}

/**
 * actionlint's findings in the workflow `file` ("" when none), as GitHub would read it: expressions, runner labels,
 * action inputs (shellcheck and pyflakes left out: not in the cache).
 */
export function lintWorkflow(file: string): string {
  const bin = actionlintPath();
  if (!fs.existsSync(bin)) throw new Error(`no actionlint at ${bin}: run \`npm run pulumi-cli\` (it builds it once)`);
  try {
    return execFileSync(bin, ["-no-color", "-shellcheck=", "-pyflakes=", file], { cwd: path.dirname(file), encoding: "utf8", stdio: "pipe" });
  } catch (e) {
    return String((e as { stdout?: string }).stdout ?? e);
  }
}

export async function buildActionlint(say: (message: string) => void): Promise<void> {
  const bin = actionlintPath();
  if (fs.existsSync(bin)) return;
  say(`building actionlint ${ACTIONLINT_VERSION} (Go module proxy), for the release workflow's check`);
  execFileSync("go", ["install", `github.com/rhysd/actionlint/cmd/actionlint@${ACTIONLINT_VERSION}`], {
    env: { ...process.env, GOBIN: path.dirname(bin) },
    stdio: ["ignore", "pipe", "pipe"],
  });
}
