/**
 * Runs once before the test files (jest's globalSetup), whose workers inherit its environment:
 * - serializes the provider shells' texts for all of them (test/harness/provider-texts.ts says why), in a file named
 *   by a variable; global-teardown.ts removes it;
 * - blanks NODE_EXTRA_CA_CERTS: the suite talks only to loopback, trusting the CAs it makes itself, and Node reads
 *   a machine's extra CA bundle at the start of every process (about 0.1 s of CPU each; the suite starts some two
 *   hundred: provider hosts, programs, CLIs).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PROVIDER_TEXTS_FILE_VARIABLE, writeProviderTexts } from "./harness/provider-texts";
import { closeSerializerSession } from "./harness/serialize";

export default async function globalSetup(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-cloudbees-jest-"));
  const file = path.join(dir, "provider-texts.json");
  await writeProviderTexts(file);
  await closeSerializerSession();
  process.env[PROVIDER_TEXTS_FILE_VARIABLE] = file;
  process.env.NODE_EXTRA_CA_CERTS = "";
}
