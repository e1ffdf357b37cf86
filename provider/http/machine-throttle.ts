/**
 * The feature-flag service's spacing, shared by every process on this machine: two stacks deploying at once on one
 * runner (two provider hosts) must not together exceed one request per second, or the service answers 555.
 *
 * The service counts requests per client IP, so the gate is per service (base URL), whatever the account: a small
 * lock file, named by a hash of the base URL, held for one request (the wait for the interval included), and a file
 * beside it with the time the last request finished. Within the process, requests still queue on throttle.ts's gate
 * first, so only one of them at a time takes part in the file lock.
 *
 * The OS temp folder is shared with every user of the machine (a CI runner), so the files live in a folder of this
 * user's own inside it, created 0700 and refused when it is not (another owner, others may write, a link); they are
 * written by exclusive create and rename, never through a link. Every wait is bounded: the spacing wait by the
 * interval (a last-request time in the future, from a clock stepped back, counts as now), the lock wait by the
 * longest a holder may take; a lock held longer is reported with its path and what to do. A folder that cannot be
 * made (a read-only temp folder) leaves the per-process spacing alone.
 */
import { createHash, randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LocalFileError } from "./errors";
import { sleep, throttled } from "./throttle";

/** How often a waiting process looks at the lock again. */
const POLL_MS = 5;
/** Longest a request holds the lock when the caller does not say (its deadline and the interval are far shorter). */
const DEFAULT_HOLD_MS = 2 * 60_000;
/** A holder that declared a longer hold (another stack's longer deadline) is waited on up to this many holdMs. */
const MAX_PATIENCE = 4;

export interface MachineThrottleOptions {
  /**
   * Longest a holder may keep the lock: the interval and one request's deadline. A lock whose content stays the
   * same for longer is reported (LocalFileError) instead of waited on.
   */
  holdMs?: number;
}

/** Runs `task` once no process of this machine has finished a request to `baseUrl` within `intervalMs`. */
export function throttledOnThisMachine<T>(
  baseUrl: string,
  intervalMs: number,
  task: () => Promise<T>,
  options: MachineThrottleOptions = {},
): Promise<T> {
  const holdMs = options.holdMs ?? DEFAULT_HOLD_MS;
  return throttled(baseUrl, intervalMs, async () => {
    const files = lockFiles(baseUrl);
    const held = ownFolder(files.dir) && (await acquire(files.lock, holdMs));
    try {
      // At most one interval, whatever the file says: a time in the future counts as now.
      const until = Math.min(lastFinishedAt(files.last) + intervalMs, Date.now() + intervalMs);
      for (let wait = until - Date.now(); wait > 0; wait = until - Date.now()) await sleep(wait);
      return await task();
    } finally {
      if (held) {
        writeQuietly(files.last, String(Date.now()));
        try {
          fs.rmSync(files.lock, { force: true });
        } catch {
          // Left behind: it is broken once this process has gone.
        }
      }
    }
  });
}

/** This user's folder of throttle files in the OS temp folder. */
export function throttleFolder(): string {
  const user = typeof process.getuid === "function" ? String(process.getuid()) : os.userInfo().username;
  return path.join(os.tmpdir(), `pulumi-cloudbees-${user}`);
}

/** The lock and last-request files of a service (the name is a hash: no URL, no credential in file names). */
export function lockFiles(baseUrl: string): { dir: string; lock: string; last: string } {
  const id = createHash("sha256").update(baseUrl).digest("hex").slice(0, 24);
  const dir = throttleFolder();
  return { dir, lock: path.join(dir, `throttle-${id}.lock`), last: path.join(dir, `throttle-${id}.last`) };
}

/**
 * Makes the folder (0700) or checks the one there: true when it is this user's own; false when none can be made
 * (the request goes on with the per-process spacing); a LocalFileError when one is there that is not ours.
 */
function ownFolder(dir: string): boolean {
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") return false;
  }
  let st: fs.Stats;
  try {
    st = fs.lstatSync(dir);
  } catch {
    return false;
  }
  const fix = `Remove it (rm -r '${dir}'): it is made again, for this user only (mode 0700).`;
  if (!st.isDirectory()) throw new LocalFileError(dir, `the throttle folder ${dir} is not a folder of its own (a link or a file)`, fix);
  if (process.platform === "win32") return true; // no POSIX owner or mode: the user's temp folder is private there
  if (typeof process.getuid === "function" && st.uid !== process.getuid()) {
    throw new LocalFileError(dir, `the throttle folder ${dir} belongs to another user (uid ${st.uid})`, fix);
  }
  if ((st.mode & 0o022) !== 0) {
    throw new LocalFileError(dir, `the throttle folder ${dir} has mode ${(st.mode & 0o777).toString(8)}: others can write to it`, fix);
  }
  return true;
}

/**
 * Takes the lock (`<pid> <time it will be released by at the latest>`); false when the folder cannot hold one. A
 * lock of a process that has gone is broken. A live holder is waited on for as long as it declared (another stack
 * may have a longer deadline), at least `holdMs` and at most MAX_PATIENCE times `holdMs` (a forged or stuck lock):
 * past that, the lock is reported with its path and what to do.
 */
async function acquire(lock: string, holdMs: number): Promise<boolean> {
  let seen: { content: string; until: number } | undefined;
  for (;;) {
    try {
      fs.writeFileSync(lock, `${process.pid} ${Date.now() + holdMs}`, { flag: "wx", mode: 0o600 });
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") return false;
    }
    const content = readQuietly(lock);
    if (content === undefined) continue; // released meanwhile: the next attempt takes it
    const [pid, releaseBy] = content.split(" ").map(Number);
    if (hasGone(pid!)) {
      try {
        fs.rmSync(lock, { force: true });
      } catch {
        return false;
      }
      continue;
    }
    const now = Date.now();
    if (seen?.content !== content) {
      const declared = Number.isFinite(releaseBy) ? releaseBy! - now : 0;
      seen = { content, until: now + Math.min(Math.max(holdMs, declared), MAX_PATIENCE * holdMs) };
    } else if (now > seen.until) {
      const who = Number.isInteger(pid) && pid! > 0 ? `process ${pid}` : "an unknown process";
      throw new LocalFileError(
        lock,
        `the lock file ${lock} is held by ${who} for longer than it declared or any request takes (waited ${holdMs} ms at least)`,
        `If no other deployment with pulumi-cloudbees runs on this machine, delete ${lock} and run again.`,
      );
    }
    await sleep(POLL_MS);
  }
}

/**
 * Whether the lock's holder is a process that no longer exists (a holder not filled in yet is alive). A lock naming
 * this process is one an earlier process of the same id left (a container's pids repeat): this process's own requests
 * take the lock one at a time (throttle.ts), and release it.
 */
function hasGone(holder: number): boolean {
  if (holder === process.pid) return true;
  if (!Number.isInteger(holder) || holder <= 0) return false;
  try {
    process.kill(holder, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ESRCH";
  }
}

function readQuietly(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

function lastFinishedAt(file: string): number {
  const at = Number(readQuietly(file));
  return Number.isFinite(at) ? at : 0;
}

/** Written beside, then renamed over: a link planted at `file` is replaced, never followed. */
function writeQuietly(file: string, text: string): void {
  const temp = `${file}.${process.pid}.${randomBytes(6).toString("hex")}`;
  try {
    fs.writeFileSync(temp, text, { flag: "wx", mode: 0o600 });
    fs.renameSync(temp, file);
  } catch {
    // The next request then waits only for this process's own spacing.
    try {
      fs.rmSync(temp, { force: true });
    } catch {
      // nothing more to do
    }
  }
}
