/**
 * What the files of one jest run share (the real-engine tier's packed package, plugin archive, SDK wheel and Node.js
 * projects): `build(dir)` runs once per run, in the run's scratch folder, whichever test file asks first; the others
 * wait for it. Built once per run rather than once per file: the tier's files are many and its machine has two cores.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { SCRATCH_VARIABLE } from "./scratch";

const WAIT_MS = 15 * 60_000;

/** Resolves with the folder `build` made, once it is whole (a failure in the file that builds fails the waiters). */
export async function sharedOnce(name: string, build: (dir: string) => Promise<void>): Promise<string> {
  const scratch = process.env[SCRATCH_VARIABLE];
  if (!scratch) throw new Error(`${name} is shared through the scratch folder of a jest run (its global setup makes it)`);
  const dir = path.join(scratch, "shared", name);
  const done = path.join(dir, ".done");
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  try {
    // The folder is the lock: the file that makes it builds.
    fs.mkdirSync(dir);
  } catch {
    for (let waited = 0; !fs.existsSync(done); waited += 500) {
      if (fs.existsSync(path.join(dir, ".failed"))) throw new Error(`building ${name} failed in another test file`);
      if (waited > WAIT_MS) throw new Error(`waited ${WAIT_MS / 60_000} minutes for ${name}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    return dir;
  }
  try {
    await build(dir);
    fs.writeFileSync(done, "");
    return dir;
  } catch (e) {
    fs.writeFileSync(path.join(dir, ".failed"), String(e));
    throw e;
  }
}
