/**
 * The drift command's two modes and its retries (issue 65), on recorded engine events: test/fixtures/drift's
 * `preview-*.jsonl` and `refresh-*.jsonl` are the real CLI 3.248.0's event logs of one estate against the emulator
 * (examples/plugin/dynamic on the TypeScript dynamic providers and examples/plugin/yaml through the plugin; after `up`,
 * alice@example.com changed a flag configuration and a person team-a's availability pattern), by `pulumi preview
 * --refresh --expect-no-changes` and by `pulumi refresh --preview-only --expect-no-changes`, serialized providers cut;
 * `refresh-yaml-refused.jsonl` the refresh of the YAML stack with the emulator gone. Both modes give the same drifted
 * paths with the same declared and actual values; a check that failed only for reasons that may pass is run again,
 * one whose program, arguments or provider are wrong is not; a fake `pulumi` plays the CLI's answers.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DEFAULT_MODE, parseDriftArgs } from "../../cli/drift/args";
import { assembleReport } from "../../cli/drift/assemble";
import { driftCommand, progressItem, reportText, REPORT_SCHEMA } from "../../cli/drift/command";
import { readEngineEvents, readPreviewEvents } from "../../cli/drift/events";
import { EXIT, type CheckMode, type StackReport } from "../../cli/drift/report";
import { renderHtml } from "../../cli/drift/render-html";
import { renderMarkdown } from "../../cli/drift/render-markdown";
import { mayPass, withRetries } from "../../cli/drift/retry";
import { checkStack } from "../../cli/drift/run-stack";
import { schemaProblems } from "./json-schema";

const FIXTURES = path.join(__dirname, "..", "fixtures", "drift");
const events = (name: string, mode: CheckMode) => readEngineEvents(fs.readFileSync(path.join(FIXTURES, name), "utf8").split("\n"), mode);

describe("a refresh's events", () => {
  it.each(["dynamic", "yaml"])("of the %s stack give the preview's drifted resources, paths, values, who and when, and notes", (face) => {
    const preview = events(`preview-${face}-drifted.jsonl`, "preview");
    const refresh = events(`refresh-${face}-drifted.jsonl`, "refresh");
    expect(refresh.resources).toEqual(preview.resources);
    expect({ refresh: refresh.resourceCount, finished: refresh.finished, errors: refresh.errors }).toEqual({ refresh: preview.resourceCount, finished: true, errors: [] });
    const flag = refresh.resources.find((r) => r.name === "newFlowStaging")!;
    expect(flag.paths).toEqual([{ path: "value[0].percentage", kind: "update", declared: 50, actual: 75, changedBy: "alice@example.com", changedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:]+Z$/) }]);
    expect(flag.notes![0]).toMatch(/^FlagConfiguration checkout\.newFlow\/Staging changed outside this stack by "alice@example\.com"/);
  });

  it("name the availability pattern changed by hand on the dynamic providers: declared controllers, the service's regex", () => {
    const teamB = events("refresh-dynamic-drifted.jsonl", "refresh").resources.find((r) => r.name === "teamB")!;
    expect([teamB.op, teamB.paths]).toEqual([
      "update",
      [
        { path: "controllers", kind: "add", declared: ["team-a/controller-a"] },
        { path: "regex", kind: "delete", actual: "team-a/.*|sandbox" },
      ],
    ]);
  });

  it("of a clean stack hold nothing drifted; read as a preview, a refresh's steps would be taken backwards", () => {
    expect(events("refresh-dynamic-clean.jsonl", "refresh")).toMatchObject({ resources: [], resourceCount: 7, errors: [], finished: true });
    // The mode matters: declared and actual are the other way round in a refresh's step.
    const wrong = readPreviewEvents(fs.readFileSync(path.join(FIXTURES, "refresh-yaml-drifted.jsonl"), "utf8").split("\n"));
    expect(wrong.resources[0]!.paths[0]).toMatchObject({ declared: 75, actual: 50 });
  });

  it("a resource gone on the service is created again; a detailed diff's kinds are turned back; a replacing kind replaces", () => {
    const urn = (name: string) => `urn:pulumi:dev::p::cloudbees:index:Flag::${name}`;
    const step = (name: string, op: string, rest: Record<string, unknown>) =>
      JSON.stringify({ resOutputsEvent: { metadata: { op, urn: urn(name), type: "cloudbees:index:Flag", ...rest } } });
    const state = { id: "f", inputs: { name: "f", tags: ["a"], description: "declared" } };
    const read = { id: "f", inputs: { name: "f", owner: "bob", description: "by hand" } };
    const e = readEngineEvents(
      [
        step("gone", "delete", { old: state, new: null }),
        // The engine inverts the provider's diff: `tags`, which the service lost, is `delete` there (an add for `up`).
        step("changed", "update", { old: state, new: read, detailedDiff: { tags: { kind: "delete", inputDiff: true }, owner: { kind: "add", inputDiff: true }, description: { kind: "update" } } }),
        step("renamed", "update", { old: state, new: { ...state, inputs: { ...state.inputs, name: "g" } }, detailedDiff: { name: { kind: "update-replace" } } }),
        step("same", "same", { old: state, new: state }),
      ],
      "refresh",
    );
    expect(e.resources.map((r) => [r.name, r.op, r.paths])).toEqual([
      ["gone", "create", [{ path: "(resource)", kind: "add" }]],
      [
        "changed",
        "update",
        [
          { path: "description", kind: "update", declared: "declared", actual: "by hand" },
          { path: "owner", kind: "delete", actual: "bob" },
          { path: "tags", kind: "add", declared: ["a"] },
        ],
      ],
      ["renamed", "replace", [{ path: "name", kind: "update", declared: "f", actual: "g" }]],
    ]);
  });
});

describe("a failed check", () => {
  const reasons = (file: string) => events(file, "refresh").errors;

  it("may pass when every reason it gave may: the emulator gone, a 5xx, a rate limit, the backend's 5xx, a connection reset", () => {
    expect(reasons("refresh-yaml-refused.jsonl")).toHaveLength(7);
    expect(mayPass(reasons("refresh-yaml-refused.jsonl"))).toBe(true);
    for (const r of [
      "Preview failed: reading Flag (a/b): listing flags (GET /x): server error (503) after 4 attempts. Try again later.",
      "Preview failed: reading Application (a): reading application (GET /x): rate limited (555) after 4 attempts.",
      "Preview failed: reading Application (a): (GET /x): network failure UND_ERR_SOCKET: other side closed (after 4 attempts).",
      "Preview failed: reading Application (a): (GET /x): no complete response within 30000 ms (after 4 attempts).",
      "error: [503] Service Unavailable",
      "error: read tcp 127.0.0.1:443: read: connection reset by peer",
      "error: rpc error: code = Unavailable desc = error reading from server: EOF",
    ]) {
      expect({ r, passes: mayPass([r, "preview failed"]) }).toEqual({ r, passes: true });
    }
  });

  it("does not pass when a reason is the program's, the arguments', a credential's or a configuration's, or when none is given", () => {
    const transient = "Preview failed: reading Flag (a/b): listing flags (GET /x): server error (503) after 4 attempts.";
    for (const r of [
      'Error: error resolving type of resource t: unable to find resource type "cloudbees:Nope"',
      "Preview failed: reading Flag (a/b): listing flags (GET /x): authentication failed (401).",
      "Preview failed: reading Flag (a/b): (GET /x): not found (404).",
      "Preview failed: reading Flag (a/b): (GET /x): network failure ENOTFOUND: getaddrinfo ENOTFOUND ci.exmaple.com.",
      "Preview failed: reading Flag (a/b): (GET /x): network failure CERT_HAS_EXPIRED: certificate has expired.",
      "error: [403] Forbidden",
    ]) {
      expect({ r, alone: mayPass([r]), withTransient: mayPass([transient, r]) }).toEqual({ r, alone: false, withTransient: false });
    }
    expect(mayPass([])).toBe(false);
    expect(mayPass(["preview failed", "error: no changes were expected for refresh but changes were proposed"])).toBe(false);
  });

  it("is run again up to the retries, each pause twice the last, until it does not fail for a passing reason", async () => {
    const pauses: number[] = [];
    const sleep = async (ms: number) => void pauses.push(ms);
    const answers = (passing: boolean[]) => {
      let i = 0;
      return async () => ({ result: i, passing: passing[i++]! });
    };
    expect(await withRetries(answers([true, true, false]), { retries: 2, pauseMs: 10, sleep })).toEqual({ result: 2, tries: 3 });
    expect(pauses).toEqual([10, 20]);
    expect(await withRetries(answers([true, true, true, true]), { retries: 2, pauseMs: 10, sleep })).toEqual({ result: 2, tries: 3 });
    expect(await withRetries(answers([false, true]), { retries: 2, pauseMs: 10, sleep })).toEqual({ result: 0, tries: 1 });
    expect(await withRetries(answers([true, false]), { retries: 0, pauseMs: 10, sleep })).toEqual({ result: 0, tries: 1 });
  });
});

describe("each stack's check, on a fake pulumi that plays the CLI's answers in turn", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "drift-modes-"));
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: p\nruntime: yaml\n");
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /**
   * A `pulumi` whose n-th run copies answers[n]'s event log to --event-log, prints its stderr and exits with its
   * code; each run's arguments are kept in `calls`.
   */
  function fakePulumi(answers: Array<{ log?: string; stderr?: string; code: number }>): string {
    const fake = path.join(dir, "pulumi");
    const script = `#!/usr/bin/env node
const fs = require("fs"), path = require("path");
const calls = path.join(${JSON.stringify(dir)}, "calls");
const args = process.argv.slice(2);
fs.appendFileSync(calls, JSON.stringify(args) + "\\n");
const answers = ${JSON.stringify(answers)};
const answer = answers[Math.min(fs.readFileSync(calls, "utf8").trim().split("\\n").length, answers.length) - 1];
if (answer.log) fs.copyFileSync(answer.log, args[args.indexOf("--event-log") + 1]);
process.stderr.write(answer.stderr || "");
process.exit(answer.code);
`;
    fs.writeFileSync(fake, script, { mode: 0o755 });
    return fake;
  }
  const calls = () => fs.readFileSync(path.join(dir, "calls"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as string[]);
  const target = () => ({ id: "p#dev", folder: "p", stack: "dev", dir });
  const fixture = (name: string) => path.join(FIXTURES, name);

  it("runs pulumi refresh --preview-only in the refresh mode, pulumi preview --refresh in the preview mode; the report says which", async () => {
    const pulumi = fakePulumi([{ log: fixture("refresh-yaml-drifted.jsonl"), code: 7 }, { log: fixture("preview-yaml-drifted.jsonl"), code: 255 }]);
    const refresh = await checkStack(target(), { pulumi, timeoutMs: 10_000, mode: "refresh" });
    const preview = await checkStack(target(), { pulumi, timeoutMs: 10_000, mode: "preview" });
    expect(calls().map((a) => a.slice(0, 3))).toEqual([
      ["refresh", "--preview-only", "--expect-no-changes"],
      ["preview", "--refresh", "--expect-no-changes"],
    ]);
    expect([refresh.mode, refresh.tries, refresh.status, preview.mode, preview.tries, preview.status]).toEqual(["refresh", 1, "drifted", "preview", 1, "drifted"]);
    expect(refresh.resources).toEqual(preview.resources);
    expect(refresh.counts).toEqual(preview.counts);
  });

  it("checks again a stack that failed for a passing reason, and says how many tries it took", async () => {
    const pulumi = fakePulumi([{ log: fixture("refresh-yaml-refused.jsonl"), code: 255 }, { log: fixture("refresh-yaml-drifted.jsonl"), code: 7 }]);
    const r = await checkStack(target(), { pulumi, timeoutMs: 10_000, mode: "refresh", retries: 2, retryPauseMs: 0 });
    expect([r.status, r.tries, r.counts.paths]).toEqual(["drifted", 2, 1]);
    expect(calls()).toHaveLength(2);
  });

  it("gives up after the retries, with the last try's reasons", async () => {
    const pulumi = fakePulumi([{ log: fixture("refresh-yaml-refused.jsonl"), code: 255 }]);
    const r = await checkStack(target(), { pulumi, timeoutMs: 10_000, mode: "refresh", retries: 2, retryPauseMs: 0 });
    expect([r.status, r.tries]).toEqual(["error", 3]);
    expect(r.error).toMatch(/network failure ECONNREFUSED/);
  });

  it("does not check again a stack whose program or credential is wrong", async () => {
    const unauthorized = "Preview failed: reading Flag (a/b): listing flags (GET /x): authentication failed (401). Check the token.";
    const pulumi = fakePulumi([{ stderr: `error: ${unauthorized}\n`, code: 255 }, { log: fixture("refresh-yaml-drifted.jsonl"), code: 7 }]);
    const r = await checkStack(target(), { pulumi, timeoutMs: 10_000, mode: "refresh", retries: 2, retryPauseMs: 0 });
    expect([r.status, r.tries]).toEqual(["error", 1]);
    // A token rotated since the last up is still the state's: said so.
    expect(r.error).toContain("the refresh reads with the provider configuration recorded in the state");
  });

  it("names a provider the state records that cannot start, with the way out, and does not check it again", async () => {
    const plugin =
      "error: could not load provider for resource urn:pulumi:dev::p::cloudbees:index:BundleAvailability::teamB: could not create provider " +
      "urn:pulumi:dev::p::pulumi:providers:cloudbees::default::374b: load plugin for cloudbees provider 'urn:pulumi:dev::p::pulumi:providers:cloudbees::default': " +
      "no resource plugin 'pulumi-resource-cloudbees' found in the workspace or on your $PATH\n";
    const nodeModules =
      "error: could not load provider for resource urn:pulumi:dev::p::pulumi-nodejs:dynamic/cloudbees:Flag::f: could not create provider " +
      "urn:pulumi:dev::p::pulumi:providers:pulumi-nodejs::default::fd00: load plugin for pulumi-nodejs provider 'urn:pulumi:dev::p::pulumi:providers:pulumi-nodejs::default': " +
      "could not read plugin [/bin/pulumi-resource-pulumi-nodejs]: EOF\n";
    const cannotFind = JSON.stringify({ diagnosticEvent: { severity: "info#err", message: "Error: Cannot find module '@pulumi/pulumi/cmd/dynamic-provider'\n\n" } });
    fs.writeFileSync(path.join(dir, "host.jsonl"), `${cannotFind}\n`);
    const pulumi = fakePulumi([{ stderr: plugin, code: 255 }, { stderr: nodeModules, log: path.join(dir, "host.jsonl"), code: 255 }]);
    const yaml = await checkStack(target(), { pulumi, timeoutMs: 10_000, mode: "refresh", retries: 2, retryPauseMs: 0 });
    const ts = await checkStack(target(), { pulumi, timeoutMs: 10_000, mode: "refresh", retries: 2, retryPauseMs: 0 });
    expect([yaml.status, yaml.tries, ts.status, ts.tries]).toEqual(["error", 1, "error", 1]);
    expect(yaml.error).toBe(
      'the provider "cloudbees" that the state records for urn:pulumi:dev::p::cloudbees:index:BundleAvailability::teamB cannot start: no resource plugin ' +
        "'pulumi-resource-cloudbees' found in the workspace or on your $PATH. The stack's other resources were not read; install the plugin at the version " +
        "the state records (pulumi plugin install resource cloudbees <version>), or put pulumi-resource-cloudbees on PATH",
    );
    expect(ts.error).toMatch(/^the provider "pulumi-nodejs" that the state records for urn:\S+::f cannot start: could not read plugin \[\S+\]: EOF; its host said: Error: Cannot find module '@pulumi\/pulumi\/cmd\/dynamic-provider'\. .*need the project's node_modules \(run npm install/);
  });
});

describe("the command's options", () => {
  const parsed = (...args: string[]) => {
    const p = parseDriftArgs(["--stack", "a#s", ...args], "/tmp");
    if (p.kind !== "drift") throw new Error("not a drift run");
    return p.args;
  };

  it("default to the refresh mode and two retries, ten seconds apart, then doubling", () => {
    expect(DEFAULT_MODE).toBe("refresh");
    expect(parsed()).toMatchObject({ mode: "refresh", retries: 2, retryPauseMs: 10_000 });
    expect(parsed("--mode", "preview", "--retries", "0", "--retry-pause", "3")).toMatchObject({ mode: "preview", retries: 0, retryPauseMs: 3000 });
  });

  it("name what is wrong", () => {
    expect(() => parsed("--mode", "apply")).toThrow('--mode "apply": give refresh or preview');
    expect(() => parsed("--retries", "11")).toThrow("--retries 11 is outside 0-10");
    expect(() => parsed("--retry-pause", "1.5")).toThrow(`--retry-pause "1.5" is not a whole number`);
    expect(() => parseDriftArgs(["merge", "a.json", "--out", "o", "--mode", "refresh"])).toThrow("drift merge takes --out and --fail-on, not --mode (give it to the shards' runs)");
  });

  it("the command, given an unknown mode: could not run (3), saying why once and the usage", async () => {
    let said = "";
    const err = { write: (t: string) => ((said += t), true), isTTY: false } as unknown as NodeJS.WriteStream;
    expect(await driftCommand(["--mode", "apply"], err)).toBe(EXIT.couldNotRun);
    expect(said).toMatch(/^pulumi-cloudbees drift: --mode "apply": give refresh or preview\n\nUsage: pulumi-cloudbees drift \[options\]/);
    expect(said.match(/give refresh or preview/g)).toHaveLength(1);
  });
});

describe("the report of both modes", () => {
  const stack = (id: string, mode: CheckMode, tries: number, fixture?: string): StackReport => {
    const e = fixture ? events(fixture, mode) : undefined;
    const [folder, name] = id.split("#") as [string, string];
    const counts = { resources: e?.resourceCount ?? 0, drifted: e?.resources.length ?? 0, paths: e?.resources.reduce((n, r) => n + r.paths.length, 0) ?? 0 };
    const found = e?.resources.length ? { resources: e.resources as StackReport["resources"] } : {};
    return { id, folder, stack: name, status: !e ? "error" : e.resources.length ? "drifted" : "clean", mode, tries, durationMs: 1000, counts, ...found, ...(e ? {} : { error: "server error (503)" }) };
  };
  const report = assembleReport(
    [stack("ts#dev", "refresh", 2, "refresh-dynamic-drifted.jsonl"), stack("yaml#dev", "preview", 1, "preview-yaml-drifted.jsonl"), stack("ts#prod", "refresh", 1, "refresh-dynamic-clean.jsonl"), stack("down#dev", "refresh", 3)],
    { generatedAt: "2026-12-05T10:00:00.000Z", toolVersion: "0.1.0" },
  );

  it("says per stack its mode and tries, in JSON that its schema takes; a clean stack stays one line", () => {
    expect(report.stacks.map((s) => [s.id, s.mode, s.tries])).toEqual([
      ["down#dev", "refresh", 3],
      ["ts#dev", "refresh", 2],
      ["ts#prod", "refresh", 1],
      ["yaml#dev", "preview", 1],
    ]);
    expect(schemaProblems(REPORT_SCHEMA, JSON.parse(reportText(report)))).toEqual([]);
    expect(schemaProblems(REPORT_SCHEMA, { ...report, stacks: [{ ...report.stacks[0], mode: "apply", tries: 0 }] })).toEqual([
      "$.stacks[0].mode: not one of preview, refresh",
      "$.stacks[0].tries: below 1",
    ]);
    expect(reportText(report)).toMatch(/^ {4}\{ "id": "ts#prod", .*"status": "clean", "mode": "refresh", "tries": 1, "durationMs": 1000, "counts": \{ "resources": 7, "drifted": 0, "paths": 0 \} \},?$/m);
  });

  it("in Markdown: the run's modes and retried stacks in its first line, each stack's mode where they are mixed, its tries past one", () => {
    const text = renderMarkdown(report);
    expect(text).toContain(
      "Run of 2026-12-05T10:00:00.000Z by pulumi-cloudbees 0.1.0 · checked in mode preview (1 stack, pulumi preview --refresh) and mode refresh (3 stacks, pulumi refresh --preview-only) · 2 stacks checked again after a passing fault (3 more checks)\n",
    );
    expect(text).toContain("3 paths in 2 of 7 resources · 1.0 s · mode refresh · 2 tries\n");
    expect(text).toContain("- 🔴 down\\#dev: error: server error (503) · 1.0 s · mode refresh · 3 tries\n");
    expect(text).toContain("- 🟢 ts\\#prod: clean · 7 resources · 1.0 s · mode refresh\n");
    const single = renderMarkdown({ ...report, stacks: report.stacks.filter((s) => s.mode === "refresh" && s.tries === 1) });
    expect(single).toContain("· checked by pulumi refresh --preview-only (mode refresh)\n");
    expect(single).toContain("- 🟢 ts\\#prod: clean · 7 resources · 1.0 s\n");
  });

  it("in the command's progress: a stack's tries past one", () => {
    const line = (id: string) => progressItem(report.stacks.find((s) => s.id === id)!).detail;
    expect([line("ts#dev"), line("down#dev"), line("yaml#dev"), line("ts#prod")]).toEqual(["3 paths, 2 tries", "3 tries", "1 path", undefined]);
  });

  it("on the page: the same words", () => {
    const page = renderHtml([report]);
    expect(page).toContain(" · checked in mode preview (1 stack, pulumi preview --refresh) and mode refresh (3 stacks, pulumi refresh --preview-only) · 2 stacks checked again after a passing fault (3 more checks)</p>");
    const data = JSON.parse(page.match(/id="drift-data">([^<]*)<\/script>/)![1]!) as { stacks: Array<{ id: string; line: string }> };
    expect(data.stacks.find((s) => s.id === "ts#dev")!.line).toBe("3 paths in 2 of 7 resources · 1.0 s · mode refresh · 2 tries");
  });
});
