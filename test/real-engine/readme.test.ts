/**
 * The README's "With the Pulumi CLI", as a user follows it: a project outside this repository with the packed package
 * installed (what its `npm install` line installs, from the npm cache, offline), its Pulumi.yaml and the program of
 * "Install" taken from the README, then every command of its command block run as written, one by one, in a shell,
 * with the real CLI on PATH. Three things are the test's own: the emulator line starts an emulator of the test's
 * instead, whose address replaces 127.0.0.1:8080; PULUMI_HOME is a temp folder; and `pulumi login --local` logs in
 * to a file backend in a temp folder, since `file://~` is the home folder of the user account (pulumi's diy backend
 * resolves `~` with user.Current, not $HOME), which a test must not write to. After the first up, the
 * program is changed as the README says and `pulumi up --yes` run again; before the drift job, a change is made
 * outside Pulumi: the drift job must fail on it, and the `up --refresh` after it must repair it.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type Emulator } from "../../emulator";
import { OperationsCenterClient } from "../../provider";
import { installConsumer, ROOT } from "../package/consumer-project";
import { packedPackage } from "../package/packed-package";
import { run } from "./tier-cli";
import { realCli } from "./life-cycle";

const README = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");

/** The fenced blocks of the README section whose heading is `heading`, in order. */
function blocksOf(heading: string): Array<{ lang: string; text: string }> {
    const start = README.indexOf(`\n## ${heading}\n`);
    if (start < 0) throw new Error(`README.md has no section "## ${heading}"`);
    const end = README.indexOf("\n## ", start + heading.length + 5);
    const section = README.slice(start, end < 0 ? undefined : end);
    return [...section.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1]!, text: m[2]! }));
}

/** A command line without its trailing comment (the README's comments start after two spaces). */
const commandOf = (line: string) => line.replace(/\s{2,}#.*$/, "").trim();

let scratch: string;
let project: string;
let home: string;
let emu: Emulator;
let env: NodeJS.ProcessEnv;

/** A README line in a shell, in the project; its exit code and what it printed. */
async function sh(command: string): Promise<{ code: number | null; output: string }> {
    const r = await run("bash", ["-c", command], project, env);
    return { code: r.code, output: `${r.stdout}${r.stderr}` };
}

beforeAll(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "readme-"));
    project = path.join(scratch, "web-shop");
    home = path.join(scratch, "home");
    fs.mkdirSync(home);
    fs.mkdirSync(path.join(scratch, "state"));
    // `npm install pulumi-cloudbees @pulumi/pulumi typescript @types/node`, offline: the packed package and our lock's copies.
    const [install] = blocksOf("With the Pulumi CLI");
    expect(install!.text).toContain("npm install pulumi-cloudbees @pulumi/pulumi typescript @types/node");
    const installed = await installConsumer(
        project,
        await packedPackage(),
        { "@pulumi/pulumi": "node_modules/@pulumi/pulumi", typescript: "node_modules/typescript", "@types/node": "node_modules/@types/node" },
        null,
    );
    if (installed.code !== 0) throw new Error(`npm install failed:\n${installed.output}`);
    const yaml = blocksOf("With the Pulumi CLI").find((b) => b.lang === "yaml")!;
    fs.writeFileSync(path.join(project, "Pulumi.yaml"), yaml.text);
    fs.writeFileSync(path.join(project, "index.ts"), blocksOf("Install").find((b) => b.lang === "ts")!.text);
    emu = await startEmulator();
    const cli = realCli();
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(PULUMI_|npm_)/i.test(k)));
    env = {
        ...clean,
        HOME: home,
        PULUMI_HOME: path.join(home, ".pulumi"),
        PATH: `${cli.dir}${path.delimiter}${process.env.PATH}`,
        PULUMI_SKIP_UPDATE_CHECK: "true",
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    };
});
afterAll(async () => {
    await emu?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

it("a user's project written from the README alone goes through every command of it", async () => {
    const block = blocksOf("With the Pulumi CLI").filter((b) => b.lang === "sh")[1]!;
    const address = new URL(emu.operationsCenterUrl).host;
    const lines = block.text.split("\n").map(commandOf).filter((l) => l !== "");
    const ran: string[] = [];
    let driftJobs = 0;
    for (const line of lines) {
        if (line.startsWith("npx cloudbees-emulator")) continue; // the test's own emulator plays it
        const exported = /^export (\w+)=(\S+)$/.exec(line);
        if (exported) {
            env[exported[1]!] = exported[2]!;
            continue;
        }
        const command = line.replaceAll("127.0.0.1:8080", address).replace(/^pulumi login --local$/, `pulumi login file://${path.join(scratch, "state")}`);
        const isDriftJob = command.startsWith("pulumi preview --refresh --expect-no-changes");
        if (isDriftJob) {
            // Someone widens the bundle's availability by hand: the drift job must see it.
            const oc = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...emu.credentials.admin });
            await oc.setAvailabilityPattern("team-b", "team-b/.*|sandbox");
            await oc.close();
            driftJobs++;
        }
        const result = await sh(command);
        ran.push(line);
        if (isDriftJob) {
            expect({ command, failed: result.code !== 0 }).toEqual({ command, failed: true });
            expect(result.output).toContain("team-b");
        } else {
            expect({ command, code: result.code, output: result.code === 0 ? "" : result.output }).toEqual({ command, code: 0, output: "" });
        }
        if (command === "pulumi up --yes") {
            expect(emu.state.assignments()["team-b/controller-b"]).toBe("team-b");
            expect(emu.state.applications("acme").map((a) => a.name)).toContain("web-shop");
            // "Change the program ... and pulumi up --yes again: only that resource is updated."
            const program = path.join(project, "index.ts");
            const text = fs.readFileSync(program, "utf8");
            const changed = text.replace('{ bundleId: "team-b", controllers: ["team-b/controller-b"] }', '{ bundleId: "team-b", controllers: ["team-b/controller-b", "sandbox"] }');
            expect(changed).not.toBe(text);
            fs.writeFileSync(program, changed);
            const update = await sh("pulumi up --yes");
            expect({ code: update.code, summary: /~ 1 updated/.test(update.output) }).toEqual({ code: 0, summary: true });
            expect(emu.state.apiAvailabilityPatterns()["team-b"]).toBe("^(?:sandbox|team-b/controller-b)$");
        }
        if (command === "pulumi up --refresh --yes") {
            expect(emu.state.apiAvailabilityPatterns()["team-b"]).toBe("^(?:sandbox|team-b/controller-b)$");
            const again = await sh("pulumi preview --refresh --expect-no-changes");
            expect({ after: "the repair", code: again.code }).toEqual({ after: "the repair", code: 0 });
        }
    }
    expect(driftJobs).toBe(1);
    expect(ran).toEqual(
        expect.arrayContaining(["pulumi login --local", "pulumi stack init dev", "pulumi up --yes", "pulumi refresh --expect-no-changes --yes", "pulumi destroy --yes"]),
    );
    expect(emu.state.apiAvailabilityPatterns()).toEqual({});
    // Nothing was written into the project but what Pulumi writes there (the stack's config).
    expect(fs.readdirSync(project).sort()).toEqual(["Pulumi.dev.yaml", "Pulumi.yaml", "index.ts", "node_modules", "package-lock.json", "package.json"]);
});
