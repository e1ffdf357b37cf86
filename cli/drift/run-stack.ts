/**
 * One stack's drift check, a child process of its own with its own event log in the stack's folder (never `stack
 * select`, never a shared workspace file), killed at its deadline: the real CLI's `pulumi preview --refresh
 * --expect-no-changes --stack <stack>` (mode preview) or `pulumi refresh --preview-only --expect-no-changes --stack
 * <stack>` (mode refresh). What it says becomes the stack's status: clean, drifted, error, locked, timeout; a check
 * that failed only for reasons that may pass is run again (retry.ts).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { bounded as boundedText } from "../report/text";
import { lastLines, NO_STACK, pulumiEnvironment, runChild } from "../stacks/run-pulumi";
import { projectFolderProblem, type StackTarget } from "../stacks/stacks-file";
import { DEFAULT_MODE } from "./args";
import { readEngineEvents } from "./events";
import { fileBackendLocks } from "./locks";
import { MAX_ERROR_CHARS, type CheckMode, type StackReport } from "./report";
import { cliErrorLines, mayPass, withRetries, type Try } from "./retry";

export interface RunOptions {
  pulumi: string;
  timeoutMs: number;
  /** Default DEFAULT_MODE (args.ts). */
  mode?: CheckMode;
  /** Checks run again after a passing fault (default 0), the first after `retryPauseMs`, each next one twice as long. */
  retries?: number;
  retryPauseMs?: number;
  env?: NodeJS.ProcessEnv;
}

/** The CLI's words for a stack another update holds: Pulumi Cloud's 409, a file backend's lock. */
const LOCKED = /the stack is currently locked|\[409\] Conflict|Another update is currently in progress/i;

/** The CLI's words for a provider the state records that cannot start (pkg/resource/deploy/providers/registry.go). */
const NO_PROVIDER = /could not load provider for resource (\S+): could not create provider \S+: (?:load plugin for (\S+) provider '[^']*': )?(.*)/;

/** The CLI's arguments for a check, before the stack's and the event log's. */
export const CHECK_ARGS: Record<CheckMode, string[]> = {
  preview: ["preview", "--refresh", "--expect-no-changes"],
  refresh: ["refresh", "--preview-only", "--expect-no-changes"],
};

type Checked = Omit<StackReport, "mode" | "tries" | "durationMs">;

export async function checkStack(t: StackTarget, o: RunOptions): Promise<StackReport> {
  const started = Date.now();
  const mode = o.mode ?? DEFAULT_MODE;
  const { result, tries } = await withRetries(() => checkOnce(t, o, mode), { retries: o.retries ?? 0, pauseMs: o.retryPauseMs ?? 0 });
  const { id, folder, stack, status, ...rest } = result;
  return { id, folder, stack, status, mode, tries, durationMs: Date.now() - started, ...rest };
}

async function checkOnce(t: StackTarget, o: RunOptions, mode: CheckMode): Promise<Try<Checked>> {
  const base = { id: t.id, folder: t.folder, stack: t.stack };
  const done = (status: StackReport["status"], rest: Partial<Checked> = {}, passing = false): Try<Checked> => ({
    result: { ...base, status, counts: { resources: 0, drifted: 0, paths: 0 }, ...rest },
    passing,
  });
  const problem = projectFolderProblem(t);
  if (problem) return done("error", { error: bounded(problem) });
  // Previews run side by side: ts-node's compile cache, which their programs' processes tear, off unless set
  // (nodejs/node#51555: V8 aborts on a torn blob, and the stack would read as an error).
  const env = { DISABLE_V8_COMPILE_CACHE: "1", ...process.env, ...o.env };
  // A preview (and, since 3.229, a refresh preview) on a file backend takes no lock: a stack mid-update would be read
  // half-written. Its lock files say so.
  const locks = fileBackendLocks(t.dir, t.stack, env);
  if (locks.length) return done("locked", { error: bounded(`the stack is currently locked by ${locks.length} lock(s) (${locks.join(", ")}): another update holds it`) });

  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-cloudbees-drift-"));
  const log = path.join(scratch, "events.jsonl");
  try {
    const args = [...CHECK_ARGS[mode], "--non-interactive", "--color", "never", "--stack", t.stack, "--event-log", log];
    // --event-log is among the CLI's debug commands' flags.
    const result = await runChild(o.pulumi, args, t.dir, pulumiEnvironment({ ...env, PULUMI_DEBUG_COMMANDS: "true" }), o.timeoutMs);
    const events = readEngineEvents(fs.existsSync(log) ? fs.readFileSync(log, "utf8").split("\n") : [], mode);
    const drifted = events.resources.length;
    const counts = { resources: events.resourceCount, drifted, paths: events.resources.reduce((n, r) => n + r.paths.length + (r.truncatedPaths ?? 0), 0) };
    const found = drifted ? { resources: events.resources as StackReport["resources"] } : {};
    const output = `${result.stderr}\n${result.stdout}`;
    if (result.timedOut) return done("timeout", { counts, error: bounded(`no answer within the deadline of ${o.timeoutMs / 1000} s: the CLI was stopped`), ...found });
    if (result.code === 0) return done(drifted ? "drifted" : "clean", { counts, ...found });
    if (LOCKED.test(output)) return done("locked", { counts, error: bounded(lastLines(output.match(/^.*(locked|Conflict|in progress).*$/im)?.[0] ?? output)) });
    const noStack = NO_STACK.exec(output);
    if (noStack) return done("error", { counts, error: bounded(`unknown stack ${JSON.stringify(noStack[1])} in ${JSON.stringify(t.folder)} (pulumi stack ls there lists them)`) });
    const noProvider = NO_PROVIDER.exec(output);
    if (noProvider) return done("error", { counts, error: bounded(noProviderText(noProvider, events.programErrors)) });
    if (events.finished && !events.errors.length && drifted) return done("drifted", { counts, ...found });
    // The engine's errors; else the program's own (the YAML host reports a bad program only on its standard error,
    // and the CLI's output interleaves it with other resources' lines in no fixed order); else the output's end.
    const reasons = events.errors.length ? events.errors : events.programErrors.length ? events.programErrors : cliErrorLines(output);
    const why = reasons.join("\n") || lastLines(output) || `pulumi exited ${result.code}`;
    return done("error", { counts, error: bounded(why + credentialsHint(why)), ...found }, mayPass(reasons));
  } catch (e) {
    return done("error", { error: bounded(`could not run ${JSON.stringify(o.pulumi)}: ${(e as Error).message}`) });
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * A provider the state records that cannot start, named with the way out: a TypeScript stack's dynamic providers run
 * in a Node.js host that loads @pulumi/pulumi and pulumi-cloudbees from the project's node_modules; a plugin must be
 * installed at the version the state records (or be on PATH).
 */
function noProviderText(m: RegExpExecArray, programErrors: string[]): string {
  const [, urn, pkg = "", cause = ""] = m;
  const host = programErrors.find((l) => /^\w*Error\b/.test(l.trim()));
  const why = host ? `${cause.trim()}; its host said: ${host.trim()}` : cause.trim();
  const way =
    pkg === "pulumi-nodejs"
      ? "a TypeScript stack's dynamic providers need the project's node_modules (run npm install, or npm ci, in its folder)"
      : pkg
        ? `install the plugin at the version the state records (pulumi plugin install resource ${pkg} <version>), or put pulumi-resource-${pkg} on PATH`
        : "install what it needs, then check again";
  return `the provider${pkg ? ` "${pkg}"` : ""} that the state records for ${urn} cannot start: ${why}. The stack's other resources were not read; ${way}`;
}

/**
 * A credential refused may be one the state still records after a rotation: the engine's refresh (in both modes)
 * starts the providers the state records, with the configuration of the stack's last `pulumi up`.
 */
function credentialsHint(why: string): string {
  if (!/\bauthentication failed \(401\)/.test(why)) return "";
  return "\n(the refresh reads with the provider configuration recorded in the state: a token rotated since the stack's last `pulumi up` reaches it only with the next `up`)";
}
/** Printable (control characters escaped, line breaks kept) and at most MAX_ERROR_CHARS. */
export function bounded(text: string): string {
  return boundedText(text, MAX_ERROR_CHARS);
}
