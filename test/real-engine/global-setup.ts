/**
 * The real-engine tier (`npm run test:pulumi`) starts only with a real Pulumi CLI: `npm run pulumi-cli` builds one,
 * or a `pulumi` on PATH of the lockfile's version or later. Its folder reaches the test files through a variable, and
 * so does the engine the stand-in's own tests run on.
 * The tier's temp files go to a scratch folder of its own (on a RAM disk where there is one), removed afterwards.
 * NODE_EXTRA_CA_CERTS is blanked, as npm test's global setup does: the tier reaches only loopback, trusting the CAs it
 * makes itself, and Node reads a machine's extra CA bundle at the start of every process (80 ms of CPU each on the
 * 2-core machine, whose bundle is Debian's whole one): the language host, program, provider host or plugin of every
 * step (59 processes in example-flags.test.ts alone).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { findPulumiCli, sdkVersion } from "../../testing/cli/pulumi-cli";
import { ramDisk, SCRATCH_VARIABLE } from "../harness/scratch";

export const CLI_DIR_VARIABLE = "PULUMI_CLOUDBEES_TEST_CLI_DIR";

export default function globalSetup(): void {
  const version = sdkVersion(path.join(__dirname, "..", ".."));
  const cli = findPulumiCli(version);
  if (!cli) {
    throw new Error(`the real-engine tier needs a Pulumi CLI v${version} or later: run \`npm run pulumi-cli\` first (it builds one, or finds one on PATH)`);
  }
  process.env[CLI_DIR_VARIABLE] = JSON.stringify(cli);
  // The engine stand-in's own tests (test/testing/engine-*.test.ts) run on the real CLI in this tier (engine-program.ts).
  process.env.PULUMI_CLOUDBEES_TEST_ENGINE = "pulumi";
  const scratch = fs.mkdtempSync(path.join(ramDisk() ?? os.tmpdir(), "pulumi-cloudbees-real-engine-"));
  process.env[SCRATCH_VARIABLE] = scratch;
  process.env.TMPDIR = scratch;
  process.env.NODE_EXTRA_CA_CERTS = "";
  // Every ts-node the suite's processes start (programs under the stand-in and the real CLI) without the compile cache
  // that processes running at once tear (nodejs/node#51555: V8 aborts reading a torn blob; seen under npm test).
  process.env.DISABLE_V8_COMPILE_CACHE = "1";
  console.log(`\nreal engine: pulumi v${cli.version} from ${cli.dir} (${cli.source})`);
}
