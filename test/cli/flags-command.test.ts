/**
 * `pulumi-cloudbees flags` as a user runs it (`node dist/cli/main.js flags ...`, a child process) against the
 * emulator over real HTTP: each flag's statuses from the impressions recorded over past days (flags-estate.ts), its
 * code references in a sample tree (namespaced names, a .gitignore'd copy left out), its verdict, the removal plans,
 * the requests (one impressions call per application and environment, none for the roxy one), the report against
 * its JSON Schema, the Markdown with server and source text escaped, --fail-on new against --previous, and bad
 * input (an application, an environment and a source folder that do not exist, a malformed and a rate-limited
 * impressions answer, a malformed previous report), each named while the rest of the report is still written.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { parseFlagsArgs } from "../../cli/flags/args";
import { FLAGS_REPORT_SCHEMA } from "../../cli/flags/command";
import { EXIT, type FlagReport, type FlagsReport } from "../../cli/flags/report";
import { startEmulator, type Emulator } from "../../emulator";
import { assertBuiltPackage, REPO_ROOT } from "../resources/helpers";
import { cliEnvironment } from "./cli-environment";
import { COMMON_ARGS, setUpFlagsEstate, type FlagsEstate } from "./flags-estate";
import { schemaProblems } from "./json-schema";

const BIN = path.join(REPO_ROOT, "dist", "cli", "main.js");

let emu: Emulator;
let estate: FlagsEstate;

beforeAll(async () => {
  assertBuiltPackage();
  emu = await startEmulator();
  estate = await setUpFlagsEstate(emu);
});
afterAll(async () => {
  await emu?.close();
  estate?.cleanup();
});

interface Run {
  code: number;
  stderr: string;
}

async function flags(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  try {
    const { stderr } = await promisify(execFile)(process.execPath, [BIN, "flags", ...args], { cwd: estate.dir, env: { ...cliEnvironment(emu), ...env } });
    return { code: 0, stderr };
  } catch (e) {
    const failed = e as { code?: number; stderr?: string };
    if (typeof failed.code !== "number") throw e;
    return { code: failed.code, stderr: failed.stderr ?? "" };
  }
}

const readReport = (out: string): FlagsReport => JSON.parse(fs.readFileSync(path.join(estate.dir, out, "flags-report.json"), "utf8")) as FlagsReport;
const flagOf = (report: FlagsReport, app: string, flag: string): FlagReport => report.applications.find((a) => a.name === app)!.flags.find((f) => f.name === flag)!;
const verdicts = (report: FlagsReport) => Object.fromEntries(report.applications.flatMap((a) => a.flags.map((f) => [`${a.name} ${f.name}`, f.verdict])));

describe("a report of two applications", () => {
  let run: Run;
  let report: FlagsReport;
  beforeAll(async () => {
    emu.journal.clear();
    run = await flags([...COMMON_ARGS, "--source", "source", "--context", "1", "--out", "first"]);
    report = readReport("first");
  });

  it("gives each flag the verdict its signals give, and exits 1: there are removal candidates", () => {
    expect({ code: run.code, errors: report.errors }).toEqual({ code: EXIT.candidates, errors: [] });
    expect(verdicts(report)).toEqual({
      "kiosk kiosk.legacy": "unknown",
      "kiosk kiosk.mode": "remove-from-code",
      "shop checkout.legacyCart": "keep",
      "shop checkout.newFlow": "remove-from-code",
      "shop new.search": "keep",
      "shop old.banner": "remove-from-iac",
      "shop perm.kill": "keep",
      "shop ui.theme": "keep",
    });
    expect(report.summary).toMatchObject({ applications: 2, environments: 4, flags: 8, keep: 4, removeFromCode: 2, removeFromIac: 1, unknown: 1, candidates: 3, newCandidates: 3, errors: 0 });
    expect(report.candidates.map((c) => `${c.application} ${c.flag} ${c.verdict} ${c.value ?? ""} ${c.status}`)).toEqual([
      "kiosk kiosk.mode remove-from-code on new",
      "shop checkout.newFlow remove-from-code true new",
      "shop old.banner remove-from-iac  new",
    ]);
    expect(run.stderr).toMatch(/8 flags in 2 applications: 4 keep, 2 remove-from-code, 1 remove-from-iac, 1 unknown \(3 new candidates\); 0 not read; \d+ requests/);
  });

  it("statuses per environment follow the lexicon; the roxy environment is unknown, never inactive", () => {
    const statuses = (app: string, flag: string) => Object.fromEntries(flagOf(report, app, flag).environments.map((e) => [e.environment, `${e.status}/${e.overThreshold.status}`]));
    expect(statuses("shop", "checkout.newFlow")).toEqual({ Production: "stale/stale", Staging: "stale/stale" });
    expect(statuses("shop", "old.banner")).toEqual({ Production: "inactive/inactive", Staging: "inactive/inactive" });
    expect(statuses("shop", "ui.theme")).toEqual({ Production: "active/active", Staging: "active/active" });
    expect(statuses("shop", "perm.kill")).toEqual({ Production: "permanent/permanent", Staging: "permanent/permanent" });
    expect(statuses("shop", "new.search")).toEqual({ Production: "setup/setup", Staging: "setup/setup" });
    expect(statuses("shop", "checkout.legacyCart")).toEqual({ Production: "stale/stale", Staging: "inactive/active" });
    expect(statuses("kiosk", "kiosk.legacy")).toEqual({ Production: "inactive/inactive", Edge: "unknown/unknown" });
    expect(flagOf(report, "kiosk", "kiosk.legacy").reason).toMatch(/^no usable status in "Edge": the environment is served through roxy/);
    const kiosk = report.applications.find((a) => a.name === "kiosk")!;
    expect(kiosk.environments.map((e) => [e.name, e.critical, e.roxy, e.impressions])).toEqual([["Production", true, false, "read"], ["Edge", false, true, "roxy"]]);
    // The impressions per day and value over the N days, for the page's chart.
    expect(flagOf(report, "shop", "checkout.newFlow").environments[0]!.daily.map((d) => `${d.day} ${d.value} ${d.count}`)).toEqual(
      ["2030-02-14", "2030-02-23", "2030-03-03", "2030-03-10", "2030-03-15"].map((day) => `${day} true 3`),
    );
  });

  it("one impressions call per application and environment, none for the roxy one; the count is in the summary", () => {
    const calls = emu.journal.entries().filter((e) => e.path.startsWith("/feature-management/"));
    const impressions = calls.filter((e) => e.path.endsWith("/impressions"));
    expect(impressions.map((e) => e.path.split("/").slice(-2)[0]).sort()).toEqual(["Production", "Production", "Staging"]);
    expect(report.summary.requests).toBe(calls.length);
  });

  it("code references: namespaced names of a registered container, a Python string, never the .gitignore'd copy", () => {
    const refs = (app: string, flag: string) => flagOf(report, app, flag).codeReferences!.references.map((r) => `${r.file}:${r.line} ${r.alias} ${r.aliasKind}`);
    expect(refs("shop", "checkout.newFlow")).toEqual(["src/checkout.js:5 newFlow container", "src/checkout.js:11 newFlow segment"]);
    // The backticks of a comment are delimiters: the name there counts.
    expect(refs("shop", "checkout.legacyCart")).toEqual(["src/checkout.js:6 legacyCart container"]);
    expect(refs("kiosk", "kiosk.mode")).toEqual(["src/kiosk.py:1 kiosk.mode name", "src/kiosk.py:2 kiosk.mode name"]);
    expect(refs("shop", "old.banner")).toEqual([]);
    expect(flagOf(report, "shop", "new.search").codeReferences!.count).toBe(1);
    // --context 1: the line before and after, as data.
    expect(flagOf(report, "kiosk", "kiosk.mode").codeReferences!.references[1]!.context!.map((c) => c.line)).toEqual([1, 2]);
  });

  it("each candidate's plan: the value to hard-code and the references; the resources to delete need --stacks", () => {
    const newFlow = flagOf(report, "shop", "checkout.newFlow");
    expect(newFlow.removal).toMatchObject({ hardCode: "true", codeReferences: 2, resources: [] });
    expect(newFlow.removal!.steps[0]).toBe('Hard-code "true" where the code evaluates "checkout.newFlow" (2 references in 1 file), and deploy that code everywhere.');
    expect(flagOf(report, "shop", "old.banner").removal!.steps).toEqual(["Delete its FlagConfigurations, then its Flag, from the programs that declare them (--stacks names them)."]);
    expect(newFlow.declarations).toBeNull();
  });

  it("validates against flags-report.schema.json, and the schema refuses what is not a report", () => {
    expect(schemaProblems(FLAGS_REPORT_SCHEMA, report)).toEqual([]);
    expect(schemaProblems(FLAGS_REPORT_SCHEMA, { ...report, candidates: [{ flag: "x" }] })).not.toEqual([]);
    expect(schemaProblems(FLAGS_REPORT_SCHEMA, { ...report, schemaVersion: 2 })).not.toEqual([]);
    const flag = report.applications[0]!.flags[0]!;
    expect(schemaProblems(FLAGS_REPORT_SCHEMA, { ...report, applications: [{ ...report.applications[0], flags: [{ ...flag, verdict: "delete" }] }] })).not.toEqual([]);
  });

  it("the Markdown: the candidates, their plans and every application's flags, with source text escaped", () => {
    const md = fs.readFileSync(path.join(estate.dir, "first", "flags-report.md"), "utf8");
    expect(md).toContain("| kiosk | kiosk.mode | ✂️ remove-from-code | \"on\" | **new** |");
    expect(md).toContain("#### 🗑️ shop · old.banner: remove-from-iac");
    // The Python comment's CI command, HTML and table bar stay text.
    expect(md).toContain("\\::error\\::\\<b\\>\\|\\</b\\> \\`kiosk.mode\\`");
    expect(md).not.toMatch(/^::error::/m);
    expect(md).not.toContain("<b>");
  });

  it("--fail-on new against the previous report: the same candidates are known, and the exit is 0", async () => {
    const again = await flags([...COMMON_ARGS, "--source", "source", "--out", "second", "--previous", "first/flags-report.json", "--fail-on", "new"]);
    const second = readReport("second");
    expect({ code: again.code, newCandidates: second.summary.newCandidates, statuses: second.candidates.map((c) => c.status) }).toEqual({ code: EXIT.clean, newCandidates: 0, statuses: ["known", "known", "known"] });
    expect(second.candidates[0]!.firstSeen).toBe(report.generatedAt);
    // Without --fail-on new, known candidates still fail.
    expect((await flags([...COMMON_ARGS, "--source", "source", "--out", "third", "--previous", "first/flags-report.json"])).code).toBe(EXIT.candidates);
  });

  it("the whole folder as the source: the command's own reports (its --out, --previous, earlier ones) are no references", async () => {
    const again = await flags([...COMMON_ARGS, "--source", ".", "--out", "fourth", "--previous", "first/flags-report.json"]);
    expect(again.code).not.toBe(3);
    const refs = (r: FlagsReport) => r.applications.flatMap((app) => app.flags.flatMap((f) => (f.codeReferences?.references ?? []).map((c) => `${f.name} ${c.file.replace(/^source\//, "")}:${c.line}`)));
    const whole = refs(readReport("fourth"));
    expect(whole.length).toBeGreaterThan(0);
    expect(whole.filter((file) => /flags-report\./.test(file))).toEqual([]);
    expect(whole.sort()).toEqual(refs(report).sort());
  });
});

describe("bad input is named, and the rest of the report is still written", () => {
  let run: Run;
  let report: FlagsReport;
  beforeAll(async () => {
    const base = `/feature-management/public-api/applications/${estate.shop}/environments`;
    emu.faults.inject({ method: "GET", path: `${base}/Production/impressions`, status: 200, body: JSON.stringify({ totals: { "checkout.newFlow": 3 } }), headers: { "content-type": "application/json" }, times: 1 });
    emu.faults.inject({ method: "GET", path: `${base}/Staging/impressions`, status: 555, body: JSON.stringify({ error: "Too many requests" }), times: 1 });
    fs.writeFileSync(path.join(estate.dir, "broken.json"), '{"schemaVersion": 1, "candidates": "nope"');
    run = await flags(
      [...COMMON_ARGS, "--critical", "Nowhere", "--application", "shop", "--application", "nope", "--source", "source", "--source", "missing-dir", "--previous", "broken.json", "--out", "bad"],
      { CLOUDBEES_MAX_RETRIES: "0" },
    );
    report = readReport("bad");
  });
  afterAll(() => emu.faults.clear());

  it("names each: the application, the environment, the source folder, both impressions answers, the previous report", () => {
    const named = report.errors.map((e) => `${e.kind} ${e.application ?? ""} ${e.environment ?? ""} ${e.source ?? ""}`.replace(/\s+/g, " ").trim());
    expect(named.sort()).toEqual(
      ["application nope", "environment Edge", "environment Nowhere", "impressions shop Production", "impressions shop Staging", "previous broken.json", "source missing-dir"].sort(),
    );
    const message = (kind: string, environment?: string) => report.errors.find((e) => e.kind === kind && (environment === undefined || e.environment === environment))!.message;
    expect(message("application")).toMatch(/^no application has the name or id "nope" \(the account's: "kiosk", "shop"\)$/);
    expect(message("impressions", "Production")).toMatch(/none of the impressions forms this client reads/);
    expect(message("impressions", "Staging")).toMatch(/555/);
    expect(message("previous")).toMatch(/broken\.json.*cannot be read as JSON.*every candidate counts as new/);
    expect(message("source")).toMatch(/the source "missing-dir" does not exist/);
    expect(message("environment", "Nowhere")).toMatch(/^--critical "Nowhere": no application read has an environment of this name \("Production", "Staging"\)$/);
    expect(message("environment", "Edge")).toMatch(/^--roxy "Edge": no application read/);
  });

  it("no removal from missing data: statuses unknown where impressions failed, code references unknown; exit 2", () => {
    expect(run.code).toBe(EXIT.partial);
    expect(new Set(Object.values(verdicts(report)))).toEqual(new Set(["keep", "unknown"]));
    expect(report.candidates).toEqual([]);
    expect(report.applications.map((a) => a.name)).toEqual(["shop"]);
    expect(flagOf(report, "shop", "old.banner").environments.map((e) => e.status)).toEqual(["unknown", "unknown"]);
    expect(flagOf(report, "shop", "checkout.newFlow").codeReferences).toBeNull();
    expect(schemaProblems(FLAGS_REPORT_SCHEMA, report)).toEqual([]);
    expect(fs.readFileSync(path.join(estate.dir, "bad", "flags-report.md"), "utf8")).toContain("### Not read");
  });
});

describe("arguments", () => {
  it.each([
    [["--stale-days", "0"], /--stale-days 0 is outside 1-365/],
    [["--context", "6"], /--context 6 is outside 0-5/],
    [["--fail-on", "new"], /--fail-on new needs --previous/],
    [["--as-of", "yesterday"], /--as-of "yesterday" is not an ISO 8601 time/],
    [["--alias", "nope"], /--alias "nope": expected <flag>=<spelling>/],
    [["--delimiters", "ab"], /--delimiters: "a" is not a delimiter/],
    [["--stacks", "missing.yaml"], /--stacks ".*missing\.yaml" cannot be read/],
    [["extra"], /unexpected "extra": flags takes options only/],
  ])("%j is refused before anything is read", (args, why) => {
    expect(() => parseFlagsArgs(args as string[], estate.dir)).toThrow(why);
  });

  it("a refused argument: could not run (3), saying why and the usage", async () => {
    const r = await flags(["--stale-days", "0"]);
    expect(r.code).toBe(EXIT.couldNotRun);
    expect(r.stderr).toMatch(/^pulumi-cloudbees flags: --stale-days 0 is outside 1-365\n\nUsage: pulumi-cloudbees flags \[options\]/);
  });

  it("the defaults", () => {
    const parsed = parseFlagsArgs([], estate.dir);
    expect(parsed).toEqual({
      kind: "flags",
      args: { applications: [], critical: [], roxy: [], staleDays: 30, sources: [], contextLines: 0, delimiters: ['"', "'", "`"], aliases: {}, pulumi: "pulumi", timeoutMs: 120_000, failOn: "any", out: path.join(estate.dir, "flags-report") },
    });
    const aliases = parseFlagsArgs(["--alias", "a.b=A_B", "--alias", "a.b=ab", "--alias", "c=x=y"], estate.dir);
    expect(aliases.kind === "flags" && aliases.args.aliases).toEqual({ "a.b": ["A_B", "ab"], c: ["x=y"] });
  });

  it("without the feature-flag token: could not run, naming the setting", async () => {
    const r = await flags(["--out", "none"], { CLOUDBEES_FEATURE_MANAGEMENT_TOKEN: "" });
    expect(r.code).toBe(EXIT.couldNotRun);
    expect(r.stderr).toMatch(/featureManagementToken|CLOUDBEES_FEATURE_MANAGEMENT_TOKEN/);
  });

  it("--help: the usage, with the exit codes", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [BIN, "flags", "--help"]);
    expect(stdout).toMatch(/^Usage: pulumi-cloudbees flags \[options\]/);
    expect(stdout).toContain("Exit codes: 0 nothing to remove; 1 removal candidates");
  });
});
