/**
 * The drift-detection pipelines of examples/pipelines: the GitHub Actions workflow parses as YAML and has the shape a
 * drift job needs (schedule, manual run, read-only token, one run per stack, the preview that fails on changes,
 * secrets only through `env:`); the Jenkinsfile parses as the declarative subset of Groovy (./jenkinsfile-parser.ts)
 * and has the same. Nothing here runs Pulumi: docs/drift-detection.md shows how to run the job offline.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as YAML from "yaml";
import { allCalls, block, calls, JenkinsfileSyntaxError, parseJenkinsfile, type Expr, type Statement } from "./jenkinsfile-parser";
import { secretReferences } from "./workflow-secrets";

const DIR = path.join(__dirname, "..", "..", "examples", "pipelines");
const DRIFT_COMMAND = "pulumi preview --refresh --expect-no-changes";

/**
 * Whether `expr` is a 5-field cron expression (minute hour day-of-month month day-of-week) with every value in its
 * field's range: `*`, numbers, ranges, lists and steps; `jenkins` also allows H, H(a-b) and H/n.
 */
function isCron(expr: string, jenkins = false): boolean {
  const fields = expr.trim().split(/\s+/);
  if (fields.length !== 5) return false;
  const ranges: [number, number][] = [[0, 59], [0, 23], [1, 31], [1, 12], [0, jenkins ? 7 : 6]];
  const names = [[], [], [], ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"], ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"]];
  return fields.every((field, f) => {
    const [min, max] = ranges[f];
    const value = (v: string): number | undefined => {
      const byName = names[f].indexOf(v.toUpperCase());
      if (byName >= 0) return byName + (f === 3 ? 1 : 0);
      if (!/^\d+$/.test(v)) return undefined;
      const n = Number(v);
      return n >= min && n <= max ? n : undefined;
    };
    return field.split(",").every((part) => {
      const m = /^(\*|H(?:\((\w+)-(\w+)\))?|(\w+)(?:-(\w+))?)(?:\/(\d+))?$/.exec(part);
      if (!m) return false;
      const [, base, hFrom, hTo, from, to, step] = m;
      if (base.startsWith("H") && !jenkins) return false;
      if (step !== undefined && !(Number(step) >= 1 && Number(step) <= max)) return false;
      if (hFrom !== undefined) return value(hFrom) !== undefined && value(hTo) !== undefined && value(hFrom)! <= value(hTo)!;
      if (from === undefined) return true; // * or H
      if (value(from) === undefined) return false;
      return to === undefined || (value(to) !== undefined && value(from)! <= value(to)!);
    });
  });
}

describe("isCron (the checker the tests below rely on)", () => {
  it.each(["17 * * * 1-5", "0 */2 * * MON-FRI", "0,30 8-18 1 1-12 0"])("accepts %s", (e) => expect(isCron(e)).toBe(true));
  it.each(["* * * *", "60 * * * *", "0 24 * * *", "0 * 0 * *", "0 * * * 7", "0 * * * 5-1", "H * * * 1-5", "x * * * *"])("rejects %s", (e) =>
    expect(isCron(e)).toBe(false),
  );
  it("accepts Jenkins' H forms only for Jenkins", () => {
    expect(isCron("H * * * 1-5", true)).toBe(true);
    expect(isCron("H(0-29)/10 H/2 * * 7", true)).toBe(true);
    expect(isCron("H(30-10) * * * *", true)).toBe(false);
  });
});

describe("examples/pipelines/drift-detection.yml", () => {
  const text = fs.readFileSync(path.join(DIR, "drift-detection.yml"), "utf8");
  const doc = YAML.parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const wf = doc.toJS() as any;
  type Step = { name?: string; id?: string; uses?: string; run?: string; if?: string; env?: Record<string, string>; with?: Record<string, unknown> };
  const jobs = Object.values(wf.jobs ?? {}) as { "runs-on": string; steps: Step[] }[];
  const driftStep = (): Step => {
    const found = jobs.flatMap((j) => j.steps).filter((s) => typeof s.run === "string" && s.run.includes(DRIFT_COMMAND));
    expect(found).toHaveLength(1);
    return found[0];
  };

  it("parses as YAML with no errors or warnings", () => {
    expect(doc.errors.map(String)).toEqual([]);
    expect(doc.warnings.map(String)).toEqual([]);
  });

  it("runs on a valid schedule and by hand", () => {
    expect(typeof wf.on.schedule[0].cron).toBe("string");
    expect(isCron(wf.on.schedule[0].cron)).toBe(true);
    expect(Object.keys(wf.on)).toContain("workflow_dispatch");
  });

  it("has a read-only token and one run per stack at a time", () => {
    expect(wf.permissions).toEqual({ contents: "read" });
    expect(typeof wf.concurrency.group).toBe("string");
    expect(wf.concurrency.group.length).toBeGreaterThan(0);
    // The group names the stack: it cannot read `env`, so it repeats STACK's value.
    expect(wf.concurrency.group).toContain(wf.env.STACK);
    expect(wf.concurrency["cancel-in-progress"]).toBe(false);
  });

  it("installs the project and the Pulumi CLI, then runs the preview that fails on any change, on the stack of env.STACK", () => {
    expect(jobs).toHaveLength(1);
    const [job] = jobs;
    expect(job["runs-on"]).toBe("ubuntu-latest");
    const uses = job.steps.map((s) => s.uses).filter(Boolean);
    expect(uses).toEqual(expect.arrayContaining(["actions/checkout@v4", "actions/setup-node@v4", "pulumi/actions@v6"]));
    const node = job.steps.find((s) => s.uses === "actions/setup-node@v4")!;
    // The project in a subfolder: every run step works there, and the npm cache keys on its lock file.
    expect(wf.env.PROJECT_DIR).toEqual(expect.any(String));
    expect((job as { defaults?: { run?: Record<string, string> } }).defaults?.run).toEqual({ "working-directory": "${{ env.PROJECT_DIR }}" });
    expect(node.with).toEqual({ "node-version": 20, cache: "npm", "cache-dependency-path": "${{ env.PROJECT_DIR }}/package-lock.json" });
    const order = (pred: (s: Step) => boolean) => job.steps.findIndex(pred);
    const npmCi = order((s) => s.run === "npm ci");
    const cli = order((s) => s.uses === "pulumi/actions@v6");
    const drift = order((s) => s === driftStep());
    expect(npmCi).toBeGreaterThan(order((s) => s.uses === "actions/checkout@v4"));
    expect(cli).toBeGreaterThanOrEqual(0);
    expect(drift).toBeGreaterThan(Math.max(npmCi, cli));

    const run = driftStep().run!;
    expect(run).toMatch(/pulumi preview --refresh --expect-no-changes --diff --stack "\$STACK"/);
    expect(run).toMatch(/set -o pipefail/); // the step's exit code is pulumi's, not tee's
    // The package's policy pack runs in the same preview (issue 46), from the project's node_modules.
    expect(run).toMatch(/--policy-pack node_modules\/pulumi-cloudbees\/policy/);
    expect(typeof wf.env.STACK).toBe("string");
    // Either backend: Pulumi Cloud's token, or a self-managed backend's URL and the passphrase of its stacks' secrets.
    expect(driftStep().env).toMatchObject({
      PULUMI_ACCESS_TOKEN: "${{ secrets.PULUMI_ACCESS_TOKEN }}",
      PULUMI_BACKEND_URL: "${{ secrets.PULUMI_BACKEND_URL }}",
      PULUMI_CONFIG_PASSPHRASE: "${{ secrets.PULUMI_CONFIG_PASSPHRASE }}",
    });
  });

  it("passes the provider's settings only as variables the provider reads", () => {
    // provider/config/settings.ts: the environment variables that back the cloudbees:* keys.
    const settings = fs.readFileSync(path.join(__dirname, "..", "..", "provider", "config", "settings.ts"), "utf8");
    const known = new Set([...settings.matchAll(/env: "(CLOUDBEES_[A-Z_]+)"/g)].map((m) => m[1]));
    expect(known.size).toBeGreaterThan(5);
    const passed = Object.keys(driftStep().env!).filter((k) => k.startsWith("CLOUDBEES_"));
    expect(passed).toEqual(expect.arrayContaining(["CLOUDBEES_API_TOKEN", "CLOUDBEES_FEATURE_MANAGEMENT_TOKEN"]));
    for (const k of passed) expect(known).toContain(k);
    // And every CLOUDBEES_* name the comments mention exists too.
    for (const m of text.matchAll(/CLOUDBEES_[A-Z_]+/g)) expect(known).toContain(m[0]);
    for (const m of text.matchAll(/cloudbees:([A-Za-z]+)/g)) expect(settings).toContain(`"cloudbees:${m[1]}"`);
  });

  it("takes every secret from an env: mapping, whole, never inline in a script or an input", () => {
    const found = secretReferences(wf);
    expect(found.length).toBeGreaterThanOrEqual(3);
    for (const f of found) {
      expect(f.where).toMatch(/(^|\.)env\.[A-Z_][A-Z0-9_]*$/);
      expect(f.value).toMatch(/^\$\{\{ secrets\.[A-Z_][A-Z0-9_]* \}\}$/);
    }
    // The text agrees (no secret in a key, a flow scalar the walk would miss, or a comment showing one inline).
    expect((text.match(/secrets\./g) ?? []).length).toBe(found.length);
    for (const s of jobs.flatMap((j) => j.steps)) expect(s.run ?? "").not.toMatch(/\$\{\{/);
  });

  it("says in the run's summary, on failure, that drift was found and where the warnings are", () => {
    const steps = jobs[0].steps;
    const summary = steps.find((s) => typeof s.if === "string" && s.if.includes("failure()"));
    expect(summary).toBeDefined();
    const drift = driftStep();
    expect(drift.id).toBeDefined();
    expect(summary!.if).toContain(`steps.${drift.id}.outcome == 'failure'`);
    expect(steps.indexOf(summary!)).toBeGreaterThan(steps.indexOf(drift));
    expect(summary!.run).toContain("$GITHUB_STEP_SUMMARY");
    expect(summary!.run).toMatch(/Drift found/);
    expect(summary!.run).toMatch(/warnings/);
    // A mandatory policy of the pack is said apart from drift, and is not "could not run".
    expect(summary!.run).toMatch(/grep -q "\\\[mandatory\\\]"/);
    expect(summary!.run).toMatch(/A policy of the pack stops stack/);
  });
});

describe("examples/pipelines/Jenkinsfile", () => {
  const text = fs.readFileSync(path.join(DIR, "Jenkinsfile"), "utf8");
  const tree = parseJenkinsfile(text);
  const pipeline = block(tree, "pipeline");
  const str = (e: Expr | undefined): string => {
    if (e?.kind !== "string") throw new Error(`expected a string, got ${JSON.stringify(e)}`);
    return e.value;
  };

  it("is one pipeline block with agent, triggers, options, environment, stages and post", () => {
    expect(tree).toHaveLength(1);
    expect(pipeline.block!.map((s) => s.name)).toEqual(["agent", "triggers", "options", "environment", "stages", "post"]);
    const agent = block(pipeline.block, "agent");
    expect(agent.args.length + (agent.block?.length ?? 0)).toBeGreaterThan(0);
  });

  it("runs hourly on weekdays from a valid cron", () => {
    const cron = block(block(pipeline.block, "triggers").block, "cron");
    expect(cron.args).toHaveLength(1);
    expect(isCron(str(cron.args[0].value), true)).toBe(true);
    expect(str(cron.args[0].value)).toBe("H * * * 1-5");
  });

  it("never runs two builds at once, and times out", () => {
    const options = block(pipeline.block, "options").block;
    expect(block(options, "disableConcurrentBuilds").args).toEqual([]);
    const timeout = block(options, "timeout");
    expect(timeout.args.map((a) => a.name)).toEqual(["time", "unit"]);
  });

  it("takes every token from credentials()", () => {
    const env = block(pipeline.block, "environment").block!;
    expect(env.every((s) => s.kind === "assign")).toBe(true);
    const byName = new Map(env.map((s) => [s.name, s.kind === "assign" ? s.value : undefined]));
    expect(byName.get("STACK")).toMatchObject({ kind: "string" });
    const secrets = [...byName.keys()].filter((k) => /TOKEN|PASSWORD|PASSPHRASE|SECRET/.test(k));
    expect(secrets).toEqual(expect.arrayContaining(["PULUMI_ACCESS_TOKEN", "CLOUDBEES_API_TOKEN", "CLOUDBEES_FEATURE_MANAGEMENT_TOKEN"]));
    for (const k of secrets) {
      const v = byName.get(k)!;
      expect(v).toMatchObject({ kind: "call", name: "credentials" });
      if (v.kind === "call") {
        expect(v.args).toHaveLength(1);
        expect(str(v.args[0].value)).toMatch(/^[a-z0-9-]+$/);
      }
    }
  });

  it("installs, then runs the preview that fails on any change in an sh step, on the stack of env.STACK", () => {
    const stages = calls(block(pipeline.block, "stages").block, "stage");
    expect(stages.map((s) => str(s.args[0]?.value))).toEqual(["Install", "Drift check"]);
    const shOf = (stage: Statement) => calls(block(stage.kind === "call" ? stage.block : [], "steps").block, "sh").map((s) => str(s.args[0].value));
    expect(shOf(stages[0])).toContain("npm ci");
    const drift = shOf(stages[1]);
    expect(drift.some((s) => s.includes(DRIFT_COMMAND))).toBe(true);
    expect(drift.join("\n")).toMatch(/pulumi preview --refresh --expect-no-changes --diff (--non-interactive )?--stack "\$STACK" \\\n\s+--policy-pack node_modules\/pulumi-cloudbees\/policy\n/);
    // Single-quoted: the shell expands $STACK, Groovy interpolates nothing into the script.
    const shCalls = allCalls(stages).filter((c) => c.name === "sh");
    for (const c of shCalls) expect(c.args[0].value).toMatchObject({ kind: "string", quote: expect.stringMatching(/^'/) });
  });

  it("says on failure what a failing build means", () => {
    const failure = block(block(pipeline.block, "post").block, "failure");
    const said = calls(failure.block, "echo").map((e) => str(e.args[0].value)).join("\n");
    expect(said).toMatch(/no changes were expected/);
    expect(said).toMatch(/warnings name who changed what/);
    expect(said).toMatch(/\[mandatory\] policy/);
    expect(said).toContain("${env.STACK}");
  });
});

describe("the Jenkinsfile parser", () => {
  const fail = (src: string): JenkinsfileSyntaxError => {
    try {
      parseJenkinsfile(src);
    } catch (e) {
      expect(e).toBeInstanceOf(JenkinsfileSyntaxError);
      return e as JenkinsfileSyntaxError;
    }
    throw new Error(`parsed, but should not have:\n${src}`);
  };

  it("reads strings, escapes, interpolations, comments, named arguments and assignments", () => {
    const tree = parseJenkinsfile(
      [
        "pipeline { // a comment with an apostrophe's quote",
        "  /* a block comment { with ( brackets",
        "     over lines */",
        "  environment { A = 'it\\'s'; B = credentials(\"id-${x}\") }",
        '  steps { echo "a \\"b\\" ${env.X.toLowerCase()} $STACK." ; sh script: """',
        "    echo '${y}' \\",
        '      more""", returnStatus: true }',
        "  timeout(time: 30,",
        "          unit: 'MINUTES')",
        "}",
      ].join("\n"),
    );
    const p = block(tree, "pipeline");
    const env = block(p.block, "environment").block!;
    expect(env[0]).toMatchObject({ kind: "assign", name: "A", value: { kind: "string", value: "it's" }, line: 4 });
    expect(env[1]).toMatchObject({ kind: "assign", name: "B", value: { kind: "call", name: "credentials", args: [{ value: { value: "id-${x}", interpolations: ["x"] } }] } });
    const steps = block(p.block, "steps").block!;
    expect(steps[0]).toMatchObject({ kind: "call", name: "echo", args: [{ value: { value: 'a "b" ${env.X.toLowerCase()} $STACK.', interpolations: ["env.X.toLowerCase()", "STACK"] } }] });
    expect(steps[1]).toMatchObject({ kind: "call", name: "sh", args: [{ name: "script", value: { quote: '"""', value: "\n    echo '${y}'       more" } }, { name: "returnStatus", value: { kind: "boolean", value: true } }] });
    expect(block(p.block, "timeout")).toMatchObject({ args: [{ name: "time", value: { kind: "number", value: 30 } }, { name: "unit" }], line: 8 });
  });

  it("fails on an unclosed brace, naming the line it opened on", () => {
    const e = fail("pipeline {\n  stages {\n    stage('a') {\n  }\n}\n");
    expect(e.line).toBe(1);
    expect(e.message).toMatch(/^line 1: '\{' is never closed/);
  });

  it("fails on a stray or mismatched closer, at its line", () => {
    expect(fail("pipeline {\n}\n}\n").message).toMatch(/^line 3: unexpected '\}'/);
    expect(fail("pipeline {\n  cron('x'}\n)\n").message).toMatch(/^line 2: '\}' closes the '\(' opened on line 2/);
  });

  it("fails on an unterminated string, naming the line it starts on", () => {
    expect(fail("pipeline {\n  sh 'npm ci\n}\n").message).toMatch(/^line 2: unterminated single-quoted string/);
    expect(fail("a {\n  sh '''\n  npm ci\n}\n").message).toMatch(/^line 2: unterminated ''' string/);
    expect(fail('a {\n\n  echo "x ${env.X\n}\n').message).toMatch(/^line 3: unterminated/);
    expect(fail("a {\n  /* never closed\n}\n").message).toMatch(/^line 2: unterminated \/\* comment/);
  });

  it("fails on an unexpected token or a bad escape", () => {
    expect(fail("pipeline {\n  agent any\n  stages { stage('a') { steps { sh 'x' + 'y' } } }\n}\n").message).toMatch(/^line 3: unexpected '\+'/);
    expect(fail("pipeline {\n  'x'\n}\n").message).toMatch(/^line 2: unexpected string/);
    expect(fail("environment {\n  A = \n}\n").message).toMatch(/^line 2: unexpected end of line, expected a value/);
    expect(fail("echo 'a\\d'\n").message).toMatch(/^line 1: bad escape \\d/);
  });

  it("checks the shipped Jenkinsfile with the same strictness: a broken copy fails", () => {
    const text = fs.readFileSync(path.join(DIR, "Jenkinsfile"), "utf8");
    const lastBrace = text.lastIndexOf("}");
    expect(() => parseJenkinsfile(text.slice(0, lastBrace) + text.slice(lastBrace + 1))).toThrow(/is never closed/);
    const npmCi = text.split("\n").findIndex((l) => l.includes("sh 'npm ci'")) + 1;
    expect(npmCi).toBeGreaterThan(0);
    expect(() => parseJenkinsfile(text.replace("sh 'npm ci'", "sh 'npm ci"))).toThrow(new RegExp(`^line ${npmCi}: unterminated single-quoted string`));
  });
});
