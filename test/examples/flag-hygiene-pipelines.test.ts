/**
 * The flag-hygiene recipe of examples/pipelines for GitHub Actions (issue 64, "the pipeline recipes"):
 * flag-hygiene.yml, a weekly job that runs `pulumi-cloudbees flags` with the last report as --previous and --fail-on
 * new (its Jenkins twin: flag-hygiene-jenkinsfile.test.ts). Its shape here, and its command script run by bash as
 * GitHub runs it, with a `pulumi-cloudbees` on PATH that records its argv (flag-hygiene-stub.ts): that argv goes
 * through the command's own parser (cli/flags/args.ts, node:util parseArgs in strict mode), so a misspelt option, a
 * value it refuses or --fail-on new without --previous fails here as it would fail the job. The step's handling of
 * the exit codes and the outputs the later steps read are checked on reports written by hand.
 * actionlint checks the workflow in test/real-engine/drift-workflow.test.ts.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as YAML from "yaml";
import { parseFlagsArgs } from "../../cli/flags/args";
import { parsed, PIPELINES_DIR as DIR, runner, writeReport } from "./flag-hygiene-stub";
import { secretReferences } from "./workflow-secrets";

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

/** A step's script as GitHub runs it (bash -e -o pipefail), `npx` left to PATH. */
function runStep(script: string, cwd: string, env: NodeJS.ProcessEnv): { status: number | null; output: string } {
  const r = spawnSync("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script.replace(/\bnpx /g, "")], { cwd, env, encoding: "utf8" });
  return { status: r.status, output: r.stdout + r.stderr };
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
    const settings = fs.readFileSync(path.join(__dirname, "..", "..", "provider", "config", "settings.ts"), "utf8");
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
