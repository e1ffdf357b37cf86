/** Removes the suite's scratch folder (global-setup.ts made it), with whatever the tests left in it. */
import * as fs from "node:fs";
import { SCRATCH_VARIABLE } from "./harness/scratch";

export default function globalTeardown(): void {
  const scratch = process.env[SCRATCH_VARIABLE];
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
}
