/**
 * What the flag-hygiene recipes' tests share (flag-hygiene-pipelines.test.ts for GitHub Actions,
 * flag-hygiene-jenkinsfile.test.ts for Jenkins): a runner with a `pulumi-cloudbees` stub that records its argv, the
 * command's own parser for that argv, and a report for the stub to write.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseFlagsArgs, type FlagsArgs } from "../../cli/flags/args";

export const PIPELINES_DIR = path.join(__dirname, "..", "..", "examples", "pipelines");

/**
 * A checkout and a runner's temporary folder, with a `pulumi-cloudbees` on PATH (as `npx pulumi-cloudbees` finds the
 * installed bin) that writes its argv, one argument a line, to `argv`, the report $STUB_REPORT names into --out, and
 * exits with $STUB_EXIT.
 */
export function runner(): { dir: string; workspace: string; temp: string; env: NodeJS.ProcessEnv; argv: () => string[] } {
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

/** The step's command line as `pulumi-cloudbees flags` parses it, from the folder the step runs in. */
export function parsed(argv: string[], cwd: string): FlagsArgs {
  expect(argv[0]).toBe("flags");
  const p = parseFlagsArgs(argv.slice(1), cwd);
  if (p.kind !== "flags") throw new Error(`parsed as ${p.kind}`);
  return p.args;
}

/** A flags-report.json for the stub to write, as much of it as the scripts read: the environment that names it. */
export function writeReport(dir: string, summary: { candidates: number; newCandidates: number }, errors: { kind: string }[]): NodeJS.ProcessEnv {
  const file = path.join(dir, "report-to-write.json");
  fs.writeFileSync(file, JSON.stringify({ schemaVersion: 1, summary, errors: errors.map((e) => ({ ...e, message: "x" })) }));
  return { STUB_REPORT: file };
}
