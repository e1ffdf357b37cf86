/**
 * What test/global-setup.ts gives every test file: its scratch folder as the temporary folder, and no extra CAs.
 * It loads no @pulumi/pulumi (whose runtime state on the global object of jest's own process, which in-band test
 * files see, would follow them).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ramDisk, SCRATCH_VARIABLE } from "./harness/scratch";

it("the temporary folder of every worker, and of the processes it starts, is the suite's scratch folder", () => {
  const scratch = process.env[SCRATCH_VARIABLE];
  expect(scratch).toEqual(expect.stringContaining(`${path.sep}pulumi-cloudbees-jest-`));
  expect(os.tmpdir()).toBe(scratch);
  expect(process.env.TMPDIR).toBe(scratch);
  expect(fs.statSync(scratch!).isDirectory()).toBe(true);
  // On the RAM disk where the machine has one with room (this one has: /dev/shm); elsewhere in the usual tmpdir,
  // which a worker no longer sees (its tmpdir is the scratch folder).
  const ram = ramDisk();
  if (ram) expect(path.dirname(scratch!)).toBe(ram);
  expect(process.env.NODE_EXTRA_CA_CERTS).toBe("");
});
