/**
 * Runs once before the test files (jest's globalSetup), whose workers inherit its environment:
 * - gives the suite a scratch folder of its own, on a RAM disk where the machine has one (/dev/shm), as TMPDIR for
 *   every worker and process it starts; global-teardown.ts removes it with whatever a test left there. The suite
 *   writes and deletes tens of thousands of files (the consumer test installs two projects; bundles, states and
 *   programs are copied to temporary folders), and on this kind of VM each file operation on disk costs several
 *   times its cost in memory: measured, an `npm ci` of the consumer project took 6 to 12 s of CPU on /tmp and 4 s
 *   on /dev/shm;
 * - blanks NODE_EXTRA_CA_CERTS: the suite talks only to loopback, trusting the CAs it makes itself, and Node reads
 *   a machine's extra CA bundle at the start of every process (about 0.1 s of CPU each; the suite starts some two
 *   hundred: provider hosts, programs, CLIs).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ramDisk, SCRATCH_VARIABLE } from "./harness/scratch";

export default async function globalSetup(): Promise<void> {
  const scratch = fs.mkdtempSync(path.join(ramDisk() ?? os.tmpdir(), "pulumi-cloudbees-jest-"));
  process.env[SCRATCH_VARIABLE] = scratch;
  process.env.TMPDIR = scratch;
  process.env.NODE_EXTRA_CA_CERTS = "";
  // Every ts-node the suite's processes start (programs under the stand-in and the real CLI) without the compile cache
  // that processes running at once tear (nodejs/node#51555: V8 aborts reading a torn blob; seen under npm test).
  process.env.DISABLE_V8_COMPILE_CACHE = "1";
}
