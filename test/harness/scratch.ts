import * as fs from "node:fs";

/** The variable naming the suite's scratch folder (test/global-setup.ts makes it, test/global-teardown.ts removes it). */
export const SCRATCH_VARIABLE = "PULUMI_CLOUDBEES_TEST_SCRATCH";

/** A RAM disk with room for the suite's scratch (two installed projects are some 250 MB), if the machine has one. */
export function ramDisk(): string | undefined {
  const ram = "/dev/shm";
  try {
    fs.accessSync(ram, fs.constants.W_OK);
    const { bavail, bsize } = fs.statfsSync(ram);
    return bavail * bsize >= 2 * 1024 ** 3 ? ram : undefined;
  } catch {
    return undefined;
  }
}
