/**
 * The build of one Pulumi CLI version into the cache: a wrapper module that requires pkg/v3 and sdk/v3 at that
 * version (pkg's own go.mod replaces sdk with a relative path, so `go install pkg/v3/cmd/pulumi@version` refuses),
 * built with the flags of Pulumi's release (.goreleaser.yml: -trimpath, the tags osusergo and grpcnotrace, the
 * version variable of sdk/v3/go/common/version, -w -s), our language hosts for Node.js, Python and Go (hosts/, in
 * the same module and with the same flags), the scripts that sdk/v3 ships for them, pulumi-yaml's own YAML host
 * (yaml-host.ts), and what Python and Go programs then need offline (program-deps.ts). Built in a folder of its own
 * and renamed into place when whole, so an interrupted build is never taken for a cached one.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { go, goVersion, GoToolError, moduleDir, moduleInfo } from "./go";
import { downloadPythonWheels, PYTHON_WHEELS, warmGoPrograms } from "./program-deps";
import { buildYamlHost } from "./yaml-host";
import { CACHE_COMPLETE_FILE, versionAtLeast } from "../../testing/cli/pulumi-cli";

const PKG = "github.com/pulumi/pulumi/pkg/v3";
const SDK = "github.com/pulumi/pulumi/sdk/v3";
const WRAPPER_MODULE = "pulumi-cloudbees.local/pulumi-cli";

/** Our language hosts: the executable's name, and its package in the wrapper module. */
const OUR_HOSTS: Record<string, string> = {
    "pulumi-language-nodejs": "./hosts/nodejs",
    "pulumi-language-python": "./hosts/python",
    "pulumi-language-go": "./hosts/golang",
};

/** Scripts of the sdk/v3 module that go beside the hosts, as in Pulumi's own archive: name -> path in the module. */
const SDK_SCRIPTS: Record<string, string> = {
    // The dynamic-provider plugin of Node.js programs.
    "pulumi-resource-pulumi-nodejs": "nodejs/dist/pulumi-resource-pulumi-nodejs",
    // What the Python host runs a program with (the SDK's runner).
    "pulumi-language-python-exec": "python/cmd/pulumi-language-python-exec",
};

/** Every executable the build puts in bin/, beside `pulumi`. */
export const BUILT_FILES = ["pulumi", ...Object.keys(OUR_HOSTS), ...Object.keys(SDK_SCRIPTS), "pulumi-language-yaml"];

export interface BuildOptions {
    /** @pulumi/pulumi's version, which the CLI's is (without the v). */
    version: string;
    /** The cache folder of this version: `bin/` receives `pulumi` and the plugins. */
    target: string;
    /** This repository's language hosts (Go packages under hosts/). */
    hostsDir: string;
    /** sourcesHash(), kept in the stamp. */
    hash: string;
    say(message: string): void;
}

interface Stamp {
    version: string;
    /** The sources the build used (the hosts and the build's own recipe): a change builds again. */
    sources: string;
}

export function readStamp(dir: string): Stamp | undefined {
    try {
        return JSON.parse(fs.readFileSync(path.join(dir, CACHE_COMPLETE_FILE), "utf8")) as Stamp;
    } catch {
        return undefined;
    }
}

/** The files whose change makes a cached build stale: the hosts' sources and the recipe of the build. */
const RECIPE = ["build.ts", "yaml-host.ts", "program-deps.ts"];

/** A digest of the build's sources (every file under hosts/, and the recipe, by path and content). */
export function sourcesHash(dir = __dirname): string {
    const hash = createHash("sha256");
    for (const file of RECIPE) hash.update(`${file}\0`).update(fs.readFileSync(path.join(dir, file))).update("\0");
    const walk = (d: string): void => {
        for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
            const p = path.join(d, e.name);
            if (e.isDirectory()) walk(p);
            else hash.update(`${path.relative(dir, p)}\0`).update(fs.readFileSync(p)).update("\0");
        }
    };
    walk(path.join(dir, "hosts"));
    return hash.digest("hex").slice(0, 16);
}

export async function buildCli(o: BuildOptions): Promise<void> {
    fs.mkdirSync(path.dirname(o.target), { recursive: true });
    const work = fs.mkdtempSync(`${o.target}.build-`);
    try {
        const tag = `v${o.version}`;
        o.say(`checking Go and the module proxy for ${PKG}@${tag}`);
        const have = await goVersion(work);
        const { goVersion: needed } = await moduleInfo(PKG, tag, work);
        if (needed && !versionAtLeast(have, needed)) {
            throw new GoToolError(`${PKG}@${tag} needs Go ${needed} or later; this machine has Go ${have} (go env GOVERSION)`);
        }
        fs.writeFileSync(path.join(work, "go.mod"), `module ${WRAPPER_MODULE}\n\ngo ${needed ?? have}\n`, { flag: "wx" });
        fs.cpSync(o.hostsDir, path.join(work, "hosts"), { recursive: true });
        o.say(`resolving the modules of ${PKG}/cmd/pulumi@${tag} and of the language hosts (downloads what the module cache lacks)`);
        // ./hosts/... adds what the hosts import (code generators, the Python toolchain) at the versions pkg pins.
        await go(["get", `${PKG}/cmd/pulumi@${tag}`, `${SDK}@${tag}`, "./hosts/..."], work);

        const out = path.join(work, "out");
        const bin = path.join(out, "bin");
        const flags = ["-trimpath", "-tags", "osusergo,grpcnotrace", "-ldflags", `-w -s -X ${SDK}/go/common/version.Version=${tag}`];
        o.say(`building pulumi ${tag} (the engine: several minutes on two cores the first time)`);
        await go(["build", ...flags, "-o", path.join(bin, "pulumi"), `${PKG}/cmd/pulumi`], work);
        for (const [name, pkg] of Object.entries(OUR_HOSTS)) {
            o.say(`building the language host ${name}`);
            await go(["build", ...flags, "-o", path.join(bin, name), pkg], work);
        }
        const sdkDir = await moduleDir(SDK, work);
        for (const [name, file] of Object.entries(SDK_SCRIPTS)) {
            fs.writeFileSync(path.join(bin, name), fs.readFileSync(path.join(sdkDir, file)), { flag: "wx", mode: 0o755 });
        }
        await buildYamlHost(work, bin, o.say);
        await downloadPythonWheels(o.version, path.join(out, PYTHON_WHEELS), o.say);
        await warmGoPrograms(tag, work, o.say);
        const stamp: Stamp = { version: o.version, sources: o.hash };
        fs.writeFileSync(path.join(out, CACHE_COMPLETE_FILE), `${JSON.stringify(stamp)}\n`, { flag: "wx" });

        // Into place: a stale copy (older sources) goes first; a build that finished meanwhile elsewhere is kept.
        if (readStamp(o.target)?.sources !== o.hash) fs.rmSync(o.target, { recursive: true, force: true });
        try {
            fs.renameSync(out, o.target);
        } catch (e) {
            if (readStamp(o.target)?.sources !== o.hash) throw e;
        }
        o.say(`built: ${o.target}`);
    } finally {
        fs.rmSync(work, { recursive: true, force: true });
    }
}
