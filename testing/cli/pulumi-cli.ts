/**
 * Where a real Pulumi CLI is, for the tests that run the real engine: the folder holding `pulumi`, its Node.js
 * language host `pulumi-language-nodejs` and the dynamic-provider plugin `pulumi-resource-pulumi-nodejs`.
 *
 * Looked for, in order: the cache that `npm run pulumi-cli` fills in this repository (one folder per version, under
 * PULUMI_CLOUDBEES_CLI_CACHE or ~/.cache/pulumi-cloudbees/pulumi-cli), then a `pulumi` on PATH (an installed CLI
 * has all three side by side). Either must be at least the version of the @pulumi/pulumi the program uses: an
 * older engine may not know what a newer SDK asks of it.
 */
import { execFileSync } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** The executables a real run of a Node.js program with dynamic providers needs, side by side. */
export const PULUMI_CLI_FILES = ["pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs"] as const;

/** Written last into a cached version's folder: a folder without it is an interrupted build. */
export const CACHE_COMPLETE_FILE = ".complete";

export interface PulumiCli {
    /** The folder with `pulumi` and the plugins beside it: put it first on PATH. */
    dir: string;
    /** `pulumi version`, without the leading v. */
    version: string;
    /** Where it was found: the repository's build cache, or PATH. */
    source: "cache" | "path";
}

/**
 * A cache of this repository's tools, outside it: `chosen` (a variable's value) when set, else
 * `$XDG_CACHE_HOME` or `~/.cache`, then `pulumi-cloudbees/<name>`. The release's Python build environment uses it too.
 */
export function toolCacheDir(name: string, chosen: string | undefined): string {
    if (chosen) return path.resolve(chosen);
    const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
    return path.join(base, "pulumi-cloudbees", name);
}

/** The cache of `npm run pulumi-cli`: PULUMI_CLOUDBEES_CLI_CACHE, else $XDG_CACHE_HOME or ~/.cache. */
export function pulumiCliCacheRoot(): string {
    return toolCacheDir("pulumi-cli", process.env.PULUMI_CLOUDBEES_CLI_CACHE);
}

/**
 * The folder of one version in the cache, laid out as Pulumi's own installs are (`~/.pulumi/versions/<v>/bin`):
 * `<cache>/v<version>/bin` holds the executables, `<cache>/v<version>/.complete` says the build finished.
 */
export function cachedCliRoot(version: string): string {
    return path.join(pulumiCliCacheRoot(), `v${version}`);
}

/** The version of the @pulumi/pulumi that `fromDir` resolves (the program's own copy). */
export function sdkVersion(fromDir: string = process.cwd()): string {
    const manifest = require.resolve("@pulumi/pulumi/package.json", { paths: [fromDir, __dirname] });
    return (JSON.parse(fs.readFileSync(manifest, "utf8")) as { version: string }).version;
}

/** a >= b for versions `major.minor.patch` (a pre-release or build suffix is ignored). */
export function versionAtLeast(a: string, b: string): boolean {
    const parts = (v: string) => v.replace(/^v/, "").split(/[-+]/)[0]!.split(".").map((n) => Number(n) || 0);
    const [x, y] = [parts(a), parts(b)];
    for (let i = 0; i < 3; i++) {
        if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) > (y[i] ?? 0);
    }
    return true;
}

/** The real CLI for programs that use @pulumi/pulumi `minVersion`, or undefined when there is none. */
export function findPulumiCli(minVersion: string = sdkVersion()): PulumiCli | undefined {
    const cached = cachedCliRoot(minVersion);
    if (fs.existsSync(path.join(cached, CACHE_COMPLETE_FILE)) && hasAll(path.join(cached, "bin"))) {
        return { dir: path.join(cached, "bin"), version: minVersion, source: "cache" };
    }
    const onPath = whichPulumi();
    if (onPath && hasAll(onPath)) {
        const version = versionOf(path.join(onPath, "pulumi"));
        if (version && versionAtLeast(version, minVersion)) return { dir: onPath, version, source: "path" };
    }
    return undefined;
}

function hasAll(dir: string): boolean {
    return PULUMI_CLI_FILES.every((f) => isExecutable(path.join(dir, f)));
}

function isExecutable(file: string): boolean {
    try {
        fs.accessSync(file, fs.constants.X_OK);
        return fs.statSync(file).isFile();
    } catch {
        return false;
    }
}

function whichPulumi(): string | undefined {
    for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
        if (dir && isExecutable(path.join(dir, "pulumi"))) return dir;
    }
    return undefined;
}

/** `pulumi version` of an executable (`v3.248.0` -> `3.248.0`), or undefined when it does not answer. */
export function versionOf(pulumi: string): string | undefined {
    try {
        const out = execFileSync(pulumi, ["version"], {
            encoding: "utf8",
            timeout: 20_000,
            env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" },
            stdio: ["ignore", "pipe", "ignore"],
        });
        return /^v?(\d+\.\d+\.\d+\S*)/.exec(out.trim())?.[1];
    } catch {
        return undefined;
    }
}

/**
 * The environment of a CLI that touches nothing of the machine's own Pulumi setup: `cli` first on PATH, and in
 * `folder` a PULUMI_HOME and a file backend of its own, a random passphrase, no update check and no plugin download.
 */
export function isolatedCliEnvironment(cli: PulumiCli, folder: string, passphrase = crypto.randomBytes(16).toString("hex")): Record<string, string> {
    fs.mkdirSync(path.join(folder, "backend"), { recursive: true });
    return {
        PATH: `${cli.dir}${path.delimiter}${process.env.PATH ?? ""}`,
        PULUMI_HOME: path.join(folder, "home"),
        PULUMI_BACKEND_URL: `file://${path.join(folder, "backend")}`,
        PULUMI_CONFIG_PASSPHRASE: passphrase,
        PULUMI_SKIP_UPDATE_CHECK: "true",
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    };
}

/**
 * The environment of the CLI for stacks that share `folder` (an estate: runners given the same folder): its PULUMI_HOME
 * and file backend, and one passphrase, made at the first use and kept in `folder/passphrase` (written exclusively,
 * readable by this user only), so that one `pulumi-cloudbees drift` run reaches every stack of the estate.
 */
export function sharedCliEnvironment(cli: PulumiCli, folder: string): Record<string, string> {
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    const file = path.join(folder, "passphrase");
    try {
        fs.writeFileSync(file, crypto.randomBytes(16).toString("hex"), { flag: "wx", mode: 0o600 });
    } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    return isolatedCliEnvironment(cli, folder, fs.readFileSync(file, "utf8"));
}
