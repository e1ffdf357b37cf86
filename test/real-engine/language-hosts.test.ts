/**
 * The Python, Go and YAML language hosts of `npm run pulumi-cli` (scripts/pulumi-cli/README.md) under the real CLI:
 * a program per language on Pulumi's built-ins only (config, a secret from config, a secret made by the program,
 * stack outputs), as a user runs it: `pulumi install` (Python: the virtualenv of Pulumi.yaml made and `pulumi` installed
 * into it, from the downloaded wheels; Go: `go mod tidy`), `stack init`, `config set`, `up`, the outputs with and
 * without `--show-secrets` and in `stack export`, a no-change preview, a config change that a preview shows and an
 * `up` applies, `destroy`. Offline: pip and Go reach nothing beyond this machine.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { copyProgram, workspace } from "./tier-cli";
import { CliProject } from "./languages/cli-project";
import { realCli } from "./life-cycle";

/** What a program puts in `go.mod`: sdk/v3 at the CLI's own version, whose modules `npm run pulumi-cli` resolved. */
function writeGoMod(dir: string): void {
    const mod = `module example.com/hosts-go\n\ngo 1.25\n\nrequire github.com/pulumi/pulumi/sdk/v3 v${realCli().version}\n`;
    fs.writeFileSync(path.join(dir, "go.mod"), mod, { flag: "wx" });
}

const cases: Array<{ language: string; project: string; prepare?(dir: string): void; installed?(dir: string): void }> = [
    {
        language: "python",
        project: "hosts-python",
        // The virtualenv named in Pulumi.yaml, with the SDK at the CLI's version in it.
        installed: (dir) => {
            const [python] = fs.readdirSync(path.join(dir, "venv", "lib"));
            const site = fs.readdirSync(path.join(dir, "venv", "lib", python!, "site-packages"));
            expect(site.filter((f) => /^pulumi-[\d.]+\.dist-info$/.test(f))).toEqual([`pulumi-${realCli().version}.dist-info`]);
        },
    },
    {
        language: "go",
        project: "hosts-go",
        prepare: writeGoMod,
        installed: (dir) => expect(fs.readFileSync(path.join(dir, "go.sum"), "utf8")).toContain("github.com/pulumi/pulumi/sdk/v3"),
    },
    { language: "yaml", project: "hosts-yaml" },
];

describe.each(cases)("a $language program under the real CLI", ({ language, project, prepare, installed }) => {
    let ws: ReturnType<typeof workspace>;
    let dir: string;
    const cli = async (...args: string[]) => (await new CliProject(dir, ws.env).ok(...args)).stdout;
    const outputs = async (...flags: string[]) => JSON.parse(await cli("stack", "output", "--json", ...flags)) as Record<string, unknown>;

    beforeAll(() => {
        ws = workspace(`hosts-${language}`);
        dir = copyProgram(language, path.join(ws.dir, "project"));
        prepare?.(dir);
    });
    afterAll(() => ws?.cleanup());

    it("installs its dependencies, goes up with its config and secrets, previews, updates and is destroyed", async () => {
        await cli("install");
        installed?.(dir);
        await cli("stack", "init", "dev");
        await cli("config", "set", "greeting", "hello");
        await cli("config", "set", "--secret", "token", "s3cr3t-token-value");

        const up = await cli("up", "--yes");
        expect(up).toContain("+ 1 created");
        expect(await outputs("--show-secrets")).toEqual({
            message: `hello, ${project}/dev`,
            token: "s3cr3t-token-value",
            hidden: "made-by-the-program",
        });
        expect(await outputs()).toEqual({ message: `hello, ${project}/dev`, token: "[secret]", hidden: "[secret]" });
        const exported = await cli("stack", "export");
        expect(exported).not.toContain("s3cr3t-token-value");
        expect(exported).not.toContain("made-by-the-program");

        expect(await cli("preview", "--expect-no-changes")).toContain("1 unchanged");

        // The program reads the config the engine passes it: a change shows in the preview, and up applies it.
        await cli("config", "set", "greeting", "goodbye");
        expect(await cli("preview", "--diff")).toContain(`~ message: "hello, ${project}/dev" => "goodbye, ${project}/dev"`);
        await cli("up", "--yes");
        expect(await outputs()).toMatchObject({ message: `goodbye, ${project}/dev` });
        expect(await cli("preview", "--expect-no-changes")).toContain("1 unchanged");

        expect(await cli("destroy", "--yes")).toContain("- 1 deleted");
        const after = JSON.parse(await cli("stack", "export")) as { deployment: { resources?: unknown[] } };
        expect(after.deployment.resources ?? []).toEqual([]);
    });
});
