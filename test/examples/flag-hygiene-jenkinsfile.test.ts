/**
 * examples/pipelines/Jenkinsfile.flags (issue 64, "the pipeline recipes"): the weekly flag-hygiene job as a
 * declarative pipeline. Its shape here, parsed as Groovy (jenkinsfile-parser.ts), and its command script run by sh -xe
 * as Jenkins runs it, with a `pulumi-cloudbees` on PATH that records its argv (flag-hygiene-stub.ts): that argv goes
 * through the command's own parser, so a misspelt option or a value it refuses fails here as it would fail the build.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { allCalls, block, calls, parseJenkinsfile, type Expr, type Statement } from "./jenkinsfile-parser";
import { parsed, PIPELINES_DIR as DIR, runner, writeReport } from "./flag-hygiene-stub";

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
