/**
 * The real Pulumi CLI as the commands run it over many stacks (`drift`, `flags --stacks`): a child process per command
 * in the stack's folder, in a process group of its own that its deadline stops whole (the language host and plugins
 * with it), its output kept to its end; never `pulumi stack select`, never a shared workspace file.
 */
import { execFileSync, spawn } from "node:child_process";

export interface ChildResult {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** The CLI's words for a stack that is not there. */
export const NO_STACK = /no stack named '([^']*)' found/;

/** Options every command gives the CLI: no update check; the caller's `env` over the process's. */
export function pulumiEnvironment(env?: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...process.env, ...env, PULUMI_SKIP_UPDATE_CHECK: "true" };
}

/**
 * Runs `command args` in `cwd` to its end or its deadline. Output is kept to its last `keepBytes` per stream (64 KiB
 * by default: a report keeps only the end of an error); a caller that reads the output (`stack export`) asks for more.
 */
export function runChild(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number, keepBytes = 65536): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    // Its own process group, so that the deadline stops the language host and plugins with it.
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    const out: Buffer[] = [];
    let outBytes = 0;
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      out.push(d);
      outBytes += d.length;
      while (outBytes - out[0]!.length >= keepBytes) outBytes -= out.shift()!.length;
    });
    child.stderr.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-65536)));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, timeoutMs);
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      const all = Buffer.concat(out);
      resolve({ code, stdout: all.subarray(Math.max(0, all.length - keepBytes)).toString(), stderr, timedOut });
    });
  });
}

function killGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/** The last 20 lines that are not blank. */
export function lastLines(text: string): string {
  return text.trim().split("\n").filter((l) => l.trim()).slice(-20).join("\n");
}

/** Whether `pulumi` answers `pulumi version`: without a CLI nothing can run, said once rather than per stack. */
export function answersVersion(pulumi: string): boolean {
  try {
    execFileSync(pulumi, ["version"], { stdio: "ignore", timeout: 30_000, env: pulumiEnvironment() });
    return true;
  } catch {
    return false;
  }
}

/** The message when it does not. */
export function noPulumiMessage(pulumi: string): string {
  return `the Pulumi CLI ${JSON.stringify(pulumi)} does not answer \`pulumi version\`: install Pulumi (https://www.pulumi.com/docs/install/) or give its path with --pulumi`;
}
