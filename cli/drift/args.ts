/**
 * `pulumi-cloudbees drift` and `drift merge`: their options, checked before anything runs, and their --help.
 */
import * as path from "node:path";
import { parseArgs } from "node:util";
import { wholeNumber } from "../options";
import { distinctStacks, readStacksFile, stackTarget, type StackTarget } from "../stacks/stacks-file";
import { CHECK_MODES, type CheckMode } from "./report";
import { parseShard, type Shard } from "./shard";

/**
 * The check run when --mode is not given: refresh, as Pulumi Cloud's drift detection runs it. It runs no program: a
 * clean TypeScript stack took 0.32-0.39x the preview's time, a YAML stack 0.61-0.64x (docs/drift-detection.md, "Which
 * mode"), and a program that no longer runs does not hide the drift of what it deployed.
 */
export const DEFAULT_MODE: CheckMode = "refresh";
export const DEFAULT_RETRIES = 2;
export const DEFAULT_RETRY_PAUSE_SECONDS = 10;

export const DRIFT_USAGE = `Usage: pulumi-cloudbees drift [options]
       pulumi-cloudbees drift merge <drift-report.json>... --out <folder> [--fail-on any|new]

Runs the drift check over many stacks, each the real Pulumi CLI's \`pulumi refresh --preview-only --expect-no-changes
--stack <stack>\` (or, with --mode preview, \`pulumi preview --refresh --expect-no-changes\`) in the stack's folder (a
child process each, never \`pulumi stack select\`), reads the engine's events, and writes <out>/drift-report.json
(schema: drift-report.schema.json in the package): per stack its status (clean, drifted, error, locked, timeout), how
it was checked and in how many tries, per drifted resource each path with the declared and the actual value, who
changed it and when where our providers know, firstSeen (new or known, given --previous), resolved paths, and drift
grouped by cause. Stacks in every language: it reads the engine, not the program.

Options:
  --stacks-file <file>     a YAML or JSON list of stacks: [{folder: infra/flags, stack: prod}, "infra/ci#dev", ...]
                           (or {stacks: [...]}); folders relative to the file's folder
  --stack <folder>#<stack> a stack to check (repeatable; the folder relative to the current one)
  --mode refresh|preview   refresh (default): pulumi refresh --preview-only, no program run: what changed in the
                           services since the state's last update; preview: pulumi preview --refresh, the program
                           run: that, and what the program would change
  --concurrency <n>        stacks checked at once, 1-16 (default 4)
  --timeout <seconds>      deadline per check (default 600); past it the CLI is stopped and the stack is timeout
  --retries <n>            checks run again, 0-10 (default 2), when one failed only for reasons that may pass (a
                           5xx or rate limit from a service, a connection reset or refused, the CLI's own transient
                           errors); not on a program, argument, credential or deadline
  --retry-pause <seconds>  pause before the first retry, doubled for each next one, 0-600 (default 10)
  --previous <file>        the previous run's drift-report.json: firstSeen carried, new/known, resolved paths
                           (a malformed one is named in a warning; the report is still written)
  --out <folder>           where drift-report.json goes (default ./drift-report)
  --shard <i>/<n>          check only shard i of n (1-based): every n-th stack by sorted id; merge the shards'
                           reports with \`drift merge\`
  --fail-on any|new        exit 1 on any drift (default), or only on drift not in --previous (merge: not in the
                           --previous its shards were given)
  --pulumi <path>          the Pulumi CLI to run (default: pulumi on PATH)
  -h, --help               this text

Exit codes: 0 clean; 1 drift (with --fail-on new: new drift); 2 no drift, but a stack was error, locked or timed
out; 3 could not run (bad arguments, no stacks, no Pulumi CLI). Drift wins over partial.
`;

export interface DriftArgs {
  stacks: StackTarget[];
  mode: CheckMode;
  concurrency: number;
  timeoutMs: number;
  retries: number;
  retryPauseMs: number;
  previous?: string;
  out: string;
  shard?: Shard;
  failOn: "any" | "new";
  pulumi: string;
}

export type ParsedCommand = { kind: "help" } | { kind: "drift"; args: DriftArgs } | { kind: "merge"; reports: string[]; out: string; failOn: "any" | "new" };

/** The command's arguments (after `drift`), or an Error naming what is wrong. */
export function parseDriftArgs(argv: string[], cwd = process.cwd()): ParsedCommand {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      "stacks-file": { type: "string" },
      stack: { type: "string", multiple: true },
      mode: { type: "string" },
      concurrency: { type: "string" },
      timeout: { type: "string" },
      retries: { type: "string" },
      "retry-pause": { type: "string" },
      previous: { type: "string" },
      out: { type: "string" },
      shard: { type: "string" },
      "fail-on": { type: "string" },
      pulumi: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return { kind: "help" };
  const out = path.resolve(cwd, values.out ?? "drift-report");
  const failOn = values["fail-on"] ?? "any";
  if (failOn !== "any" && failOn !== "new") throw new Error(`--fail-on ${JSON.stringify(failOn)}: give any or new`);
  if (positionals[0] === "merge") {
    if (positionals.length < 2) throw new Error("drift merge needs the shards' drift-report.json files");
    if (values.out === undefined) throw new Error("drift merge needs --out <folder>");
    // New or known was decided by each shard against the --previous it was given: merge keeps it as it is.
    const others = (["stacks-file", "stack", "mode", "concurrency", "timeout", "retries", "retry-pause", "previous", "shard", "pulumi"] as const).filter((o) => values[o] !== undefined);
    if (others.length) throw new Error(`drift merge takes --out and --fail-on, not --${others[0]} (give it to the shards' runs)`);
    return { kind: "merge", reports: positionals.slice(1).map((f) => path.resolve(cwd, f)), out, failOn };
  }
  if (positionals.length) throw new Error(`unexpected ${JSON.stringify(positionals[0])}: drift takes options, or \`merge\``);
  const mode = values.mode ?? DEFAULT_MODE;
  if (!CHECK_MODES.includes(mode as CheckMode)) throw new Error(`--mode ${JSON.stringify(mode)}: give refresh or preview`);
  const concurrency = wholeNumber(values.concurrency ?? "4", "--concurrency", 1, 16);
  const retries = wholeNumber(values.retries ?? String(DEFAULT_RETRIES), "--retries", 0, 10);
  const retryPause = wholeNumber(values["retry-pause"] ?? String(DEFAULT_RETRY_PAUSE_SECONDS), "--retry-pause", 0, 600);
  const timeout = wholeNumber(values.timeout ?? "600", "--timeout");
  if (timeout < 1) throw new Error("--timeout must be at least 1 second");
  if (failOn === "new" && values.previous === undefined) throw new Error("--fail-on new needs --previous (without it all drift is new)");
  const stacks = [
    ...(values["stacks-file"] !== undefined ? readStacksFile(path.resolve(cwd, values["stacks-file"])) : []),
    ...(values.stack ?? []).map((s) => stackTarget(s, cwd)),
  ];
  if (!stacks.length) throw new Error("no stacks: give --stack <folder>#<stack> or --stacks-file <file>");
  distinctStacks(stacks);
  return {
    kind: "drift",
    args: {
      stacks,
      mode: mode as CheckMode,
      concurrency,
      timeoutMs: timeout * 1000,
      retries,
      retryPauseMs: retryPause * 1000,
      ...(values.previous !== undefined ? { previous: path.resolve(cwd, values.previous) } : {}),
      out,
      ...(values.shard !== undefined ? { shard: parseShard(values.shard) } : {}),
      failOn,
      pulumi: values.pulumi ?? "pulumi",
    },
  };
}
