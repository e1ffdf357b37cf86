/**
 * What test/global-setup.ts gives every test file: its scratch folder as the temporary folder, no extra CAs, and no
 * @pulumi/pulumi state left on the global object of jest's own process (which in-band test files see).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { withoutNewGlobals } from "./harness/global-state";
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

it("global setup's work leaves no new property on the global object, and keeps those it found", async () => {
  const g = globalThis as Record<string, unknown>;
  g.foundBeforeSetup = "kept";
  try {
    // What @pulumi/pulumi's runtime does when it is first loaded and when setMocks runs (runtime/state.js).
    const result = await withoutNewGlobals(async () => {
      g.globalStore = { settings: { monitor: "a mock monitor" } };
      g.foundBeforeSetup = "changed";
      return "done";
    });
    expect(result).toBe("done");
    expect("globalStore" in g).toBe(false);
    expect(g.foundBeforeSetup).toBe("changed");
    // Also when the work fails.
    await expect(withoutNewGlobals(async () => {
      g.asyncLocalStorage = {};
      throw new Error("serializing failed");
    })).rejects.toThrow("serializing failed");
    expect("asyncLocalStorage" in g).toBe(false);
  } finally {
    delete g.foundBeforeSetup;
  }
});
