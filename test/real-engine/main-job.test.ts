/**
 * The main job (`npm start`, examples/main-job.ts). No test ran it before this one, and a change of the drift
 * warning's wording broke it unnoticed (it stops with "UNEXPECTED: ..." when one of its own checks fails).
 * - Its life cycles run on the engine stand-in: the same five examples run step for step under the real CLI and the
 *   stand-in in example-*.test.ts, which require both engines to give the same plans, writes, outputs, state and
 *   warnings (side-by-side.ts), so what the job checks of a step holds for the real CLI's; a second real run of the
 *   same life cycles cost about 110 CPU-s of the tier.
 * - Its closing drift report runs the real CLI (the command runs `pulumi refresh --preview-only` per stack):
 *   `--only drift`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { run } from "./tier-cli";
import { realCli } from "./life-cycle";
import { normalizedReport, REAL_RUN_REPORT } from "./real-drift-report";

const ROOT = path.join(__dirname, "..", "..");

/** `npm start -- <args>` as the tier runs it: the real CLI on PATH, programs transpiled only. */
async function mainJob(...args: string[]): Promise<{ code: number | null; output: string }> {
    const cli = realCli();
    const env = { ...process.env, PATH: `${cli.dir}${path.delimiter}${process.env.PATH}`, PULUMI_NODEJS_TRANSPILE_ONLY: "true" };
    const result = await run(process.execPath, ["-r", "ts-node/register/transpile-only", "examples/main-job.ts", ...args], ROOT, env);
    return { code: result.code, output: `${result.stdout}${result.stderr}` };
}

const unexpected = (output: string) => output.split("\n").filter((l) => l.includes("UNEXPECTED"));

it("npm start runs every example's life cycle, its own checks passing (on the engine stand-in)", async () => {
    const { code, output } = await mainJob("--engine", "stand-in");
    expect({ code, unexpected: unexpected(output) }).toEqual({ code: 0, unexpected: [] });
    expect(output).toContain("engine: the engine stand-in (pulumi-cloudbees/testing) through Pulumi's real dynamic-provider host (--engine stand-in)");
    for (const example of ["examples/index.ts", "examples/flags", "examples/controllers", "examples/pipeline", "examples/promotion"]) {
        expect(output).toContain(`######## ${example}`);
    }
    expect(output).toContain("skipped: the command runs the real Pulumi CLI's preview per stack");
    // The hygiene report of the flags example's application, after rox-node evaluated its flags in Production:
    // the new flow served both values (beta testers or not), the banner one; both changed today, so both kept.
    expect(output).toContain("######## pulumi-cloudbees flags: the example application's hygiene report");
    expect(output).toMatch(/16 evaluations served \{"checkout\.newFlow":\{"false":2,"true":6\},"checkout\.bannerColor":\{"blue":8\}\}; the emulator counted 16 impressions/);
    expect(output).toMatch(/pulumi-cloudbees flags: 2 flags in 1 application: 2 keep, 0 remove-from-code, 0 remove-from-iac, 0 unknown \(0 new candidates\); 0 not read; 8 requests; wrote \S+flags-report\.json, flags-report\.md and flags-report\.html/);
    expect(output).toContain('checkout.bannerColor: keep (Production stale "blue", Staging setup): changed in the last 30 days');
    expect(output).toContain('checkout.newFlow: keep (Production active, Staging setup): active in "Production"');
}, 600_000);

it("npm start -- --only drift ends with the drift report over two stacks, with the real CLI", async () => {
    const cli = realCli();
    const { code, output } = await mainJob("--engine", "pulumi", "--only", "drift");
    expect({ code, unexpected: unexpected(output) }).toEqual({ code: 0, unexpected: [] });
    expect(output).toContain(`engine: the real Pulumi CLI v${cli.version}`);
    expect(output).toContain("sections: drift (--only)");
    expect(output).not.toContain("######## examples/");
    // One drift report over two example stacks, in a folder it names.
    const folder = /\nthe report: (\S+) \(drift-report\.json/.exec(output)?.[1];
    expect(output).toContain("pulumi-cloudbees drift: 2 stacks: 0 clean, 2 drifted (5 paths, 5 new, 0 resolved)");
    expect(folder && fs.existsSync(path.join(folder, "drift-report.html"))).toBe(true);
    // Its report is the fixture the docs' screenshot of a real run is made from (drift-page.test.ts), times and
    // durations aside; the package's version is not the run's to say.
    const report = normalizedReport(JSON.parse(fs.readFileSync(path.join(folder!, "drift-report.json"), "utf8")));
    const fixture = JSON.parse(fs.readFileSync(REAL_RUN_REPORT, "utf8"));
    expect({ ...report, toolVersion: "" }).toEqual({ ...fixture, toolVersion: "" });
    fs.rmSync(path.dirname(folder!), { recursive: true, force: true });
    // docs/drift-detection.md, "A real run", shows this run's drift lines (times, durations and temp folders aside;
    // the stacks finish in either order).
    const normal = (lines: string[]) =>
      lines
        .map((l) => l.replace(/\/\S*cloudbees-estate-[\w]+/g, "<folder>").replace(/\d{4}-\d\d-\d\dT[\d:.]+(Z| \(controller time\))/g, "<time>$1").replace(/\[\d\/2\]|in \d+\.\d s/g, "<n>"))
        .sort();
    const doc = fs.readFileSync(path.join(ROOT, "docs", "drift-detection.md"), "utf8");
    const shown = /<!-- output of npm start: pulumi-cloudbees drift -->\n```text\n([\s\S]*?)```/.exec(doc)![1]!.trimEnd().split("\n");
    const printed = output.slice(output.indexOf("== pulumi-cloudbees drift"), output.indexOf("\n", output.indexOf("\nthe report: ") + 1)).trimEnd().split("\n");
    expect(normal(shown)).toEqual(normal(printed));
}, 600_000);
