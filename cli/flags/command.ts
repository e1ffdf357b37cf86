/**
 * `pulumi-cloudbees flags`: read the feature-flag account (service.ts), scan the sources for code references
 * (provider/hygiene/code-references.ts), read the stacks' states (declarations.ts), judge each flag
 * (provider/hygiene/verdict.ts), write flags-report.json, .md and .html, answer the exit code (report.ts EXIT).
 * What cannot be read is named in the report's errors, and the rest is still written.
 */
import * as path from "node:path";
import { closeClients } from "../../provider/config";
import { featureManagementFor } from "../../provider/config/clients";
import { resolveSettings } from "../../provider/config/settings";
import { scanCodeReferences, type CodeReferenceScan } from "../../provider/hygiene/code-references";
import { DEFAULT_STATUS_WINDOW_DAYS } from "../../provider/hygiene/flag-status";
import { MAX_IMPRESSIONS_WINDOW_DAYS } from "../../provider/clients/impression-requests";
import { argumentsOf, commandVoice } from "../options";
import { readJsonReport, toolVersion, writeReportFiles } from "../report/files";
import { noun } from "../report/noun";
import { Progress } from "../report/progress";
import { bounded } from "../report/text";
import { readStackConfigFile } from "../stack-config-file";
import { answersVersion, noPulumiMessage } from "../stacks/run-pulumi";
import { FLAGS_USAGE, parseFlagsArgs, type FlagsArgs } from "./args";
import { assembleReport, exitCodeOf } from "./assemble";
import { pulumiStateReader, readDeclarations, type StateReader } from "./declarations";
import { renderFlagsHtml } from "./render-html";
import { renderFlagsMarkdown } from "./render-markdown";
import { EXIT, FLAGS_REPORT_SCHEMA_VERSION, MAX_ERROR_CHARS, type FlagsReport, type ReportError, type ReportOptions } from "./report";
import { readService } from "./service";
export { FLAGS_REPORT_SCHEMA } from "./schema";

export const REPORT_FILE = "flags-report.json";
export const MARKDOWN_FILE = "flags-report.md";
export const HTML_FILE = "flags-report.html";

/** What a caller may give in place of the process's: the environment, where messages go, the stacks' state reader (a test's saved exports), the clock. */
export interface FlagsCommandOptions {
  env?: NodeJS.ProcessEnv;
  err?: NodeJS.WriteStream;
  readState?: StateReader;
  now?: () => Date;
}

/** Runs the command; resolves with its exit code. */
export async function flagsCommand(argv: string[], o: FlagsCommandOptions = {}): Promise<number> {
  const err = o.err ?? process.stderr;
  const say = commandVoice("flags", err);
  const parsed = argumentsOf(argv, parseFlagsArgs, FLAGS_USAGE, say);
  if (parsed === "bad") return EXIT.couldNotRun;
  if (parsed.kind === "help") return EXIT.clean;
  try {
    return await runFlags(parsed.args, o, say, err);
  } finally {
    await closeClients();
  }
}

async function runFlags(a: FlagsArgs, o: FlagsCommandOptions, say: (text: string) => void, err: NodeJS.WriteStream): Promise<number> {
  const env = o.env ?? process.env;
  let client: ReturnType<typeof featureManagementFor>["client"];
  try {
    const { connections: _connections, ...raw } = a.configFile !== undefined ? readStackConfigFile(a.configFile) : {};
    client = featureManagementFor(resolveSettings(raw, env), "to read the feature-flag account's flags").client;
  } catch (e) {
    say((e as Error).message);
    return EXIT.couldNotRun;
  }
  const now = o.now?.() ?? new Date();
  const generatedAt = now.toISOString();
  const asOf = a.asOf ?? now;
  const errors: ReportError[] = [];
  let previous: FlagsReport | undefined;
  if (a.previousFile !== undefined) {
    try {
      previous = readFlagsReport(a.previousFile);
    } catch (e) {
      // The current report is never lost to a bad previous one: every candidate counts as new.
      errors.push({ kind: "previous", source: a.previous, message: `${bounded((e as Error).message, MAX_ERROR_CHARS)}; every candidate counts as new` });
    }
  }
  // Days of impressions read: twice the threshold (so that "inactive" sees impressions before it), within what one call may ask.
  const historyDays = Math.min(MAX_IMPRESSIONS_WINDOW_DAYS - 1, Math.max(2 * a.staleDays, a.staleDays + DEFAULT_STATUS_WINDOW_DAYS));
  const progress = new Progress(0, { command: "flags", items: "applications", verb: "read", flagged: "partly read" }, err);
  let service: Awaited<ReturnType<typeof readService>>;
  try {
    service = await readService(client, {
      applications: a.applications,
      roxy: new Set(a.roxy),
      asOf,
      historyDays,
      staleDays: a.staleDays,
      progress: { start: (n) => progress.setTotal(n), done: (item) => progress.itemDone(item) },
    });
  } catch (e) {
    say(`the account's applications could not be read: ${(e as Error).message}`);
    return EXIT.couldNotRun;
  }
  const flagNames = [...new Set(service.applications.flatMap((app) => (app.flags ?? []).map((f) => f.name)))];
  const scan = a.sources.length ? scanSources(a, flagNames, errors) : undefined;
  const stacks = a.stacks ? await readStacks(a, o, errors) : undefined;
  const options: ReportOptions = {
    staleDays: a.staleDays,
    statusWindowDays: DEFAULT_STATUS_WINDOW_DAYS,
    historyDays,
    critical: a.critical,
    roxy: a.roxy,
    applications: a.applications,
    sources: a.sources,
    contextLines: a.contextLines,
    delimiters: a.delimiters,
    ...(a.stacksFile !== undefined ? { stacksFile: a.stacksFile } : {}),
    failOn: a.failOn,
    ...(a.previous !== undefined ? { previous: a.previous } : {}),
  };
  const report = assembleReport({ generatedAt, asOf, toolVersion: toolVersion(), options, service, ...(scan ? { scan } : {}), ...(stacks ? { stacks } : {}), ...(previous ? { previous } : {}), errors });
  await writeReportFiles(a.out, [
    [REPORT_FILE, `${JSON.stringify(report, null, 2)}\n`],
    [MARKDOWN_FILE, renderFlagsMarkdown(report)],
    [HTML_FILE, renderFlagsHtml(report)],
  ]);
  const s = report.summary;
  say(
    `${s.flags} ${noun(s.flags, "flag")} in ${s.applications} ${noun(s.applications, "application")}: ${s.keep} keep, ${s.removeFromCode} remove-from-code, ${s.removeFromIac} remove-from-iac, ` +
      `${s.unknown} unknown (${s.newCandidates} new ${noun(s.newCandidates, "candidate")}); ${s.errors} not read; ${s.requests} requests; wrote ${path.join(a.out, REPORT_FILE)}, ${MARKDOWN_FILE} and ${HTML_FILE}`,
  );
  for (const e of report.errors) say(`not read: ${e.kind}${e.application ? ` ${JSON.stringify(e.application)}` : ""}${e.environment ? ` ${JSON.stringify(e.environment)}` : ""}: ${e.message}`);
  if (service.applications.length === 0 && report.errors.some((e) => e.kind === "application")) return EXIT.couldNotRun;
  return exitCodeOf(report, a.failOn);
}

/** A report written by this command (its schema version), or an Error naming the file and what is wrong. */
export function readFlagsReport(file: string): FlagsReport {
  return readJsonReport<FlagsReport>(file, `a flags-report.json of schema version ${FLAGS_REPORT_SCHEMA_VERSION}`, (doc) => {
    const r = doc as Partial<FlagsReport>;
    return r.schemaVersion === FLAGS_REPORT_SCHEMA_VERSION && Array.isArray(r.candidates) && Array.isArray(r.applications) && typeof r.generatedAt === "string";
  });
}

/** The code references of every flag under the sources; a source that does not exist is named, the others scanned. */
function scanSources(a: FlagsArgs, flags: string[], errors: ReportError[]): CodeReferenceScan | undefined {
  try {
    const found = scanCodeReferences({ roots: a.sources, flags, delimiters: a.delimiters, contextLines: a.contextLines, aliases: { literal: a.aliases } });
    // The command's own reports (its --out folder, the --previous report, a flags-report.* of an earlier run left in
    // the tree) spell every flag's name: never a reference.
    const own = (file: string) => isInside(file, a.out) || file === a.previousFile || /^flags-report\.(json|md|html)$/.test(path.basename(file));
    const scan = { ...found, references: found.references.filter((r) => !own(path.resolve(r.root, r.file))) };
    for (const s of scan.skipped) if (s.reason === "missing-root") errors.push({ kind: "source", source: s.root, message: `the source ${JSON.stringify(s.root)} does not exist (${s.detail}): code references are not known, so no removal is given` });
    return scan;
  } catch (e) {
    errors.push({ kind: "source", message: `the sources could not be scanned: ${bounded((e as Error).message, MAX_ERROR_CHARS)}` });
    return undefined;
  }
}

/** Each stack's declarations; without a Pulumi CLI (and no reader given), each stack is named as not read. */
async function readStacks(a: FlagsArgs, o: FlagsCommandOptions, errors: ReportError[]): ReturnType<typeof readDeclarations> {
  let read = o.readState;
  if (!read) {
    if (!answersVersion(a.pulumi)) {
      const why = noPulumiMessage(a.pulumi);
      read = async () => {
        throw new Error(why);
      };
    } else read = pulumiStateReader(a.pulumi, a.timeoutMs, o.env);
  }
  const result = await readDeclarations(a.stacks!, read);
  errors.push(...result.errors);
  return result;
}

/** Whether `file` is `folder` or inside it. */
function isInside(file: string, folder: string): boolean {
  const rel = path.relative(folder, file);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}
