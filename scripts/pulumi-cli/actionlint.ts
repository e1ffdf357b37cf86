/**
 * actionlint (rhysd/actionlint, a Go module), built once into the cache beside the CLI, as the Go SDK floors are
 * fetched: the tier's test of .github/workflows/release.yml runs it (test/real-engine/release-workflow.test.ts).
 * Only `npm run pulumi-cli` reaches the Go module proxy; the tests send nothing off loopback.
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

export async function buildActionlint(say: (message: string) => void): Promise<void> {
  const bin = actionlintPath();
  if (fs.existsSync(bin)) return;
  say(`building actionlint ${ACTIONLINT_VERSION} (Go module proxy), for the release workflow's check`);
  execFileSync("go", ["install", `github.com/rhysd/actionlint/cmd/actionlint@${ACTIONLINT_VERSION}`], {
    env: { ...process.env, GOBIN: path.dirname(bin) },
    stdio: ["ignore", "pipe", "pipe"],
  });
}
