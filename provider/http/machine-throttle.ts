/**
 * The feature-flag service's spacing, shared by every process on this machine: two stacks deploying at once on one
 * runner (two provider hosts) must not together exceed one request per second, or the service answers 555.
 *
 * The service counts requests per client IP, so the gate is per service (base URL), whatever the account: a small
 * lock file in the OS temp folder, named by a hash of the base URL, held for one request (the wait for the interval
 * included), and a file beside it with the time the last request finished. Within the process, requests still queue
 * on throttle.ts's gate first, so only one of them at a time takes part in the file lock.
 *
 * Nothing here can fail a request: a temp folder that cannot be used leaves the per-process spacing alone. A lock
 * left by a process that died, or held longer than any request may take, is broken.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { sleep, throttled } from "./throttle";

/** How often a waiting process looks at the lock again. */
const POLL_MS = 5;
/** A lock older than this is stale whoever holds it: a request's deadline is far shorter. */
const STALE_MS = 10 * 60_000;

/** Runs `task` once no process of this machine has finished a request to `baseUrl` within `intervalMs`. */
export function throttledOnThisMachine<T>(baseUrl: string, intervalMs: number, task: () => Promise<T>): Promise<T> {
  return throttled(baseUrl, intervalMs, async () => {
    const files = lockFiles(baseUrl);
    const held = await acquire(files.lock);
    try {
      for (let wait = lastFinishedAt(files.last) + intervalMs - Date.now(); wait > 0; wait = lastFinishedAt(files.last) + intervalMs - Date.now()) {
        await sleep(wait);
      }
      return await task();
    } finally {
      if (held) {
        writeQuietly(files.last, String(Date.now()));
        try {
          fs.rmSync(files.lock, { force: true });
        } catch {
          // Left behind: it goes stale with this process.
        }
      }
    }
  });
}

/** The lock and last-request files of a service (the name is a hash: no URL, no credential in file names). */
export function lockFiles(baseUrl: string): { lock: string; last: string } {
  const id = createHash("sha256").update(baseUrl).digest("hex").slice(0, 24);
  const stem = path.join(os.tmpdir(), `pulumi-cloudbees-throttle-${id}`);
  return { lock: `${stem}.lock`, last: `${stem}.last` };
}

/** Takes the lock; false when the temp folder cannot hold one (the request then goes on without it). */
async function acquire(lock: string): Promise<boolean> {
  for (;;) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: "wx" });
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") return false;
    }
    if (isStale(lock)) {
      try {
        fs.rmSync(lock, { force: true });
      } catch {
        return false;
      }
      continue;
    }
    await sleep(POLL_MS);
  }
}

function isStale(lock: string): boolean {
  let holder: number;
  let age: number;
  try {
    holder = Number(fs.readFileSync(lock, "utf8"));
    age = Date.now() - fs.statSync(lock).mtimeMs;
  } catch {
    return false; // released meanwhile: the next attempt takes it
  }
  if (age > STALE_MS) return true;
  // Written but not yet filled in: its holder is alive.
  if (!Number.isInteger(holder) || holder <= 0 || holder === process.pid) return false;
  try {
    process.kill(holder, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ESRCH";
  }
}

function lastFinishedAt(file: string): number {
  try {
    const at = Number(fs.readFileSync(file, "utf8"));
    return Number.isFinite(at) ? at : 0;
  } catch {
    return 0;
  }
}

function writeQuietly(file: string, text: string): void {
  try {
    fs.writeFileSync(file, text);
  } catch {
    // The next request then waits only for this process's own spacing.
  }
}
