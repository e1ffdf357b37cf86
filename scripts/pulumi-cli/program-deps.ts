/**
 * What Python and Go programs need from the network, fetched once by `npm run pulumi-cli` so that they then run
 * offline (the real-engine tier sends nothing beyond loopback):
 * - Python: the `pulumi` package of PyPI at the CLI's version, with what it depends on; parver, which the SDKs that
 *   `pulumi package gen-sdk` writes require beside it; and pip, setuptools and wheel (which the Python host's
 *   `pulumi install` upgrades in a new virtual environment, and which build a generated SDK): as wheels in
 *   `<cache>/v<version>/python-wheels`. A program installs from there with
 *   `PIP_NO_INDEX=1 PIP_FIND_LINKS=<that folder>`.
 * - Go: the modules of a program that requires sdk/v3 at the CLI's version, in Go's module cache, and that program
 *   built once with the Go host's flags, so that Go's build cache holds the SDK's packages. A program then builds
 *   with `GOPROXY=off`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { go, tool } from "./go";

export const PYTHON_WHEELS = "python-wheels";

/**
 * Downloads the wheels of pulumi==<version>, parver, pip, setuptools and wheel into `into`. Without python3 there is
 * nothing to download for: the build goes on (the hosts are Go) and says so.
 */
export async function downloadPythonWheels(version: string, into: string, say: (message: string) => void): Promise<void> {
    const cwd = path.dirname(into);
    try {
        await tool("python3", ["-m", "pip", "--version"], cwd, "no python3");
    } catch (e) {
        say(`no wheels for Python programs: python3 with pip is not there (${e instanceof Error ? e.message : String(e)})`);
        return;
    }
    say(`downloading the Python package pulumi==${version} and what it needs, as wheels (PyPI)`);
    const args = ["-m", "pip", "download", "--disable-pip-version-check", "--only-binary=:all:", "--dest", into];
    await tool("python3", [...args, `pulumi==${version}`, "parver", "pip", "setuptools", "wheel"], cwd, "no python3");
}

/** Fills Go's module and build caches with what a program on sdk/v3 at `tag` needs (see above). */
export async function warmGoPrograms(tag: string, work: string, say: (message: string) => void): Promise<void> {
    const dir = path.join(work, "go-program");
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "go.mod"), "module pulumi-cloudbees.local/go-program\n", { flag: "wx" });
    fs.writeFileSync(
        path.join(dir, "main.go"),
        'package main\n\nimport "github.com/pulumi/pulumi/sdk/v3/go/pulumi"\n\nfunc main() {\n\tpulumi.Run(func(*pulumi.Context) error { return nil })\n}\n',
        { flag: "wx" },
    );
    say(`resolving and building a Go program on sdk/v3@${tag}, so that Go programs then build offline`);
    await go(["get", `github.com/pulumi/pulumi/sdk/v3@${tag}`], dir);
    await go(["mod", "tidy"], dir);
    await go(["build", "-buildvcs=false", "-trimpath", "-ldflags", "-w -s", "-o", path.join(dir, "program")], dir);
}
