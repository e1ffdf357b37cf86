/**
 * `pulumi-cloudbees flags`: its options, checked before anything is read, and its --help.
 */
import * as path from "node:path";
import { parseArgs } from "node:util";
import { DEFAULT_DELIMITERS } from "../../provider/hygiene/code-references";
import { MAX_CONTEXT_LINES } from "../../provider/hygiene/context-lines";
import { DELIMITER_CHARACTERS } from "../../provider/hygiene/token-matcher";
import { DEFAULT_STALE_DAYS, MAX_STALE_DAYS } from "../../provider/hygiene/verdict";
import { wholeNumber } from "../options";
import { readStacksFile, type StackTarget } from "../stacks/stacks-file";

export const FLAGS_USAGE = `Usage: pulumi-cloudbees flags [options]

Reports every flag of the feature-flag account's applications: its status in each environment (the service's
lexicon: active, stale, inactive, setup, permanent; unknown without a usable signal) from the impressions the
service counts, when it last changed, where the code spells it (--source), which stacks declare it (--stacks), and a
verdict: keep, remove-from-code (the value to hard-code), remove-from-iac (the resources to delete, each
FlagConfiguration before its Flag) or unknown (never a removal). Writes <out>/flags-report.json (schema:
flags-report.schema.json in the package), flags-report.md and flags-report.html. One request per second: a call per application and
environment for its impressions and one for its audit log, plus the lists.

Settings: the CLOUDBEES_FEATURE_MANAGEMENT_* environment variables (the token, the URL), under the stack config
file's cloudbees:* keys when --config-file is given.

Options:
  --application <name|id>  an application to report (repeatable; default: every application of the account)
  --critical <env>         an environment that must be stale for a code removal (repeatable, by name; default:
                           every environment)
  --roxy <env>             an environment served through roxy: its SDKs send no impressions, so its statuses are
                           unknown (repeatable, by name)
  --stale-days <n>         N, 1-${MAX_STALE_DAYS} (default ${DEFAULT_STALE_DAYS}): stale or inactive for at least N days, changed in the last N
  --as-of <time>           the time the statuses are as of, ISO 8601 (default: now)
  --source <folder>        a source tree to scan for code references, honouring .gitignore (repeatable); without
                           one, no removal is given (code references unknown)
  --context <n>            lines around each reference kept, 0-${MAX_CONTEXT_LINES} (default 0: no source text in the report)
  --delimiters <chars>     the characters that quote a flag's name in code (default ${DEFAULT_DELIMITERS.join("")})
  --alias <flag>=<text>    a spelling of the flag in code besides its name and case transforms (repeatable)
  --stacks <file>          the stacks that declare flags, a stacks file as \`drift --stacks-file\` reads it; each
                           stack's state is read with \`pulumi stack export\` in its folder
  --pulumi <path>          the Pulumi CLI to run (default: pulumi on PATH)
  --timeout <seconds>      deadline of each stack export (default 120)
  --previous <file>        the previous run's flags-report.json: each candidate new or known (a malformed one is
                           named in the report's errors; the report is still written)
  --fail-on any|new        exit 1 on any removal candidate (default), or only on candidates not in --previous
  --out <folder>           where flags-report.json, .md and .html go (default ./flags-report)
  --config-file <file>     read settings from this stack config file
  -h, --help               this text

Exit codes: 0 nothing to remove; 1 removal candidates (with --fail-on new: new ones); 2 nothing to remove, but
something could not be read (the report's errors name it); 3 could not run (bad arguments, no settings, no
application readable). Candidates win over partial.
`;

export interface FlagsArgs {
  applications: string[];
  critical: string[];
  roxy: string[];
  staleDays: number;
  /** undefined: now. */
  asOf?: Date;
  sources: string[];
  contextLines: number;
  delimiters: string[];
  /** Flag name -> spellings. */
  aliases: Record<string, string[]>;
  /** The --stacks file as given, and its stacks. */
  stacksFile?: string;
  stacks?: StackTarget[];
  pulumi: string;
  timeoutMs: number;
  /** --previous as given, and the file it names. */
  previous?: string;
  previousFile?: string;
  failOn: "any" | "new";
  out: string;
  configFile?: string;
}

export type ParsedFlagsCommand = { kind: "help" } | { kind: "flags"; args: FlagsArgs };

/** The command's arguments (after `flags`), or an Error naming what is wrong. */
export function parseFlagsArgs(argv: string[], cwd = process.cwd()): ParsedFlagsCommand {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      application: { type: "string", multiple: true },
      critical: { type: "string", multiple: true },
      roxy: { type: "string", multiple: true },
      "stale-days": { type: "string" },
      "as-of": { type: "string" },
      source: { type: "string", multiple: true },
      context: { type: "string" },
      delimiters: { type: "string" },
      alias: { type: "string", multiple: true },
      stacks: { type: "string" },
      pulumi: { type: "string" },
      timeout: { type: "string" },
      previous: { type: "string" },
      "fail-on": { type: "string" },
      out: { type: "string" },
      "config-file": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return { kind: "help" };
  if (positionals.length) throw new Error(`unexpected ${JSON.stringify(positionals[0])}: flags takes options only`);
  const failOn = values["fail-on"] ?? "any";
  if (failOn !== "any" && failOn !== "new") throw new Error(`--fail-on ${JSON.stringify(failOn)}: give any or new`);
  if (failOn === "new" && values.previous === undefined) throw new Error("--fail-on new needs --previous (without it every candidate is new)");
  const timeout = wholeNumber(values.timeout ?? "120", "--timeout", 1);
  const names = (option: string, list: string[] | undefined) =>
    (list ?? []).map((n) => {
      if (n.trim() === "") throw new Error(`${option} needs a name`);
      return n;
    });
  return {
    kind: "flags",
    args: {
      applications: names("--application", values.application),
      critical: names("--critical", values.critical),
      roxy: names("--roxy", values.roxy),
      staleDays: wholeNumber(values["stale-days"] ?? String(DEFAULT_STALE_DAYS), "--stale-days", 1, MAX_STALE_DAYS),
      ...(values["as-of"] !== undefined ? { asOf: instant(values["as-of"]) } : {}),
      // As given: the report names each root so (the scan reads them from the current folder).
      sources: names("--source", values.source),
      contextLines: wholeNumber(values.context ?? "0", "--context", 0, MAX_CONTEXT_LINES),
      delimiters: delimiters(values.delimiters),
      aliases: aliases(values.alias ?? []),
      ...(values.stacks !== undefined ? { stacksFile: values.stacks, stacks: readStacksFile(path.resolve(cwd, values.stacks), "--stacks") } : {}),
      pulumi: values.pulumi ?? "pulumi",
      timeoutMs: timeout * 1000,
      ...(values.previous !== undefined ? { previous: values.previous, previousFile: path.resolve(cwd, values.previous) } : {}),
      failOn,
      out: path.resolve(cwd, values.out ?? "flags-report"),
      ...(values["config-file"] !== undefined ? { configFile: path.resolve(cwd, values["config-file"]) } : {}),
    },
  };
}

function instant(text: string): Date {
  const at = /^\d{4}-\d\d-\d\d(T[\d:.]+(Z|[+-]\d\d:\d\d)?)?$/.test(text) ? new Date(text) : new Date(NaN);
  if (Number.isNaN(at.getTime())) throw new Error(`--as-of ${JSON.stringify(text)} is not an ISO 8601 time (e.g. 2026-12-01 or 2026-12-01T09:00:00Z)`);
  return at;
}

function delimiters(text: string | undefined): string[] {
  if (text === undefined) return [...DEFAULT_DELIMITERS];
  const chars = [...new Set([...text])];
  if (chars.length === 0) throw new Error("--delimiters needs at least one character");
  const bad = chars.find((c) => !DELIMITER_CHARACTERS.test(c));
  if (bad !== undefined) throw new Error(`--delimiters: ${JSON.stringify(bad)} is not a delimiter (give ASCII punctuation, such as " ' \` or /)`);
  return chars;
}

function aliases(list: string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const given of list) {
    const at = given.indexOf("=");
    if (at <= 0 || at === given.length - 1) throw new Error(`--alias ${JSON.stringify(given)}: expected <flag>=<spelling>, e.g. checkout.newFlow=NEW_FLOW_FLAG`);
    (out[given.slice(0, at)] ??= []).push(given.slice(at + 1));
  }
  return out;
}
