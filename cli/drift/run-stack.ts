/**
 * One stack's drift check: the real CLI's `pulumi preview --refresh --expect-no-changes --stack <stack>` in the
 * stack's folder, a child process of its own with its own event log (never `stack select`, never a shared workspace
 * file), killed at its deadline. What it says becomes the stack's status: clean, drifted, error, locked, timeout.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { bounded as boundedText } from "../report/text";
import { lastLines, NO_STACK, pulumiEnvironment, runChild } from "../stacks/run-pulumi";
import { projectFolderProblem, type StackTarget } from "../stacks/stacks-file";
import { readPreviewEvents } from "./events";
import { fileBackendLocks } from "./locks";
import { MAX_ERROR_CHARS, type StackReport } from "./report";

export interface RunOptions {
  pulumi: string;
  timeoutMs: number;
  env?: NodeJS.ProcessEnv;
}

/** The CLI's words for a stack another update holds: Pulumi Cloud's 409, a file backend's lock. */
const LOCKED = /the stack is currently locked|\[409\] Conflict|Another update is currently in progress/i;

export async function checkStack(t: StackTarget, o: RunOptions): Promise<StackReport> {
  const started = Date.now();
  const base = { id: t.id, folder: t.folder, stack: t.stack };
  const done = (status: StackReport["status"], rest: Partial<StackReport> = {}): StackReport => ({
    ...base,
    status,
    durationMs: Date.now() - started,
    counts: { resources: 0, drifted: 0, paths: 0 },
    ...rest,
  });
  const problem = projectFolderProblem(t);
  if (problem) return done("error", { error: bounded(problem) });
  // Previews run side by side: ts-node's compile cache, which their programs' processes tear, off unless set
  // (nodejs/node#51555: V8 aborts on a torn blob, and the stack would read as an error).
  const env = { DISABLE_V8_COMPILE_CACHE: "1", ...process.env, ...o.env };
  // A preview on a file backend takes no lock: a stack mid-update would be read half-written. Its lock files say so.
  const locks = fileBackendLocks(t.dir, t.stack, env);
  if (locks.length) return done("locked", { error: bounded(`the stack is currently locked by ${locks.length} lock(s) (${locks.join(", ")}): another update holds it`) });

  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-cloudbees-drift-"));
  const log = path.join(scratch, "events.jsonl");
  try {
    const args = ["preview", "--refresh", "--expect-no-changes", "--non-interactive", "--color", "never", "--stack", t.stack, "--event-log", log];
    // --event-log is among the CLI's debug commands' flags.
    const result = await runChild(o.pulumi, args, t.dir, pulumiEnvironment({ ...env, PULUMI_DEBUG_COMMANDS: "true" }), o.timeoutMs);
    const events = readPreviewEvents(fs.existsSync(log) ? fs.readFileSync(log, "utf8").split("\n") : []);
    const drifted = events.resources.length;
    const counts = { resources: events.resourceCount, drifted, paths: events.resources.reduce((n, r) => n + r.paths.length + (r.truncatedPaths ?? 0), 0) };
    const found = drifted ? { resources: events.resources as StackReport["resources"] } : {};
    const output = `${result.stderr}\n${result.stdout}`;
    if (result.timedOut) return done("timeout", { counts, error: bounded(`no answer within the deadline of ${o.timeoutMs / 1000} s: the CLI was stopped`), ...found });
    if (result.code === 0) return done(drifted ? "drifted" : "clean", { counts, ...found });
    if (LOCKED.test(output)) return done("locked", { counts, error: bounded(lastLines(output.match(/^.*(locked|Conflict|in progress).*$/im)?.[0] ?? output)) });
    const noStack = NO_STACK.exec(output);
    if (noStack) return done("error", { counts, error: bounded(`unknown stack ${JSON.stringify(noStack[1])} in ${JSON.stringify(t.folder)} (pulumi stack ls there lists them)`) });
    if (events.finished && !events.errors.length && drifted) return done("drifted", { counts, ...found });
    // The engine's errors; else the program's own (the YAML host reports a bad program only on its standard error,
    // and the CLI's output interleaves it with other resources' lines in no fixed order); else the output's end.
    const why = events.errors.join("\n") || events.programErrors.join("\n") || lastLines(output) || `pulumi exited ${result.code}`;
    return done("error", { counts, error: bounded(why), ...found });
  } catch (e) {
    return done("error", { error: bounded(`could not run ${JSON.stringify(o.pulumi)}: ${(e as Error).message}`) });
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** Printable (control characters escaped, line breaks kept) and at most MAX_ERROR_CHARS. */
export function bounded(text: string): string {
  return boundedText(text, MAX_ERROR_CHARS);
}
