/**
 * Runs once before the test files (jest's globalSetup): serializes the provider shells' texts for all of them
 * (test/harness/provider-texts.ts says why). The workers inherit the variable naming the file; global-teardown.ts
 * removes it.
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
}
