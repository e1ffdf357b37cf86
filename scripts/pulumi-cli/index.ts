/**
 * `npm run pulumi-cli`: makes sure a real Pulumi CLI is there for the real-engine tier and `npm start`, and prints,
 * as its last line, the folder holding `pulumi`, the language hosts `pulumi-language-{nodejs,python,go,yaml}` and
 * `pulumi-resource-pulumi-nodejs`.
 *
 * A `pulumi` on PATH at least as new as the lockfile's @pulumi/pulumi is used as it is. Otherwise that same version
 * is built from its Go modules (github.com/pulumi/pulumi/pkg/v3 and sdk/v3) in a small wrapper module, with the
 * flags of Pulumi's own release, and cached outside the repository (PULUMI_CLOUDBEES_CLI_CACHE moves the cache); a
 * second run finds it and does nothing. The machine's Go settings (GOPROXY and the like) are left as they are.
 *
 * The Node.js, Python and Go language hosts are built from hosts/ beside it: the Go module proxy refuses the
 * language-host modules of pulumi/pulumi (403 for every version), see hosts/langhost/serve.go. The YAML host is
 * pulumi-yaml's own (yaml-host.ts). The dynamic-provider plugin and the Python runner are the scripts that the sdk/v3
 * module carries, as the CLI's own archive does. What programs on the generated SDKs' floors install is fetched
 * beside it, once (sdk-floors.ts). README.md beside this file says more.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { BUILT_FILES, buildCli, readStamp, sourcesHash } from "./build";
import { goProblem, GoToolError } from "./go";
import { fetchSdkFloors } from "./sdk-floors";
import { buildActionlint, downloadBuildWheels } from "./actionlint";
import { PYTHON_WHEELS } from "./program-deps";
import { cachedCliRoot, CACHE_COMPLETE_FILE, findPulumiCli } from "../../testing/cli/pulumi-cli";

const ROOT = path.join(__dirname, "..", "..");

function say(message: string): void {
    process.stderr.write(`pulumi-cli: ${message}\n`);
}

/** The @pulumi/pulumi version that package-lock.json pins (what `npm ci` installs). */
export function lockfilePulumiVersion(root = ROOT): string {
    const lock = JSON.parse(fs.readFileSync(path.join(root, "package-lock.json"), "utf8")) as {
        packages?: Record<string, { version?: string }>;
    };
    const version = lock.packages?.["node_modules/@pulumi/pulumi"]?.version;
    if (!version) throw new Error("package-lock.json pins no @pulumi/pulumi (node_modules/@pulumi/pulumi)");
    return version;
}

async function main(): Promise<void> {
    const version = lockfilePulumiVersion();
    const root = cachedCliRoot(version);
    const dir = path.join(root, "bin");
    const stamp = readStamp(root);
    const hash = sourcesHash();
    if (stamp && stamp.sources === hash) {
        say(`Pulumi CLI v${version} is in the cache`);
    } else {
        const found = stamp ? undefined : findPulumiCli(version);
        if (found?.source === "path") {
            say(`using the Pulumi CLI v${found.version} on PATH (at least v${version}, the lockfile's @pulumi/pulumi)`);
            await fetchSdkFloors(say);
            await buildActionlint(say);
            console.log(found.dir);
            return;
        }
        say(
            stamp
                ? `the language hosts or the build changed since v${version} was cached: building again`
                : `no Pulumi CLI v${version} or later on PATH or in the cache: building v${version} from its Go modules (minutes the first time)`,
        );
        await buildCli({ version, target: root, hostsDir: path.join(__dirname, "hosts"), hash, say });
    }
    const missing = BUILT_FILES.filter((f) => !fs.existsSync(path.join(dir, f)));
    if (missing.length || !fs.existsSync(path.join(root, CACHE_COMPLETE_FILE))) {
        throw new Error(`the cached CLI in ${root} lacks ${missing.join(", ") || CACHE_COMPLETE_FILE}: remove the folder and run again`);
    }
    await fetchSdkFloors(say);
    await buildActionlint(say);
    downloadBuildWheels(path.join(root, PYTHON_WHEELS), say);
    console.log(dir);
}

if (require.main === module) {
    main().catch((e: unknown) => {
        say(e instanceof GoToolError ? e.message : goProblem(e));
        process.exit(1);
    });
}
