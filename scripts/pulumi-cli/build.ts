/**
 * The build of one Pulumi CLI version into the cache: a wrapper module that requires pkg/v3 and sdk/v3 at that
 * version (pkg's own go.mod replaces sdk with a relative path, so `go install pkg/v3/cmd/pulumi@version` refuses),
 * built with the flags of Pulumi's release (.goreleaser.yml: -trimpath, the tags osusergo and grpcnotrace, the
 * version variable of sdk/v3/go/common/version, -w -s). Built in a folder of its own and renamed into place when
 * whole, so an interrupted build is never taken for a cached one.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { go, goVersion, GoToolError, moduleDir, moduleInfo } from "./go";
import { CACHE_COMPLETE_FILE, versionAtLeast } from "../../testing/pulumi-cli";

const PKG = "github.com/pulumi/pulumi/pkg/v3";
const SDK = "github.com/pulumi/pulumi/sdk/v3";
const WRAPPER_MODULE = "pulumi-cloudbees.local/pulumi-cli";

export interface BuildOptions {
    /** @pulumi/pulumi's version, which the CLI's is (without the v). */
    version: string;
    /** The cache folder of this version: `bin/` receives `pulumi` and the plugins. */
    target: string;
    /** This repository's language hosts (Go packages under hosts/). */
    hostsDir: string;
    /** hostsHash() of hostsDir, kept in the stamp. */
    hash: string;
    say(message: string): void;
}

interface Stamp {
    version: string;
    /** The language hosts' sources the build used: a change builds them again. */
    hosts: string;
}

export function readStamp(dir: string): Stamp | undefined {
    try {
        return JSON.parse(fs.readFileSync(path.join(dir, CACHE_COMPLETE_FILE), "utf8")) as Stamp;
    } catch {
        return undefined;
    }
}

/** A digest of the language hosts' sources (every file under hosts/, by path and content). */
export function hostsHash(dir = path.join(__dirname, "hosts")): string {
    const hash = createHash("sha256");
    const walk = (d: string): void => {
        for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
            const p = path.join(d, e.name);
            if (e.isDirectory()) walk(p);
            else hash.update(`${path.relative(dir, p)}\0`).update(fs.readFileSync(p)).update("\0");
        }
    };
    walk(dir);
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
        o.say(`resolving the modules of ${PKG}/cmd/pulumi@${tag} (downloads what the module cache lacks)`);
        await go(["get", `${PKG}/cmd/pulumi@${tag}`, `${SDK}@${tag}`], work);

        const out = path.join(work, "out");
        const bin = path.join(out, "bin");
        const flags = ["-trimpath", "-tags", "osusergo,grpcnotrace", "-ldflags", `-w -s -X ${SDK}/go/common/version.Version=${tag}`];
        o.say(`building pulumi ${tag} (the engine: several minutes on two cores the first time)`);
        await go(["build", ...flags, "-o", path.join(bin, "pulumi"), `${PKG}/cmd/pulumi`], work);
        o.say("building the language host pulumi-language-nodejs");
        await go(["build", ...flags, "-o", path.join(bin, "pulumi-language-nodejs"), "./hosts/nodejs"], work);
        // The dynamic-provider plugin is a shell script of the SDK, shipped beside the CLI.
        const script = path.join(await moduleDir(SDK, work), "nodejs", "dist", "pulumi-resource-pulumi-nodejs");
        fs.writeFileSync(path.join(bin, "pulumi-resource-pulumi-nodejs"), fs.readFileSync(script), { flag: "wx", mode: 0o755 });
        const stamp: Stamp = { version: o.version, hosts: o.hash };
        fs.writeFileSync(path.join(out, CACHE_COMPLETE_FILE), `${JSON.stringify(stamp)}\n`, { flag: "wx" });

        // Into place: a stale copy (older hosts) goes first; a build that finished meanwhile elsewhere is kept.
        if (readStamp(o.target)?.hosts !== o.hash) fs.rmSync(o.target, { recursive: true, force: true });
        try {
            fs.renameSync(out, o.target);
        } catch (e) {
            if (readStamp(o.target)?.hosts !== o.hash) throw e;
        }
        o.say(`built: ${o.target}`);
    } finally {
        fs.rmSync(work, { recursive: true, force: true });
    }
}
