/**
 * The flag-hygiene recipes of examples/pipelines (issue 64, "the pipeline recipes"): flag-hygiene.yml, a weekly
 * GitHub Actions job that runs `pulumi-cloudbees flags` with the last report as --previous and --fail-on new, and
 * Jenkinsfile.flags, the same as a declarative pipeline. Their shape here, and their command scripts run by bash as
 * GitHub runs them (sh -xe as Jenkins does), with a `pulumi-cloudbees` on PATH that records its
 * argv: that argv goes through the command's own parser (cli/flags/args.ts, node:util parseArgs in strict mode), so a
 * misspelt option, a value it refuses or --fail-on new without --previous fails here as it would fail the job. The
 * step's handling of the exit codes and the outputs the later steps read are checked on reports written by hand.
 * actionlint checks the workflow in test/real-engine/drift-workflow.test.ts.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as YAML from "yaml";
import { parseFlagsArgs, type FlagsArgs } from "../../cli/flags/args";
import { allCalls, block, calls, parseJenkinsfile, type Expr, type Statement } from "./jenkinsfile-parser";
import { secretReferences } from "./workflow-secrets";

const ROOT = path.join(__dirname, "..", "..");
const DIR = path.join(ROOT, "examples", "pipelines");

type Step = { name?: string; id?: string; uses?: string; run?: string; if?: string; env?: Record<string, string>; with?: Record<string, unknown> };
type Job = { "runs-on": string; "timeout-minutes"?: number; steps: Step[] };

const text = fs.readFileSync(path.join(DIR, "flag-hygiene.yml"), "utf8");
const doc = YAML.parseDocument(text, { prettyErrors: true, uniqueKeys: true });
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const wf = doc.toJS() as any;
const jobs = (wf.jobs ?? {}) as Record<string, Job>;
const steps = (): Step[] => jobs.flags!.steps;
const step = (name: string): Step => {
  const found = steps().find((s) => s.name === name);
  if (!found) throw new Error(`no step ${name}`);
  return found;
};
const index = (pred: (s: Step) => boolean): number => steps().findIndex(pred);

/**
 * A checkout and a runner's temporary folder, with a `pulumi-cloudbees` on PATH (as `npx pulumi-cloudbees` finds the
 * installed bin) that writes its argv, one argument a line, to `argv`, the report $STUB_REPORT names into --out, and
 * exits with $STUB_EXIT.
 */
function runner(): { dir: string; workspace: string; temp: string; env: NodeJS.ProcessEnv; argv: () => string[] } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "flag-hygiene-pipeline-"));
  const workspace = path.join(dir, "workspace");
  const temp = path.join(dir, "runner-temp");
  const bin = path.join(dir, "bin");
  for (const d of [workspace, temp, bin]) fs.mkdirSync(d);
  const argvFile = path.join(dir, "argv");
  fs.writeFileSync(
    path.join(bin, "pulumi-cloudbees"),
    [
      "#!/bin/sh",
      `for a in "$@"; do printf '%s\\n' "$a"; done > "${argvFile}"`,
      // As the command writes its reports into --out: the report $STUB_REPORT names, and a page and Markdown.
      'out=""; while [ $# -gt 0 ]; do if [ "$1" = --out ]; then out="$2"; fi; shift; done',
      'if [ -n "$STUB_REPORT" ]; then mkdir -p "$out"; cp "$STUB_REPORT" "$out/flags-report.json"; echo md > "$out/flags-report.md"; echo html > "$out/flags-report.html"; fi',
      'exit "${STUB_EXIT:-0}"',
      "",
    ].join("\n"),
    { mode: 0o755 },
  );
  // The stacks file the command line names: the parser reads it (a missing one is a bad argument, exit 3).
  fs.writeFileSync(path.join(workspace, "stacks.yaml"), "stacks:\n  - folder: infra/flags\n    stack: prod\n  - infra/ci#dev\n");
  const output = path.join(dir, "github-output");
  fs.writeFileSync(output, "");
  return {
    dir,
    workspace,
    temp,
    env: { PATH: `${bin}:${process.env.PATH}`, HOME: dir, RUNNER_TEMP: temp, GITHUB_OUTPUT: output, CLOUDBEES_FEATURE_MANAGEMENT_TOKEN: "token-that-must-not-show" },
    argv: () => fs.readFileSync(argvFile, "utf8").split("\n").slice(0, -1),
  };
}

/** A step's script as GitHub runs it (bash -e -o pipefail), `npx` left to PATH. */
function runStep(script: string, cwd: string, env: NodeJS.ProcessEnv): { status: number | null; output: string } {
  const r = spawnSync("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script.replace(/\bnpx /g, "")], { cwd, env, encoding: "utf8" });
  return { status: r.status, output: r.stdout + r.stderr };
}

/** The step's command line as `pulumi-cloudbees flags` parses it, from the folder the step runs in. */
function parsed(argv: string[], cwd: string): FlagsArgs {
  expect(argv[0]).toBe("flags");
  const p = parseFlagsArgs(argv.slice(1), cwd);
  if (p.kind !== "flags") throw new Error(`parsed as ${p.kind}`);
  return p.args;
}

/** A flags-report.json for the stub to write, as much of it as the scripts read: the environment that names it. */
function writeReport(dir: string, summary: { candidates: number; newCandidates: number }, errors: { kind: string }[]): NodeJS.ProcessEnv {
  const file = path.join(dir, "report-to-write.json");
  fs.writeFileSync(file, JSON.stringify({ schemaVersion: 1, summary, errors: errors.map((e) => ({ ...e, message: "x" })) }));
  return { STUB_REPORT: file };
}

const outputs = (file: string): Record<string, string> =>
  Object.fromEntries(fs.readFileSync(file, "utf8").trim().split("\n").map((l) => l.split("=", 2) as [string, string]));

describe("examples/pipelines/flag-hygiene.yml", () => {
  it("parses as YAML with no errors or warnings", () => {
    expect(doc.errors.map(String)).toEqual([]);
    expect(doc.warnings.map(String)).toEqual([]);
  });

  it("runs weekly and by hand, with a read-only token, one run at a time", () => {
    const cron = wf.on.schedule[0].cron as string;
    const [minute, hour, dom, month, dow] = cron.split(" ");
    expect([minute, hour].every((f) => /^\d+$/.test(f!))).toBe(true);
    expect(Number(minute)).toBeLessThan(60);
    expect(Number(minute)).not.toBe(0); // not at the top of the hour, which GitHub delays or drops under load
    expect(Number(hour)).toBeLessThan(24);
    expect([dom, month]).toEqual(["*", "*"]);
    expect(dow).toMatch(/^[0-6]$/); // one day of the week
    expect(Object.keys(wf.on)).toContain("workflow_dispatch");
    expect(wf.permissions).toEqual({ contents: "read" });
    expect(wf.concurrency["cancel-in-progress"]).toBe(false);
  });

  it("checks out, sets up Node.js 20 with the npm cache, runs npm ci and installs the Pulumi CLI before the command", () => {
    expect(Object.keys(jobs)).toEqual(["flags"]);
    expect(jobs.flags!["runs-on"]).toBe("ubuntu-latest");
    expect(jobs.flags!["timeout-minutes"]).toEqual(expect.any(Number));
    const node = steps().find((s) => s.uses === "actions/setup-node@v4")!;
    expect(node.with).toEqual({ "node-version": 20, cache: "npm" });
    const checkout = index((s) => s.uses === "actions/checkout@v4");
    const npmCi = index((s) => s.run === "npm ci");
    const cli = index((s) => s.uses === "pulumi/actions@v6");
    const command = index((s) => s.name === "Flag hygiene");
    expect(checkout).toBe(0);
    expect(npmCi).toBeGreaterThan(index((s) => s === node));
    expect(Math.min(npmCi, cli)).toBeGreaterThan(checkout);
    expect(command).toBeGreaterThan(Math.max(npmCi, cli));
    expect(step("Flag hygiene").run).toContain("npx pulumi-cloudbees flags ");
  });

  it("gives the feature-flag token and the backend's only through env:, whole, and no script names the token", () => {
    const found = secretReferences(wf);
    for (const f of found) {
      expect(f.where).toMatch(/(^|\.)env\.[A-Z_][A-Z0-9_]*$/);
      expect(f.value).toMatch(/^\$\{\{ secrets\.[A-Z_][A-Z0-9_]* \}\}$/);
    }
    expect((text.match(/secrets\./g) ?? []).length).toBe(found.length);
    expect(step("Flag hygiene").env).toMatchObject({
      CLOUDBEES_FEATURE_MANAGEMENT_TOKEN: "${{ secrets.CLOUDBEES_FEATURE_MANAGEMENT_TOKEN }}",
      PULUMI_ACCESS_TOKEN: "${{ secrets.PULUMI_ACCESS_TOKEN }}",
      PULUMI_BACKEND_URL: "${{ secrets.PULUMI_BACKEND_URL }}",
      PULUMI_CONFIG_PASSPHRASE: "${{ secrets.PULUMI_CONFIG_PASSPHRASE }}",
    });
    // The command reads the token from its environment; nothing in a script spells it, expands an expression
    // (outputs reach scripts through env: too) or traces the commands (set -x would print the expanded lines).
    for (const s of steps()) {
      expect(s.run ?? "").not.toMatch(/TOKEN|PASSPHRASE|\$\{\{|set -x|set -o xtrace/);
    }
    // Every CLOUDBEES_* name the file mentions is one the settings read (provider/config/settings.ts).
    const settings = fs.readFileSync(path.join(ROOT, "provider", "config", "settings.ts"), "utf8");
    const known = new Set([...settings.matchAll(/env: "(CLOUDBEES_[A-Z_]+)"/g)].map((m) => m[1]));
    for (const m of text.matchAll(/CLOUDBEES_[A-Z_]+/g)) expect(known).toContain(m[0]);
  });

  it("restores the report it keeps, under the same path and key prefix, and keeps it only when everything was read", () => {
    const restore = step("Restore the previous report");
    const keep = step("Keep the report for the next run");
    const save = steps().find((s) => s.uses === "actions/cache/save@v4")!;
    expect(restore.uses).toBe("actions/cache/restore@v4");
    expect(restore.with!.path).toBe(save.with!.path);
    expect(save.with!.key).toBe(restore.with!.key);
    expect(String(save.with!.key)).toMatch(new RegExp(`^${String(restore.with!["restore-keys"])}\\$\\{\\{ github\\.run_id \\}\\}$`));
    expect(index((s) => s === restore)).toBeLessThan(index((s) => s.name === "Flag hygiene"));
    expect(index((s) => s === keep)).toBeLessThan(index((s) => s === save));
    expect(keep.if).toBe("steps.flags.outputs.unread == '0'");
    expect(save.if).toBe(keep.if);
    // What the keep step copies is where the cache saves from, and where the command step looks for --previous.
    const cached = String(save.with!.path).replace("${{ runner.temp }}", "$RUNNER_TEMP");
    expect(keep.run).toContain(`"${cached}"`);
    expect(step("Flag hygiene").run).toContain(`if [ -f "${cached}" ]`);
  });

  it("appends the Markdown to the run's summary, uploads the page and the JSON, and fails only on new candidates", () => {
    expect(step("Summary").run).toBe('cat "$RUNNER_TEMP/flags-report/flags-report.md" >> "$GITHUB_STEP_SUMMARY"');
    const upload = step("Upload the report");
    expect(upload.uses).toBe("actions/upload-artifact@v4");
    expect(String(upload.with!.path).trim().split("\n")).toEqual(["${{ runner.temp }}/flags-report/flags-report.html", "${{ runner.temp }}/flags-report/flags-report.json"]);
    expect(upload.with!["if-no-files-found"]).toBe("error");
    const fail = step("Fail on new removal candidates");
    expect(fail.if).toBe("steps.flags.outputs.code == '1'");
    expect(fail.env).toEqual({ NEW: "${{ steps.flags.outputs.new }}", CANDIDATES: "${{ steps.flags.outputs.candidates }}" });
    expect(fail.run).toMatch(/exit 1\s*$/);
    expect(steps()[steps().length - 1]).toBe(fail); // after the summary, the upload and the cache
    expect(step("Warn on what could not be read").if).toBe("steps.flags.outputs.unread != '0'");
  });

  describe("its command step, run by bash, its argv parsed by the command's parser", () => {
    it("with the previous report restored: --source ., --stacks, --critical Production, --previous and --fail-on new, outside the scanned tree", () => {
      const r = runner();
      try {
        fs.mkdirSync(path.join(r.temp, "flags-previous"));
        fs.writeFileSync(path.join(r.temp, "flags-previous", "flags-report.json"), "{}");
        const report = writeReport(r.dir, { candidates: 3, newCandidates: 0 }, []);
        const run = runStep(step("Flag hygiene").run!, r.workspace, { ...r.env, ...report });
        expect(run.output).toContain("pulumi-cloudbees flags exited 0");
        expect(run.status).toBe(0);
        const args = parsed(r.argv(), r.workspace);
        expect(args).toMatchObject({
          sources: ["."],
          stacksFile: "stacks.yaml",
          critical: ["Production"],
          previousFile: path.join(r.temp, "flags-previous", "flags-report.json"),
          failOn: "new",
          out: path.join(r.temp, "flags-report"),
        });
        expect(args.stacks!.map((s) => s.id)).toEqual(["infra/flags#prod", "infra/ci#dev"]);
        // Neither the report written nor the one read is under a tree the command scans for code references.
        const scanned = args.sources.map((s) => path.resolve(r.workspace, s));
        for (const file of [args.out, args.previousFile!]) for (const root of scanned) expect(path.relative(root, file)).toMatch(/^\.\./);
        expect(outputs(r.env.GITHUB_OUTPUT!)).toEqual({ code: "0", candidates: "3", new: "0", unread: "0" });
        expect(run.output).not.toContain("token-that-must-not-show");
        // The steps after it find the report where they read it.
        const summary = path.join(r.dir, "step-summary");
        expect(runStep(step("Summary").run!, r.workspace, { ...r.env, GITHUB_STEP_SUMMARY: summary }).status).toBe(0);
        expect(fs.readFileSync(summary, "utf8")).toBe("md\n");
        expect(runStep(step("Keep the report for the next run").run!, r.workspace, r.env).status).toBe(0);
        expect(JSON.parse(fs.readFileSync(args.previousFile!, "utf8")).summary.candidates).toBe(3);
      } finally {
        fs.rmSync(r.dir, { recursive: true, force: true });
      }
    });

    it("on the first run, with no previous report: neither --previous nor --fail-on new (the command refuses the one without the other)", () => {
      const r = runner();
      try {
        const report = writeReport(r.dir, { candidates: 2, newCandidates: 2 }, [{ kind: "stack" }]);
        const run = runStep(step("Flag hygiene").run!, r.workspace, { ...r.env, ...report, STUB_EXIT: "1" });
        expect(run.status).toBe(0); // exit 1 is the report's to say: the last step fails the run
        const args = parsed(r.argv(), r.workspace);
        expect(args.previous).toBeUndefined();
        expect(args.failOn).toBe("any");
        expect(outputs(r.env.GITHUB_OUTPUT!)).toEqual({ code: "1", candidates: "2", new: "2", unread: "1" });
        expect(() => parseFlagsArgs([...r.argv().slice(1), "--fail-on", "new"], r.workspace)).toThrow(/--fail-on new needs --previous/);
      } finally {
        fs.rmSync(r.dir, { recursive: true, force: true });
      }
    });

    it("counts a previous report that could not be read apart: the report is still complete and kept", () => {
      const r = runner();
      try {
        const report = writeReport(r.dir, { candidates: 1, newCandidates: 1 }, [{ kind: "previous" }]);
        expect(runStep(step("Flag hygiene").run!, r.workspace, { ...r.env, ...report, STUB_EXIT: "1" }).status).toBe(0);
        expect(outputs(r.env.GITHUB_OUTPUT!)).toMatchObject({ code: "1", unread: "0" });
      } finally {
        fs.rmSync(r.dir, { recursive: true, force: true });
      }
    });

    it("fails the step, with the command's code, when it could not run (exit 3)", () => {
      const r = runner();
      try {
        const run = runStep(step("Flag hygiene").run!, r.workspace, { ...r.env, STUB_EXIT: "3" });
        expect(run.output).toContain("pulumi-cloudbees flags exited 3");
        expect(run.status).toBe(3);
        expect(outputs(r.env.GITHUB_OUTPUT!)).toEqual({ code: "3" });
      } finally {
        fs.rmSync(r.dir, { recursive: true, force: true });
      }
    });

    it("and a misspelt option in a copy of the step fails the parse, as it would fail the command", () => {
      const r = runner();
      try {
        fs.mkdirSync(path.join(r.temp, "flags-previous"));
        fs.writeFileSync(path.join(r.temp, "flags-previous", "flags-report.json"), "{}");
        const report = writeReport(r.dir, { candidates: 0, newCandidates: 0 }, []);
        for (const [from, to, error] of [
          ["--critical Production", "--critcal Production", /Unknown option '--critcal'/],
          ["--fail-on new", "--fail-on news", /--fail-on "news": give any or new/],
          ["--stacks stacks.yaml", "--stacks stack.yaml", /--stacks ".*stack\.yaml" cannot be read/],
        ] as const) {
          const script = step("Flag hygiene").run!;
          expect(script).toContain(from);
          expect(runStep(script.replace(from, to), r.workspace, { ...r.env, ...report }).status).toBe(0);
          expect(() => parsed(r.argv(), r.workspace)).toThrow(error);
        }
      } finally {
        fs.rmSync(r.dir, { recursive: true, force: true });
      }
    });
  });
});

describe("examples/pipelines/Jenkinsfile.flags", () => {
  const jenkinsText = fs.readFileSync(path.join(DIR, "Jenkinsfile.flags"), "utf8");
  const tree = parseJenkinsfile(jenkinsText);
  const pipeline = block(tree, "pipeline");
  const str = (e: Expr | undefined): string => {
    if (e?.kind !== "string") throw new Error(`expected a string, got ${JSON.stringify(e)}`);
    return e.value;
  };
  const stages = calls(block(pipeline.block, "stages").block, "stage");
  const stepsOf = (stage: Statement) => block(stage.kind === "call" ? stage.block : [], "steps").block!;
  const script = (): string => {
    const sh = calls(stepsOf(stages[1]!), "sh").map((c) => str(c.args[0]!.value));
    const found = sh.filter((s) => s.includes("npx pulumi-cloudbees flags "));
    expect(found).toHaveLength(1);
    return found[0]!;
  };

  /** The script as Jenkins' sh step runs it (sh -xe), in the workspace, $WORKSPACE_TMP beside it. */
  const runScript = (r: ReturnType<typeof runner>, env: NodeJS.ProcessEnv) => {
    const res = spawnSync("sh", ["-xe", "-c", script().replace(/\bnpx /g, "")], { cwd: r.workspace, env: { ...r.env, WORKSPACE_TMP: path.join(r.dir, "workspace@tmp"), ...env }, encoding: "utf8" });
    return { status: res.status, output: res.stdout + res.stderr };
  };
  const kept = (r: ReturnType<typeof runner>): unknown => {
    const file = path.join(r.workspace, "flags-keep", "flags-report.json");
    return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : undefined;
  };

  it("parses as declarative Groovy: weekly, one build at a time, the token from credentials(), Install then Flag hygiene", () => {
    expect(tree).toHaveLength(1);
    expect(pipeline.block!.map((s) => s.name)).toEqual(["agent", "triggers", "options", "environment", "stages", "post"]);
    const cron = str(block(block(pipeline.block, "triggers").block, "cron").args[0]!.value).split(" ");
    expect(cron).toHaveLength(5);
    expect(cron.slice(2, 4)).toEqual(["*", "*"]);
    expect(cron[4]).toMatch(/^[0-7]$/);
    expect(block(block(pipeline.block, "options").block, "disableConcurrentBuilds").args).toEqual([]);
    const env = block(pipeline.block, "environment").block!;
    expect(env.find((s) => s.name === "CLOUDBEES_FEATURE_MANAGEMENT_TOKEN")).toMatchObject({ kind: "assign", value: { kind: "call", name: "credentials", args: [{ value: { value: "cloudbees-feature-management-token" } }] } });
    for (const s of env) if (/TOKEN|PASSPHRASE|SECRET/.test(s.name)) expect(s).toMatchObject({ value: { kind: "call", name: "credentials" } });
    expect(stages.map((s) => str(s.args[0]?.value))).toEqual(["Install", "Flag hygiene"]);
    expect(calls(stepsOf(stages[0]!), "sh").map((c) => str(c.args[0]!.value))).toEqual(["npm ci"]);
    // Single-quoted scripts: the shell expands the variables, Groovy interpolates nothing (credentials stay masked).
    for (const c of allCalls(stages).filter((x) => x.name === "sh")) expect(c.args[0]!.value).toMatchObject({ kind: "string", quote: expect.stringMatching(/^'/) });
    expect(script()).not.toMatch(/TOKEN|PASSPHRASE/);
  });

  it("restores the last kept report with Copy Artifact and archives the report and the one to keep, whatever the result", () => {
    const copy = block(stepsOf(stages[1]!), "copyArtifacts");
    expect(Object.fromEntries(copy.args.map((a) => [a.name, a.value]))).toMatchObject({ filter: { value: "flags-keep/flags-report.json" }, optional: { value: true }, selector: { kind: "call", name: "lastCompleted" } });
    const archive = block(block(block(pipeline.block, "post").block, "always").block, "archiveArtifacts");
    expect(Object.fromEntries(archive.args.map((a) => [a.name, a.value]))).toMatchObject({ artifacts: { value: "flags-report/*, flags-keep/*" }, allowEmptyArchive: { value: true } });
  });

  it("its script with a kept report: the command line parses, --previous and --fail-on new, outside the workspace; new candidates fail the build", () => {
    const r = runner();
    try {
      fs.mkdirSync(path.join(r.workspace, "flags-keep"));
      fs.writeFileSync(path.join(r.workspace, "flags-keep", "flags-report.json"), JSON.stringify({ kept: "before" }));
      const report = writeReport(r.dir, { candidates: 2, newCandidates: 1 }, []);
      const run = runScript(r, { ...report, STUB_EXIT: "1" });
      expect(run.output).toContain("pulumi-cloudbees flags exited 1");
      expect(run.output).toContain("New removal candidates");
      expect(run.status).toBe(1);
      const args = parsed(r.argv(), r.workspace);
      expect(args).toMatchObject({ sources: ["."], stacksFile: "stacks.yaml", critical: ["Production"], failOn: "new" });
      for (const file of [args.out, args.previousFile!]) expect(path.relative(r.workspace, file)).toMatch(/^\.\./);
      // Archived: the report, and this one kept for the next build (it read everything).
      expect(fs.readdirSync(path.join(r.workspace, "flags-report")).sort()).toEqual(["flags-report.html", "flags-report.json", "flags-report.md"]);
      expect(kept(r)).toMatchObject({ summary: { candidates: 2 } });
      expect(run.output).not.toContain("token-that-must-not-show");
    } finally {
      fs.rmSync(r.dir, { recursive: true, force: true });
    }
  });

  it("its script on the first build: neither --previous nor --fail-on new; a partial report passes with a warning and is not kept", () => {
    const r = runner();
    try {
      const report = writeReport(r.dir, { candidates: 0, newCandidates: 0 }, [{ kind: "stack" }]);
      const run = runScript(r, { ...report, STUB_EXIT: "2" });
      expect(run.status).toBe(0);
      expect(run.output).toContain("WARNING: 1 things could not be read");
      const args = parsed(r.argv(), r.workspace);
      expect(args.previous).toBeUndefined();
      expect(args.failOn).toBe("any");
      expect(kept(r)).toBeUndefined();
    } finally {
      fs.rmSync(r.dir, { recursive: true, force: true });
    }
  });

  it("its script when the command could not run (exit 3) fails the build and keeps the report it started from", () => {
    const r = runner();
    try {
      fs.mkdirSync(path.join(r.workspace, "flags-keep"));
      fs.writeFileSync(path.join(r.workspace, "flags-keep", "flags-report.json"), JSON.stringify({ kept: "before" }));
      const run = runScript(r, { STUB_EXIT: "3" });
      expect(run.output).toContain("pulumi-cloudbees flags exited 3");
      expect(run.status).toBe(3);
      expect(kept(r)).toEqual({ kept: "before" });
    } finally {
      fs.rmSync(r.dir, { recursive: true, force: true });
    }
  });

  it("its script stops before anything when $WORKSPACE_TMP is not set (a Jenkins too old to give it)", () => {
    const r = runner();
    try {
      const res = spawnSync("sh", ["-xe", "-c", script().replace(/\bnpx /g, "")], { cwd: r.workspace, env: r.env, encoding: "utf8" });
      expect(res.status).not.toBe(0);
      expect(res.stderr).toMatch(/WORKSPACE_TMP: is not set/);
      expect(fs.existsSync(path.join(r.dir, "argv"))).toBe(false);
    } finally {
      fs.rmSync(r.dir, { recursive: true, force: true });
    }
  });

  it("a misspelt option in a copy of its script fails the parse", () => {
    const r = runner();
    try {
      const shipped = script();
      expect(shipped).toContain("--source . ");
      const broken = parseJenkinsfile(jenkinsText.replace("--source . ", "--sources . "));
      const brokenScript = calls(block(calls(block(block(broken, "pipeline").block, "stages").block, "stage")[1]!.block, "steps").block, "sh")
        .map((c) => str(c.args[0]!.value))
        .find((s) => s.includes("npx pulumi-cloudbees flags "))!;
      spawnSync("sh", ["-e", "-c", brokenScript.replace(/\bnpx /g, "")], { cwd: r.workspace, env: { ...r.env, WORKSPACE_TMP: path.join(r.dir, "tmp") } });
      expect(() => parsed(r.argv(), r.workspace)).toThrow(/Unknown option '--sources'/);
    } finally {
      fs.rmSync(r.dir, { recursive: true, force: true });
    }
  });
});
