/**
 * `pulumi-cloudbees drift` on recorded engine events (test/fixtures/drift: the real CLI 3.248.0's event log of
 * examples/plugin/dynamic against the emulator, a flag configuration changed by alice@example.com and team-b's
 * availability pattern set by hand; large serialized providers cut): the paths with declared and actual values, who
 * and when, causes, firstSeen across runs, shard + merge equal to the whole, exit codes, bad input, the JSON Schema.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseDriftArgs } from "../../cli/drift/args";
import { assembleReport, exitCodeOf } from "../../cli/drift/assemble";
import { readReport, reportText, REPORT_SCHEMA } from "../../cli/drift/command";
import { readPreviewEvents } from "../../cli/drift/events";
import { bounded, checkStack } from "../../cli/drift/run-stack";
import { EXIT, type DriftReport, type StackReport } from "../../cli/drift/report";
import { mergeReports, parseShard, shardOf } from "../../cli/drift/shard";
import { driftCommand } from "../../cli/drift/command";
import { causeType } from "../../cli/drift/causes";
import { schemaProblems } from "./json-schema";

const FIXTURES = path.join(__dirname, "..", "fixtures", "drift");
const lines = (name: string) => fs.readFileSync(path.join(FIXTURES, name), "utf8").split("\n");

function stack(id: string, fixture: string | undefined, status?: StackReport["status"]): StackReport {
  const [folder, name] = id.split("#") as [string, string];
  if (!fixture) return { id, folder, stack: name, status: status ?? "error", durationMs: 5, counts: { resources: 0, drifted: 0, paths: 0 }, error: "broken" };
  const e = readPreviewEvents(lines(fixture));
  return {
    id,
    folder,
    stack: name,
    status: e.resources.length ? "drifted" : "clean",
    durationMs: 1000,
    counts: { resources: e.resourceCount, drifted: e.resources.length, paths: e.resources.reduce((n, r) => n + r.paths.length, 0) },
    ...(e.resources.length ? { resources: e.resources as StackReport["resources"] } : {}),
  };
}

const T1 = "2026-11-28T10:00:00.000Z";
const T2 = "2026-11-29T10:00:00.000Z";
const estate = () => [stack("apps/b#prod", "dynamic-drifted.jsonl"), stack("apps/a#prod", "dynamic-drifted.jsonl"), stack("apps/c#prod", "dynamic-clean.jsonl"), stack("apps/d#prod", undefined)];

describe("the engine's events", () => {
  it("name each drifted path with the declared and the actual value, and who changed the flag and when", () => {
    const e = readPreviewEvents(lines("dynamic-drifted.jsonl"));
    expect(e.finished).toBe(true);
    expect(e.resourceCount).toBe(7);
    expect(e.resources.map((r) => [r.name, r.op, r.paths.map((p) => [p.path, p.kind, p.declared, p.actual])])).toEqual([
      ["teamB", "update", [["controllers", "add", ["team-b/controller-b"], undefined], ["regex", "delete", undefined, "team-.*"]]],
      ["newFlowStaging", "update", [["value[0].percentage", "update", 50, 75]]],
    ]);
    const flag = e.resources[1]!;
    expect(flag.paths[0]).toMatchObject({ changedBy: "alice@example.com", changedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:]+Z$/) });
    expect(flag.notes![0]).toMatch(/^FlagConfiguration checkout\.newFlow\/Staging changed outside this stack by "alice@example\.com"/);
    expect(JSON.stringify(e)).not.toContain("serialized dynamic provider");
  });

  it("of a clean preview hold nothing drifted", () => {
    expect(readPreviewEvents(lines("dynamic-clean.jsonl")).resources).toEqual([]);
  });

  it("keep control characters and CI commands of a warning out of its note", () => {
    const urn = "urn:pulumi:dev::p::cloudbees:index:Flag::f";
    const pre = { resourcePreEvent: { metadata: { op: "update", urn, type: "cloudbees:index:Flag", old: { inputs: { name: "x" } }, new: { inputs: { name: "y" } }, detailedDiff: { name: { kind: "update" } } } } };
    const warning = { diagnosticEvent: { severity: "warning", urn, message: "warning: Flag y changed outside this stack by \"m\u001b[31m\" at 2026-11-28T10:00:00Z: \"\n::error::x\"" } };
    const e = readPreviewEvents([JSON.stringify(pre), JSON.stringify(warning), "{cut sh"]);
    expect(e.resources[0]!.paths).toEqual([{ path: "name", kind: "update", declared: "y", actual: "x", changedBy: "m\\u001b[31m", changedAt: "2026-11-28T10:00:00Z" }]);
    expect(e.resources[0]!.notes![0]).not.toMatch(/[\u0000-\u001f]|^::error::/m);
  });

  // The real CLI 3.248.0 on a YAML program naming a type the schema lacks: no error diagnostic, the host's stderr only.
  it("of a program that failed without an engine error keep what the program wrote to stderr, warnings left out", () => {
    const info = (message: string, severity = "info#err") => JSON.stringify({ diagnosticEvent: { message, color: "never", severity } });
    const e = readPreviewEvents([
      info("using pulumi-resource-cloudbees from $PATH at /bin/x\n", "warning"),
      info("warning: using pulumi-resource-cloudbees from $PATH at /bin/x\n\n"),
      info('Error: error resolving type of resource t: unable to find resource type "cloudbees:Nope" in resource provider "cloudbees"\n\n'),
      info("  on Pulumi.yaml line 54:\n\n"),
    ]);
    expect({ errors: e.errors, programErrors: e.programErrors }).toEqual({
      errors: [],
      programErrors: ['Error: error resolving type of resource t: unable to find resource type "cloudbees:Nope" in resource provider "cloudbees"', "  on Pulumi.yaml line 54:"],
    });
    expect(bounded("\u001b[31mError\u001b[0m: bad \u0007")).toBe("Error: bad \\u0007");
  });
});

describe("the report", () => {
  it("is in stable order, groups causes, marks all drift new on a first run, and a clean stack is one line", () => {
    const r = assembleReport(estate(), { generatedAt: T1, toolVersion: "0.1.0" });
    expect(r.stacks.map((s) => `${s.id} ${s.status}`)).toEqual(["apps/a#prod drifted", "apps/b#prod drifted", "apps/c#prod clean", "apps/d#prod error"]);
    expect(r.summary).toEqual({ stacks: 4, clean: 1, drifted: 2, error: 1, locked: 0, timeout: 0, driftedResources: 4, driftedPaths: 6, newPaths: 6, resolvedPaths: 0 });
    const flag = r.causes.find((c) => c.path === "value[0].percentage")!;
    expect(flag).toMatchObject({ count: 2, actual: 75, summary: "flag configuration value[0].percentage 75 on 2 resources in 2 stacks" });
    expect(flag.members).toEqual([expect.stringMatching(/^apps\/a#prod urn:/), expect.stringMatching(/^apps\/b#prod urn:/)]);
    expect(r.causes.map((c) => c.count)).toEqual([2, 2, 2]);
    expect(r.causes.every((c) => c.type.startsWith("cloudbees:index:"))).toBe(true);
    // The dynamic providers' type and the plugin's are one cause; another provider's type of that name is not.
    expect([causeType("pulumi-nodejs:dynamic/cloudbees:FlagConfiguration"), causeType("cloudbees:index:FlagConfiguration"), causeType("acme:index:FlagConfiguration")]).toEqual([
      "cloudbees:index:FlagConfiguration",
      "cloudbees:index:FlagConfiguration",
      "acme:index:FlagConfiguration",
    ]);
    expect(reportText(r)).toMatch(/^ {4}\{ "id": "apps\/c#prod", .*"status": "clean", .*"counts": \{ "resources": 7, "drifted": 0, "paths": 0 \} \},?$/m);
    expect(JSON.parse(reportText(r))).toEqual(r);
  });

  it("names a controller's configuration cause by its file and key, as ControllerConfiguration's paths hold them", () => {
    const controller = (id: string, key: string): StackReport => ({
      id,
      folder: id.split("#")[0]!,
      stack: "prod",
      status: "drifted",
      durationMs: 1,
      counts: { resources: 1, drifted: 1, paths: 1 },
      resources: [
        {
          urn: `urn:pulumi:prod::${id.split("#")[0]}::cloudbees:index:ControllerConfiguration::c`,
          type: "cloudbees:index:ControllerConfiguration",
          name: "c",
          op: "update",
          paths: [{ path: `configuration[${JSON.stringify(key)}]`, kind: "update", declared: "3181", actual: "d788", firstSeen: T1, status: "new" }],
        },
      ],
    });
    const stacks = ["ci-a#prod", "ci-b#prod", "ci-c#prod"].map((id) => controller(id, "jenkins.yaml: jenkins.systemMessage"));
    const r = assembleReport([...stacks, controller("ci-d#prod", "items.yaml")], { generatedAt: T1, toolVersion: "0.1.0" });
    expect(r.causes.map((c) => c.summary)).toEqual(["jenkins.yaml: jenkins.systemMessage on 3 controllers", "items.yaml (whole file) on 1 controller"]);
  });

  it("keeps firstSeen across runs (known), and lists drift gone since as resolved", () => {
    const first = assembleReport(estate(), { generatedAt: T1, toolVersion: "0.1.0" });
    const next = estate();
    next[0] = stack("apps/b#prod", "dynamic-clean.jsonl");
    const second = assembleReport(next, { generatedAt: T2, toolVersion: "0.1.0", previous: first });
    const paths = second.stacks.flatMap((s) => (s.resources ?? []).flatMap((r) => r.paths));
    expect(new Set(paths.map((p) => `${p.firstSeen} ${p.status}`))).toEqual(new Set([`${T1} known`]));
    expect(second.resolved.map((p) => `${p.stack} ${p.path} ${p.firstSeen}`)).toEqual([
      `apps/b#prod controllers ${T1}`,
      `apps/b#prod regex ${T1}`,
      `apps/b#prod value[0].percentage ${T1}`,
    ]);
    expect(exitCodeOf(second, "new")).toBe(EXIT.partial);
    expect(exitCodeOf(second, "any")).toBe(EXIT.drift);
  });

  it("exit codes: drift over partial, partial, clean", () => {
    const of = (stacks: StackReport[]) => exitCodeOf(assembleReport(stacks, { generatedAt: T1, toolVersion: "x" }), "any");
    expect(of(estate())).toBe(EXIT.drift);
    expect(of([stack("a#s", "dynamic-clean.jsonl"), stack("b#s", undefined, "locked")])).toBe(EXIT.partial);
    expect(of([stack("a#s", "dynamic-clean.jsonl")])).toBe(EXIT.clean);
  });

  it("of shards, merged, equals the unsharded report but for generatedAt", () => {
    // The run's start is its first shard's.
    const whole = assembleReport(estate(), { generatedAt: "2026-11-28T10:00:01.000Z", toolVersion: "0.1.0" });
    const shards = [1, 2, 3].map((i) => {
      const shard = parseShard(`${i}/3`);
      return assembleReport(shardOf(estate(), shard), { generatedAt: `2026-11-28T10:00:0${i}.000Z`, toolVersion: "0.1.0", shard });
    });
    const ids = shards.flatMap((s) => s.stacks.map((x) => x.id));
    expect(ids.sort()).toEqual(whole.stacks.map((s) => s.id));
    const merged = mergeReports(shards);
    expect(merged).toEqual(whole);
    expect(() => mergeReports([shards[0]!, shards[0]!])).toThrow(/in more than one of the reports/);
  });

  it("of shards given the previous report, each resolves only its own stacks' paths: merged, nothing still drifting is resolved", () => {
    const previous = assembleReport(estate(), { generatedAt: T1, toolVersion: "0.1.0" });
    const whole = assembleReport(estate(), { generatedAt: T2, toolVersion: "0.1.0", previous });
    expect(whole.resolved).toEqual([]);
    const shards = [1, 2].map((i) => {
      const shard = parseShard(`${i}/2`);
      return assembleReport(shardOf(estate(), shard), { generatedAt: T2, toolVersion: "0.1.0", shard, previous });
    });
    expect(shards.map((s) => s.resolved)).toEqual([[], []]);
    expect(mergeReports(shards)).toEqual(whole);
  });

  it("drift merge --fail-on new: the shards' known drift alone passes, new drift in any shard fails; any drift fails by default", async () => {
    const previous = assembleReport(estate(), { generatedAt: T1, toolVersion: "0.1.0" });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "drift-merge-"));
    const write = (name: string, r: DriftReport) => fs.writeFileSync(path.join(dir, name), reportText(r));
    [1, 2].forEach((i) => {
      const shard = parseShard(`${i}/2`);
      write(`known-${i}.json`, assembleReport(shardOf(estate(), shard), { generatedAt: T2, toolVersion: "0.1.0", shard, previous }));
      write(`new-${i}.json`, assembleReport(shardOf(estate(), shard), { generatedAt: T2, toolVersion: "0.1.0", shard, ...(i === 1 ? { previous } : {}) }));
    });
    const quiet = { write: () => true, isTTY: false } as unknown as NodeJS.WriteStream;
    const merge = (...args: string[]) => driftCommand(["merge", ...args.map((a) => (a.endsWith(".json") ? path.join(dir, a) : a)), "--out", path.join(dir, "out")], quiet);
    expect(await merge("known-1.json", "known-2.json", "--fail-on", "new")).toBe(EXIT.partial); // estate() has a stack in error
    expect(await merge("known-1.json", "known-2.json")).toBe(EXIT.drift);
    expect(await merge("new-1.json", "new-2.json", "--fail-on", "new")).toBe(EXIT.drift);
    expect(readReport(path.join(dir, "out", "drift-report.json")).summary.newPaths).toBeGreaterThan(0);
    expect(() => parseDriftArgs(["merge", "a.json", "--out", "o", "--previous", "p.json"])).toThrow("drift merge takes --out and --fail-on, not --previous (give it to the shards' runs)");
    fs.rmSync(dir, { recursive: true });
  });

  it("validates against drift-report.schema.json", () => {
    const r = assembleReport(estate(), { generatedAt: T1, toolVersion: "0.1.0", shard: { index: 1, count: 1 } });
    expect(schemaProblems(REPORT_SCHEMA, JSON.parse(reportText(r)), REPORT_SCHEMA)).toEqual([]);
    expect(schemaProblems(REPORT_SCHEMA, { ...r, stacks: [{ id: "x" }] }, REPORT_SCHEMA)).not.toEqual([]);
  });
});

describe("bad input", () => {
  const bad = (args: string[]) => () => parseDriftArgs(args, "/tmp");
  it("is named", () => {
    expect(bad(["--stack", "a#s", "--concurrency", "17"])).toThrow("--concurrency 17 is outside 1-16");
    expect(bad(["--stack", "a#s", "--concurrency", "0"])).toThrow(/outside 1-16/);
    expect(bad(["--stack", "a#s", "--shard", "4/3"])).toThrow("--shard 4/3 is outside its range");
    expect(bad(["--stack", "a#s", "--shard", "0/3"])).toThrow(/outside its range/);
    expect(bad(["--stack", "nohash"])).toThrow(/expected <folder>#<stack>/);
    expect(bad([])).toThrow(/no stacks/);
    expect(bad(["--stack", "a#s", "--stack", "a#s"])).toThrow(/given twice/);
    expect(bad(["--stack", "a#s", "--fail-on", "some"])).toThrow(/give any or new/);
    expect(bad(["--stacks-file", "/nonexistent.yaml"])).toThrow(/cannot be read/);
    expect(bad(["merge", "a.json"])).toThrow(/--out/);
  });

  it("reads a stacks file of YAML, folders relative to it", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "drift-args-"));
    fs.writeFileSync(path.join(dir, "stacks.yaml"), "stacks:\n  - folder: infra/flags\n    stack: prod\n  - infra/ci#dev\n");
    const parsed = parseDriftArgs(["--stacks-file", path.join(dir, "stacks.yaml")], "/");
    expect(parsed.kind === "drift" && parsed.args.stacks.map((s) => [s.id, s.dir])).toEqual([
      ["infra/flags#prod", path.join(dir, "infra", "flags")],
      ["infra/ci#dev", path.join(dir, "infra", "ci")],
    ]);
    fs.rmSync(dir, { recursive: true });
  });

  it("a missing folder, a folder without Pulumi.yaml, and a malformed previous report: named, the report still written", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "drift-run-"));
    fs.mkdirSync(path.join(dir, "empty"));
    fs.writeFileSync(path.join(dir, "previous.json"), "{not json");
    const err = { write: (t: string) => ((said += t), true), isTTY: false } as unknown as NodeJS.WriteStream;
    let said = "";
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      // No CLI: could not run, said once, nothing written.
      expect(await driftCommand(["--stack", "missing#dev", "--out", "none", "--pulumi", "/nonexistent/pulumi"], err)).toBe(EXIT.couldNotRun);
      expect(said).toMatch(/the Pulumi CLI "\/nonexistent\/pulumi" does not answer `pulumi version`/);
      expect(fs.existsSync(path.join(dir, "none"))).toBe(false);
      // A CLI that answers its version (these stacks never reach it).
      fs.writeFileSync(path.join(dir, "pulumi"), "#!/bin/sh\necho v3.248.0\n", { mode: 0o755 });
      const code = await driftCommand(["--stack", "missing#dev", "--stack", "empty#dev", "--previous", "previous.json", "--out", "out", "--pulumi", path.join(dir, "pulumi")], err);
      expect(code).toBe(EXIT.partial);
    } finally {
      process.chdir(cwd);
    }
    expect(said).toMatch(/warning: the report ".*previous\.json" cannot be read as JSON/);
    const report = readReport(path.join(dir, "out", "drift-report.json"));
    expect(report.stacks.map((s) => [s.id, s.status, s.error])).toEqual([
      ["empty#dev", "error", 'the folder "empty" has no Pulumi.yaml: give a Pulumi project\'s folder'],
      ["missing#dev", "error", 'the folder "missing" does not exist'],
    ]);
    // Beside it, its Markdown for a pipeline's summary and its page.
    expect(fs.readFileSync(path.join(dir, "out", "drift-report.md"), "utf8")).toContain("missing\\#dev: error: the folder");
    expect(fs.readFileSync(path.join(dir, "out", "drift-report.html"), "utf8")).toMatch(/^<!DOCTYPE html>/i);
    fs.rmSync(dir, { recursive: true });
  });
});

describe("each stack's preview", () => {
  it("runs with ts-node's compile cache off, unless the caller says otherwise (nodejs/node#51555)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "drift-env-"));
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: p\nruntime: nodejs\n");
    const fake = path.join(dir, "pulumi");
    fs.writeFileSync(fake, '#!/bin/sh\necho "[$DISABLE_V8_COMPILE_CACHE]" > seen\n', { mode: 0o755 });
    // The suite's global setup sets it for every process; here it is the command's own doing.
    const saved = process.env.DISABLE_V8_COMPILE_CACHE;
    delete process.env.DISABLE_V8_COMPILE_CACHE;
    try {
      const target = { id: "p#dev", folder: "p", stack: "dev", dir };
      await checkStack(target, { pulumi: fake, timeoutMs: 10_000 });
      expect(fs.readFileSync(path.join(dir, "seen"), "utf8")).toBe("[1]\n");
      await checkStack(target, { pulumi: fake, timeoutMs: 10_000, env: { DISABLE_V8_COMPILE_CACHE: "" } });
      expect(fs.readFileSync(path.join(dir, "seen"), "utf8")).toBe("[]\n");
    } finally {
      if (saved !== undefined) process.env.DISABLE_V8_COMPILE_CACHE = saved;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
