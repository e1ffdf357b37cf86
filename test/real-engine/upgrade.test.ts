/**
 * A package upgrade under the real engine (pulumi/pulumi#12401, #9085: a change of the serialized provider shows
 * as a `__provider` diff on every resource and breaks `--expect-no-changes`; #6238, #6490, #16826: refresh and
 * destroy run the provider text saved in the state, not the installed package).
 *
 * A project outside this repository installs an earlier build of the package (the packed package under another
 * version number), makes its stack with it, then takes the current build in its place, as `npm install` of a newer
 * version would: preview and refresh see no change on any resource, and refresh and destroy work from a state whose
 * `__provider` texts the earlier build wrote.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type Emulator } from "../../emulator";
import { PulumiCliRunner } from "../../testing/cli/cli-runner";
import { emulatorStackConfig } from "../../testing/emulator-config";
import { installConsumer } from "../package/consumer-project";
import { packedPackage } from "../package/packed-package";
import { realCli, TIER_ENV } from "./life-cycle";

const EARLIER = "0.0.9-earlier";

/** The program: resources of both services, written as the README shows them. */
const PROGRAM = `import * as cloudbees from "pulumi-cloudbees";

const app = new cloudbees.Application("web-shop", { name: "web-shop", adoptExisting: true });
const flag = new cloudbees.Flag("checkout", { applicationId: app.applicationId, name: "checkout.enabled" });
const teamB = new cloudbees.BundleAvailability("team-b", { bundleId: "team-b", controllers: ["team-b/controller-b"] });
const base = new cloudbees.BundleAvailability("base", { bundleId: "base", controllers: ["team-b/controller-b"] });
new cloudbees.ControllerBundleAssignment("controller-b", {
  controllerPath: "team-b/controller-b",
  bundleId: teamB.bundleId,
  fallbackBundleId: base.bundleId,
});
export const applicationId = app.applicationId;
export const flagName = flag.name;
`;

let scratch: string;
let project: string;
let current: string;
let emu: Emulator;
let runner: PulumiCliRunner;

/** The packed package under another version number: the same files, as an earlier release would ship them. */
function repack(tarball: string, version: string, into: string): string {
    const staging = fs.mkdtempSync(path.join(into, "repack-"));
    execFileSync("tar", ["-xzf", tarball, "-C", staging]);
    const manifest = path.join(staging, "package", "package.json");
    fs.writeFileSync(manifest, JSON.stringify({ ...JSON.parse(fs.readFileSync(manifest, "utf8")), version }, null, 2));
    const out = path.join(into, `pulumi-cloudbees-${version}.tgz`);
    execFileSync("tar", ["-czf", out, "-C", staging, "package"]);
    return out;
}

/** What `npm install` of another version leaves in node_modules: that package's files, the old ones gone. */
function installInPlace(tarball: string): void {
    const target = path.join(project, "node_modules", "pulumi-cloudbees");
    fs.rmSync(target, { recursive: true, force: true });
    fs.mkdirSync(target);
    execFileSync("tar", ["-xzf", tarball, "-C", target, "--strip-components=1"]);
}

const installedVersion = () =>
    (JSON.parse(fs.readFileSync(path.join(project, "node_modules", "pulumi-cloudbees", "package.json"), "utf8")) as { version: string }).version;

beforeAll(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "upgrade-"));
    current = await packedPackage();
    project = path.join(scratch, "project");
    // TypeScript and ts-node of our own lock, as a TypeScript project has them (else the SDK's vendored ts-node runs).
    const install = await installConsumer(project, repack(current, EARLIER, scratch), {
        "@pulumi/pulumi": "node_modules/@pulumi/pulumi",
        typescript: "node_modules/typescript",
        "ts-node": "node_modules/ts-node",
        "@types/node": "node_modules/@types/node",
    });
    if (install.code !== 0) throw new Error(`installing the earlier build failed:\n${install.output}`);
    fs.writeFileSync(path.join(project, "index.ts"), PROGRAM);
    emu = await startEmulator();
    runner = await PulumiCliRunner.start({ cwd: project, config: emulatorStackConfig(emu), cli: realCli(), env: TIER_ENV });
});
afterAll(async () => {
    await runner?.close();
    await emu?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

describe("a stack made with an earlier build, then the package upgraded", () => {
    let earlierTexts: string[];

    it("the earlier build makes the stack", async () => {
        expect(installedVersion()).toBe(EARLIER);
        const plan = await runner.up();
        expect(plan.map((e) => e.op)).toEqual(plan.map(() => "create"));
        earlierTexts = runner.state().resources.map((r) => r.outputs.__provider as string);
        expect(earlierTexts).toHaveLength(5);
        for (const text of earlierTexts) expect(text).toContain('require("pulumi-cloudbees/provider")');
    });

    it("with the current build installed, preview shows no change on any resource (no __provider diff)", async () => {
        installInPlace(current);
        expect(installedVersion()).not.toBe(EARLIER);
        const plan = await runner.preview(undefined, { expectNoChanges: true });
        expect(plan.filter((e) => e.op !== "same")).toEqual([]);
        const diff = await runner.run(["preview", "--diff", "--expect-no-changes"]);
        expect({ code: diff.code, providerDiff: /__provider/.test(diff.stdout) }).toEqual({ code: 0, providerDiff: false });
    });

    it("refresh reads every resource through the state's earlier provider texts, and finds nothing changed", async () => {
        expect(runner.state().resources.map((r) => r.outputs.__provider)).toEqual(earlierTexts);
        const plan = await runner.refresh({ expectNoChanges: true });
        expect(plan.map((e) => `${e.name}:${e.op}:${e.changedFields.join(",")}`).sort()).toEqual(
            ["web-shop", "checkout", "team-b", "base", "controller-b"].map((n) => `${n}:refresh:`).sort(),
        );
    });

    it("destroy deletes everything through the state's provider texts", async () => {
        const plan = await runner.destroy();
        expect(plan.map((e) => e.op)).toEqual(plan.map(() => "delete"));
        expect(emu.state.apiAvailabilityPatterns()).toEqual({});
        expect(runner.state().resources).toEqual([]);
    });
});
