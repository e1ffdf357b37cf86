/** Removes what global-setup.ts wrote. */
import * as fs from "node:fs";
import * as path from "node:path";
import { PROVIDER_TEXTS_FILE_VARIABLE } from "./harness/provider-texts";

export default function globalTeardown(): void {
  const file = process.env[PROVIDER_TEXTS_FILE_VARIABLE];
  if (file) fs.rmSync(path.dirname(file), { recursive: true, force: true });
}
