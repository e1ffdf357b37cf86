/**
 * The estate drift recipes of examples/pipelines (issue 53, "Beyond one machine"): the GitHub Actions workflow
 * (estate-drift.yml: a matrix job per shard, a merge job that writes the step summary, uploads the page, keeps the
 * report for the next run's --previous and fails only on new drift) and the Jenkinsfile (Jenkinsfile.estate:
 * `parallel` shard stages, stash/unstash, merge, archiveArtifacts). Their shape here; their scripts run by bash on
 * the built command (stacks that cannot be checked, and shard reports written by hand for drift), so the exit codes
 * and the outputs the notification reads are the command's own. actionlint checks the workflow in
 * test/real-engine/drift-workflow.test.ts.
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as YAML from "yaml";
import { assertBuiltPackage } from "../resources/helpers";
import { allCalls, block, calls, parseJenkinsfile, type Expr, type Statement } from "./jenkinsfile-parser";

const ROOT = path.join(__dirname, "..", "..");
const DIR = path.join(ROOT, "examples", "pipelines");
const MAIN = path.join(ROOT, "dist", "cli", "main.js");

type Step = { name?: string; id?: string; uses?: string; run?: string; if?: string; env?: Record<string, string>; with?: Record<string, unknown> };
type Job = { needs?: string; strategy?: { "fail-fast"?: boolean; matrix: { shard: number[] } }; steps: Step[] };

const workflowText = fs.readFileSync(path.join(DIR, "estate-drift.yml"), "utf8");
const doc = YAML.parseDocument(workflowText, { prettyErrors: true, uniqueKeys: true });
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const wf = doc.toJS() as any;
const jobs = wf.jobs as Record<string, Job>;
const step = (job: string, name: string): Step => {
  const found = jobs[job]!.steps.find((s) => s.name === name);
  if (!found) throw new Error(`no step ${name} in ${job}`);
  return found;
};

/** A work folder with `pulumi-cloudbees` on PATH (the built command), as `npx pulumi-cloudbees` finds it. */
function workFolder(): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "estate-pipelines-"));
  fs.mkdirSync(path.join(dir, "bin"));
  fs.writeFileSync(path.join(dir, "bin", "pulumi-cloudbees"), `#!/bin/sh\nexec "${process.execPath}" "${MAIN}" "$@"\n`, { mode: 0o755 });
  // A Pulumi CLI that answers its version, which the command asks before anything runs; these stacks never reach it.
  fs.writeFileSync(path.join(dir, "bin", "pulumi"), "#!/bin/sh\necho v3.248.0\n", { mode: 0o755 });
  return { dir, env: { PATH: `${path.join(dir, "bin")}:${process.env.PATH}`, HOME: dir } };
}

/** A step's script as GitHub runs it (bash -eo pipefail), `npx` left to PATH. */
function runStep(script: string, cwd: string, env: NodeJS.ProcessEnv): { status: number | null; output: string } {
  const r = spawnSync("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script.replace(/\bnpx /g, "")], { cwd, env, encoding: "utf8" });
  return { status: r.status, output: r.stdout + r.stderr };
}

const outputs = (file: string): Record<string, string> =>
  Object.fromEntries(fs.readFileSync(file, "utf8").trim().split("\n").map((l) => l.split("=", 2) as [string, string]));

describe("examples/pipelines/estate-drift.yml", () => {
  it("parses as YAML with no errors or warnings, runs on a schedule and by hand, with a read-only token", () => {
    expect(doc.errors.map(String)).toEqual([]);
    expect(doc.warnings.map(String)).toEqual([]);
    expect(wf.on.schedule[0].cron).toMatch(/^\S+ \S+ \S+ \S+ \S+$/);
    expect(Object.keys(wf.on)).toContain("workflow_dispatch");
    expect(wf.permissions).toEqual({ contents: "read" });
    expect(wf.concurrency["cancel-in-progress"]).toBe(false);
  });

  it("runs a matrix job per shard, --shard i/n from the matrix, and uploads each shard's report", () => {
    expect(Object.keys(jobs)).toEqual(["drift", "merge"]);
    expect(jobs.drift!.strategy!["fail-fast"]).toBe(false);
    expect(jobs.drift!.strategy!.matrix.shard).toEqual([1, 2, 3, 4]);
    const check = step("drift", "Drift check");
    expect(check.env!.SHARD).toBe("${{ matrix.shard }}/${{ strategy.job-total }}");
    expect(check.run).toMatch(/npx pulumi-cloudbees drift --stacks-file "\$STACKS_FILE" --shard "\$SHARD"/);
    expect(check.env!.PULUMI_ACCESS_TOKEN).toBe("${{ secrets.PULUMI_ACCESS_TOKEN }}");
    expect(step("drift", "Upload the shard's report")).toMatchObject({ uses: "actions/upload-artifact@v4", with: { name: "drift-shard-${{ matrix.shard }}" } });
    // Every token through env:, none inline in a script.
    for (const j of Object.values(jobs)) for (const s of j.steps) expect(s.run ?? "").not.toMatch(/secrets\./);
  });

  it("restores the report the merge job saves, under the same path (a cache entry is found by its path too)", () => {
    const restore = step("drift", "Restore the previous report");
    const save = jobs.merge!.steps.find((s) => s.uses === "actions/cache/save@v4")!;
    expect(restore.uses).toBe("actions/cache/restore@v4");
    expect(restore.with!.path).toBe(save.with!.path);
    expect(save.with!.key).toMatch(new RegExp(`^${String(restore.with!["restore-keys"])}`));
  });

  it("merges the shards, writes the step summary, uploads the page, and fails only on new drift", () => {
    const merge = jobs.merge!;
    expect(merge.needs).toBe("drift");
    expect(merge.steps.find((s) => s.uses === "actions/download-artifact@v4")!.with).toMatchObject({ pattern: "drift-shard-*" });
    expect(step("merge", "Merge").run).toContain("npx pulumi-cloudbees drift merge shards/*/drift-report.json --out drift-report");
    expect(step("merge", "Summary").run).toBe('cat drift-report/drift-report.md >> "$GITHUB_STEP_SUMMARY"');
    expect(String(step("merge", "Upload the report").with!.path)).toContain("drift-report/drift-report.html");
    expect(step("merge", "Fail on new drift").if).toBe("steps.merge.outputs.new != '0'");
  });

  describe("its scripts, on the built command", () => {
    beforeAll(() => assertBuiltPackage());

    it("shards that cannot check their stacks pass (exit 2, partial), and the merge counts them as partial with no new drift", () => {
      const { dir, env } = workFolder();
      try {
        fs.writeFileSync(path.join(dir, "drift-stacks.yaml"), "stacks:\n  - folder: infra/flags\n    stack: prod\n  - infra/ci#dev\n  - infra/casc#prod\n");
        for (const shard of [1, 2]) {
          const r = runStep(step("drift", "Drift check").run!, dir, { ...env, STACKS_FILE: "drift-stacks.yaml", CONCURRENCY: "2", SHARD: `${shard}/2` });
          expect(r.output).toContain(`--shard ${shard}/2 exited 2`);
          expect(r.status).toBe(0);
          fs.mkdirSync(path.join(dir, "shards", `drift-shard-${shard}`), { recursive: true });
          fs.renameSync(path.join(dir, "drift-report", "drift-report.json"), path.join(dir, "shards", `drift-shard-${shard}`, "drift-report.json"));
        }
        const out = path.join(dir, "github-output");
        fs.writeFileSync(out, "");
        expect(runStep(step("merge", "Merge").run!, dir, { ...env, GITHUB_OUTPUT: out }).status).toBe(0);
        expect(outputs(out)).toEqual({ code: "2", new: "0", drifted: "0", partial: "3" });
        expect(fs.existsSync(path.join(dir, "drift-report", "drift-report.html"))).toBe(true);
        // A bad argument (a shard outside its range) is "could not run": the shard's job fails.
        const bad = runStep(step("drift", "Drift check").run!, dir, { ...env, STACKS_FILE: "drift-stacks.yaml", CONCURRENCY: "2", SHARD: "3/2" });
        expect(bad.output).toContain("exited 3");
        expect(bad.status).not.toBe(0);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }, 60_000);

    it("the merge of shards with drift gives the outputs the notification reads: new only for paths not seen before", () => {
      const { dir, env } = workFolder();
      const stack = (id: string, status: "new" | "known") => ({
        id,
        folder: id.split("#")[0],
        stack: id.split("#")[1],
        status: "drifted",
        durationMs: 5,
        counts: { resources: 3, drifted: 1, paths: 1 },
        resources: [
          { urn: `urn:pulumi:prod::p::cloudbees:index:Flag::f`, type: "cloudbees:index:Flag", name: "f", op: "update", paths: [{ path: "value", kind: "update", declared: true, actual: false, firstSeen: "2026-01-01T00:00:00.000Z", status }] },
        ],
      });
      const shard = (index: number, s: ReturnType<typeof stack>) => ({
        schemaVersion: 1,
        generatedAt: `2026-01-02T00:00:0${index}.000Z`,
        toolVersion: "0.0.0",
        shard: { index, count: 2 },
        summary: { stacks: 1, clean: 0, drifted: 1, error: 0, locked: 0, timeout: 0, driftedResources: 1, driftedPaths: 1, newPaths: s.resources[0]!.paths[0]!.status === "new" ? 1 : 0, resolvedPaths: 0 },
        stacks: [s],
        causes: [],
        resolved: [],
      });
      try {
        const write = (name: string, content: unknown) => {
          fs.mkdirSync(path.join(dir, "shards", name), { recursive: true });
          fs.writeFileSync(path.join(dir, "shards", name, "drift-report.json"), JSON.stringify(content));
        };
        write("drift-shard-1", shard(1, stack("a#prod", "known")));
        write("drift-shard-2", shard(2, stack("b#prod", "new")));
        const out = path.join(dir, "github-output");
        fs.writeFileSync(out, "");
        expect(runStep(step("merge", "Merge").run!, dir, { ...env, GITHUB_OUTPUT: out }).status).toBe(0);
        expect(outputs(out)).toEqual({ code: "1", new: "1", drifted: "2", partial: "0" });
        // Known drift only: the notification's condition is false.
        write("drift-shard-2", shard(2, stack("b#prod", "known")));
        fs.writeFileSync(out, "");
        expect(runStep(step("merge", "Merge").run!, dir, { ...env, GITHUB_OUTPUT: out }).status).toBe(0);
        expect(outputs(out)).toMatchObject({ code: "1", new: "0" });
        expect(execFileSync("cat", ["drift-report/drift-report.md"], { cwd: dir, encoding: "utf8" })).toMatch(/b\\?#prod/);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }, 60_000);
  });
});

describe("examples/pipelines/Jenkinsfile.estate", () => {
  const tree = parseJenkinsfile(fs.readFileSync(path.join(DIR, "Jenkinsfile.estate"), "utf8"));
  const pipeline = block(tree, "pipeline");
  const str = (e: Expr | undefined): string => {
    if (e?.kind !== "string") throw new Error(`expected a string, got ${JSON.stringify(e)}`);
    return e.value;
  };
  const stages = calls(block(pipeline.block, "stages").block, "stage");
  const stepsOf = (stage: Statement) => block(stage.kind === "call" ? stage.block : [], "steps").block;

  it("parses as declarative Groovy: one pipeline, a Drift stage of parallel shards, then Merge", () => {
    expect(tree).toHaveLength(1);
    expect(stages.map((s) => str(s.args[0]?.value))).toEqual(["Drift", "Merge"]);
    const shards = calls(block(stages[0]!.block, "parallel").block, "stage");
    expect(shards.map((s) => str(s.args[0]?.value))).toEqual(["Shard 1", "Shard 2", "Shard 3", "Shard 4"]);
    const env = block(pipeline.block, "environment").block!;
    expect(env.find((s) => s.name === "SHARDS")).toMatchObject({ kind: "assign", value: { value: String(shards.length) } });
  });

  it("each shard restores the previous report, runs its shard and stashes its report", () => {
    const shards = calls(block(stages[0]!.block, "parallel").block, "stage");
    shards.forEach((s, i) => {
      const env = block(s.block, "environment").block!;
      expect(env[0]).toMatchObject({ kind: "assign", name: "SHARD", value: { value: String(i + 1) } });
      const steps = stepsOf(s)!;
      expect(block(steps, "copyArtifacts").args.map((a) => a.name)).toEqual(expect.arrayContaining(["projectName", "selector", "filter", "optional"]));
      const sh = calls(steps, "sh").map((c) => str(c.args[0]!.value)).join("\n");
      expect(sh).toContain('npx pulumi-cloudbees drift --stacks-file "$STACKS_FILE" --shard "$SHARD/$SHARDS"');
      const stash = block(steps, "stash");
      expect(Object.fromEntries(stash.args.map((a) => [a.name, str(a.value)]))).toEqual({ name: `shard-${i + 1}`, includes: `shard-${i + 1}/drift-report.json` });
    });
  });

  it("merge unstashes every shard, merges, archives the report and fails only on new drift", () => {
    const steps = stepsOf(stages[1]!)!;
    expect(calls(steps, "unstash").map((c) => str(c.args[0]!.value))).toEqual(["shard-1", "shard-2", "shard-3", "shard-4"]);
    const sh = calls(steps, "sh").map((c) => str(c.args[0]!.value)).join("\n");
    expect(sh).toContain("npx pulumi-cloudbees drift merge shard-*/drift-report.json --out drift-report");
    expect(sh).toContain("summary.newPaths");
    expect(str(block(steps, "archiveArtifacts").args[0]!.value)).toBe("drift-report/*");
    // Single-quoted scripts: the shell expands the variables, Groovy interpolates nothing (credentials stay masked).
    for (const c of allCalls(stages).filter((x) => x.name === "sh")) expect(c.args[0]!.value).toMatchObject({ kind: "string", quote: expect.stringMatching(/^'/) });
  });

  it("its shard script, run by sh on the built command, passes on a partial run", () => {
    assertBuiltPackage();
    const { dir, env } = workFolder();
    try {
      fs.writeFileSync(path.join(dir, "drift-stacks.yaml"), "- infra/ci#dev\n- infra/flags#prod\n");
      const shardScript = calls(stepsOf(calls(block(stages[0]!.block, "parallel").block, "stage")[0]!), "sh").map((c) => str(c.args[0]!.value))[1]!;
      const r = spawnSync("sh", ["-xe", "-c", shardScript.replace(/\bnpx /g, "")], { cwd: dir, env: { ...env, STACKS_FILE: "drift-stacks.yaml", SHARD: "1", SHARDS: "2", CONCURRENCY: "2" }, encoding: "utf8" });
      expect(r.stdout + r.stderr).toContain("--shard 1/2 exited 2");
      expect(r.status).toBe(0);
      expect(JSON.parse(fs.readFileSync(path.join(dir, "shard-1", "drift-report.json"), "utf8")).shard).toEqual({ index: 1, count: 2 });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
