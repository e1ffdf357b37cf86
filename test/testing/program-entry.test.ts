// What the SDK's run script requires for a project's `main` (pulumi/pulumi sdk/nodejs/cmd/run/run.ts, `run`: a
// program "." is resolved through the nearest package manifest's `exports`, else `main`, from the program's folder
// up; pkg/engine/project.go getPwdMain turns a `main` naming a folder into "." in that folder). The engine stand-in
// runs the same file, so a project that runs the wrong file under `pulumi up` runs it here too.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { programEntry, readProjectFile } from "../../testing/processes/project";

describe("programEntry (the file the SDK's run script requires)", () => {
    let root: string;
    beforeEach(() => {
        root = fs.mkdtempSync(path.join(os.tmpdir(), "program-entry-"));
        fs.mkdirSync(path.join(root, "project", "lib"), { recursive: true });
        fs.writeFileSync(path.join(root, "project", "index.ts"), "");
        fs.writeFileSync(path.join(root, "project", "lib", "main.js"), "");
    });
    afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

    const write = (file: string, manifest: object) => fs.writeFileSync(path.join(root, file), JSON.stringify(manifest));

    it("keeps a file as it is", () => {
        write("package.json", { main: "lib/x.js" });
        expect(programEntry(path.join(root, "project", "index.ts"))).toBe(path.join(root, "project", "index.ts"));
    });

    it("runs the entry point of the package around a folder without a manifest of its own", () => {
        write("package.json", { main: "project/lib/main.js" });
        expect(programEntry(path.join(root, "project"))).toBe(path.join(root, "project", "lib", "main.js"));
    });

    it("prefers exports to main: a string, then '.' as a string or its default/require/import", () => {
        write("project/package.json", { main: "index.ts", exports: "./lib/main.js" });
        expect(programEntry(path.join(root, "project"))).toBe(path.join(root, "project", "lib", "main.js"));
        write("project/package.json", { main: "index.ts", exports: { ".": { types: "./x.d.ts", default: "./lib/main.js" } } });
        expect(programEntry(path.join(root, "project"))).toBe(path.join(root, "project", "lib", "main.js"));
    });

    it("falls back to the folder when the manifest names no entry, or one that does not exist", () => {
        write("project/package.json", { name: "p" });
        expect(programEntry(path.join(root, "project"))).toBe(path.join(root, "project"));
        write("project/package.json", { main: "missing.js" });
        expect(programEntry(path.join(root, "project"))).toBe(path.join(root, "project"));
    });

    it("makes this repository's examples name their file: a folder would run the package itself", () => {
        const repo = path.join(__dirname, "..", "..");
        expect(programEntry(path.join(repo, "examples", "flags"))).not.toBe(path.join(repo, "examples", "flags"));
        for (const project of ["", "examples/controllers", "examples/flags", "examples/pipeline", "examples/promotion", "bench/programs/scale"]) {
            const text = fs.readFileSync(path.join(repo, project, "Pulumi.yaml"), "utf8");
            expect({ project, main: /^main: (.+)$/m.exec(text)?.[1] }).toEqual({ project, main: expect.stringMatching(/\.ts$/) });
        }
    });
});

// pulumi/pulumi's nodejs language host passes `runtime.options.typescript` to the run script, which registers ts-node
// unless it is false; the stand-in's program process does the same (test/fixtures/engine-program is JavaScript).
describe("runtime.options.typescript (ts-node in the program's process or not)", () => {
    let root: string;
    beforeEach(() => (root = fs.mkdtempSync(path.join(os.tmpdir(), "program-typescript-"))));
    afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

    it("is true unless Pulumi.yaml says false", () => {
        const read = (yaml: string | undefined) => {
            fs.rmSync(path.join(root, "Pulumi.yaml"), { force: true });
            if (yaml !== undefined) fs.writeFileSync(path.join(root, "Pulumi.yaml"), yaml);
            return readProjectFile(root).typescript;
        };
        expect(read(undefined)).toBe(true);
        expect(read("name: p\nruntime: nodejs\n")).toBe(true);
        expect(read("name: p\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n")).toBe(true);
        expect(read("name: p\nruntime:\n  name: nodejs\n  options: null\n")).toBe(true);
        expect(read("name: p\nruntime:\n  name: nodejs\n  options:\n    typescript: false\n")).toBe(false);
    });

    it("false: the built kit forks the program's process without ts-node; otherwise with it", async () => {
        // The built kit, as users run it (from the TypeScript sources the child itself needs ts-node).
        const { ProgramProcess } = require("../../dist/testing/processes/program-process") as typeof import("../../testing/processes/program-process");
        const argsOf = async (typescript: boolean | undefined) => {
            const p = ProgramProcess.fork({ cwd: root, typescript });
            const args = p.child.spawnargs.join(" ");
            p.child.kill();
            await p.exited;
            return args;
        };
        expect(await argsOf(false)).not.toContain("ts-node");
        expect(await argsOf(undefined)).toContain("ts-node/register/transpile-only");
    });
});
