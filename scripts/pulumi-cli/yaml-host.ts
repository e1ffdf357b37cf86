/**
 * The YAML language host is pulumi-yaml's own (github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml), unlike the
 * Node.js, Python and Go hosts (hosts/langhost/serve.go says why those are ours): its module is served by the Go
 * module proxy.
 *
 * Which version: Pulumi's own 3.248.0 archive bundles pulumi-yaml v1.37.0 (scripts/get-language-providers.sh), but
 * v1.37.0 pins pkg/v3 v3.247.0, which the proxy refuses (403), and it does not compile against pkg/v3 v3.248.0 (whose
 * plugin host and program binder changed their signatures). v1.25.0 builds as its own release does, with every
 * module at the version its go.mod pins (pkg/v3 and sdk/v3 v3.206.0). So it is built in a wrapper module of its own,
 * where nothing else raises those versions, and the CLI's module stays at 3.248.0. Flags: those of pulumi-yaml's
 * .goreleaser.yml (CGO off, -s -w, its version variable), with -trimpath as for the CLI.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { go, goVersion, GoToolError, moduleInfo } from "./go";
import { versionAtLeast } from "../../testing/cli/pulumi-cli";

export const YAML_MODULE = "github.com/pulumi/pulumi-yaml";
export const YAML_VERSION = "v1.25.0";
const YAML_HOST = `${YAML_MODULE}/cmd/pulumi-language-yaml`;

/** Builds pulumi-language-yaml into `bin`, in a wrapper module made in `work`. */
export async function buildYamlHost(work: string, bin: string, say: (message: string) => void): Promise<void> {
    const dir = path.join(work, "yaml");
    fs.mkdirSync(dir);
    const { goVersion: needed } = await moduleInfo(YAML_MODULE, YAML_VERSION, dir);
    const have = await goVersion(dir);
    if (needed && !versionAtLeast(have, needed)) {
        throw new GoToolError(`${YAML_MODULE}@${YAML_VERSION} needs Go ${needed} or later; this machine has Go ${have}`);
    }
    fs.writeFileSync(path.join(dir, "go.mod"), `module pulumi-cloudbees.local/pulumi-language-yaml\n\ngo ${needed ?? have}\n`, { flag: "wx" });
    say(`resolving the modules of ${YAML_HOST}@${YAML_VERSION} (its own pins: a module of its own)`);
    await go(["get", `${YAML_HOST}@${YAML_VERSION}`], dir);
    say(`building the YAML language host pulumi-language-yaml ${YAML_VERSION} (pulumi-yaml's own)`);
    const ldflags = `-w -s -X ${YAML_MODULE}/pkg/version.Version=${YAML_VERSION}`;
    await go(["build", "-trimpath", "-ldflags", ldflags, "-o", path.join(bin, "pulumi-language-yaml"), YAML_HOST], dir, {
        ...process.env,
        CGO_ENABLED: "0",
    });
}
