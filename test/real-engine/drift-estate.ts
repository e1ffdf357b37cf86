/**
 * An estate of stacks for `pulumi-cloudbees drift` as a user runs it (drift-command.test.ts, and the 20-stack
 * acceptance in test/acceptance/): project folders side by side in one folder inside the installed Node.js project
 * (the packed package and @pulumi/pulumi, which TypeScript programs need; its node_modules/.bin, first on PATH, gives
 * YAML and Python programs the plugin), each project with a file backend of its own in its folder, and the command run
 * in that folder over `stacks.yaml`, its report read back.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { DriftReport } from "../../cli/drift/report";
import { ROOT } from "../package/consumer-project";
import { CliProject } from "./languages/cli-project";
import { nodeProject } from "./languages/toolchains";
import { run, workspace, type Run } from "./tier-cli";

const MAIN = path.join(ROOT, "dist", "cli", "main.js");

export interface DriftEstate {
  /** The folder of the projects and of stacks.yaml, where the command runs. */
  root: string;
  env: NodeJS.ProcessEnv;
  projects: Record<string, CliProject>;
  /** Every run of the command, for what its output may not hold. */
  runs: Run[];
  cleanup(): void;
}

export async function startDriftEstate(prefix: string): Promise<DriftEstate> {
  const ws = workspace(prefix);
  const root = path.join(await nodeProject(), `${prefix}-${process.pid}`);
  fs.mkdirSync(root);
  // Each project names its own backend (below), so none comes from the environment.
  const { PULUMI_BACKEND_URL: _each, ...rest } = ws.env;
  const env = { ...rest, PATH: `${path.join(path.dirname(root), "node_modules", ".bin")}${path.delimiter}${rest.PATH}`, PULUMI_NODEJS_TRANSPILE_ONLY: "true" };
  return {
    root,
    env,
    projects: {},
    runs: [],
    cleanup: () => {
      ws.cleanup();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A copy of `examples/<program>` in `<root>/<name>`, `file` edited, its state in `<root>/<name>/.state` (the project's backend.url). */
export function placeProgram(estate: DriftEstate, name: string, program: string, file: string, edit: (text: string) => string): CliProject {
  const dir = path.join(estate.root, name);
  fs.cpSync(path.join(ROOT, "examples", program), dir, { recursive: true });
  fs.mkdirSync(path.join(dir, ".state"));
  fs.appendFileSync(path.join(dir, "Pulumi.yaml"), `backend:\n  url: file://${path.join(dir, ".state")}\n`);
  fs.writeFileSync(path.join(dir, file), edit(fs.readFileSync(path.join(dir, file), "utf8")));
  return (estate.projects[name] = new CliProject(dir, estate.env));
}

/** The stacks file the command reads, `<project folder>#<stack>` each. */
export function writeStacksFile(estate: DriftEstate, stacks: string[]): void {
  fs.writeFileSync(path.join(estate.root, "stacks.yaml"), ["stacks:", ...stacks.map((s) => `  - ${s}`), ""].join("\n"));
}

/** An update under way on a stack: the lock file that `pulumi up` writes on a file backend (backend/diy/lock.go). */
export function lockStack(estate: DriftEstate, name: string, stack: string): void {
  const locks = path.join(estate.root, name, ".state", ".pulumi", "locks", "organization", estate.projects[name]!.projectName(), stack);
  fs.mkdirSync(locks, { recursive: true });
  fs.writeFileSync(path.join(locks, "c0ffee.json"), JSON.stringify({ pid: 4242, username: "ci", hostname: "runner-7", timestamp: new Date().toISOString() }));
}

/** The command as a user types it, in the folder of stacks.yaml (`drift` and its arguments, or `drift merge ...`). */
export async function runDriftCommand(estate: DriftEstate, args: string[]): Promise<Run> {
  const r = await run(process.execPath, [MAIN, "drift", ...args], estate.root, estate.env);
  estate.runs.push(r);
  return r;
}

/** `drift --stacks-file stacks.yaml --out <out> ...args`, and the report it wrote. */
export async function driftReport(estate: DriftEstate, out: string, ...args: string[]): Promise<{ r: Run; report: DriftReport }> {
  const r = await runDriftCommand(estate, ["--stacks-file", "stacks.yaml", "--out", out, ...args]);
  return { r, report: readReport(estate, out, r) };
}

/** `args` with `--mode preview` unless they name a mode: for the runs whose expectations are the preview's. */
export function previewUnlessSaid(args: string[]): string[] {
  return args.includes("--mode") ? args : ["--mode", "preview", ...args];
}

export function readReport(estate: DriftEstate, out: string, r?: Run): DriftReport {
  const file = path.join(estate.root, out, "drift-report.json");
  if (!fs.existsSync(file)) throw new Error(`no report in ${out}${r ? ` (exit ${r.code}):\n${r.stdout}\n${r.stderr}` : ""}`);
  return JSON.parse(fs.readFileSync(file, "utf8")) as DriftReport;
}

export const statuses = (report: DriftReport) => Object.fromEntries(report.stacks.map((s) => [s.id, s.status]));

export const pathsOf = (report: DriftReport, id: string) =>
  (report.stacks.find((s) => s.id === id)?.resources ?? []).flatMap((res) => res.paths.map((p) => ({ resource: res.name, ...p })));

/** What merged shards and the unsharded run must agree on: all but when, how long and which shard. */
export const comparable = (report: DriftReport): unknown =>
  JSON.parse(JSON.stringify({ stacks: report.stacks, causes: report.causes, summary: report.summary, resolved: report.resolved }), (key, value: unknown) =>
    key === "firstSeen" || key === "durationMs" ? undefined : value,
  );

/** The drifted stacks' counts and resources, firstSeen aside (two runs each see new drift first at their own start). */
export const driftedStacks = (report: DriftReport): unknown =>
  (comparable(report) as { stacks: DriftReport["stacks"] }).stacks.filter((s) => s.status === "drifted").map((s) => ({ id: s.id, counts: s.counts, resources: s.resources }));

/** The files the command wrote into these output folders, and their texts with everything it printed. */
export function writtenTexts(estate: DriftEstate, outs: string[]): { files: string[]; texts: string[] } {
  const files = outs.flatMap((d) => fs.readdirSync(path.join(estate.root, d)).map((f) => path.join(estate.root, d, f)));
  return { files, texts: [...files.map((f) => fs.readFileSync(f, "utf8")), ...estate.runs.flatMap((r) => [r.stdout, r.stderr])] };
}
