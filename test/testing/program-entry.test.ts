// What the SDK's run script requires for a project's `main` (pulumi/pulumi sdk/nodejs/cmd/run/run.ts, `run`: a
// program "." is resolved through the nearest package manifest's `exports`, else `main`, from the program's folder
// up; pkg/engine/project.go getPwdMain turns a `main` naming a folder into "." in that folder). The engine stand-in
// runs the same file, so a project that runs the wrong file under `pulumi up` runs it here too.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { programEntry } from "../../testing/processes/project";

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
