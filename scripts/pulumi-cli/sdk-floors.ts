/**
 * What the real-engine tier's programs on the SDKs' floors (SDK_FLOORS, scripts/schema/languages.ts) install, fetched
 * once by `npm run pulumi-cli` so that they then run offline, as the programs on the CLI's own version do
 * (program-deps.ts):
 * - Python: the wheels of `pulumi==<floor>` and what it depends on, in `<cache>/sdk-floors/python-<floor>/`.
 * - Go: a program on `sdk/v3@<floor>` resolved and built once, so that Go's module and build caches hold that SDK
 *   (`<cache>/sdk-floors/go-<floor>/` says it was done).
 * - Node.js: nothing: the lockfile holds `@pulumi/pulumi` at its floor (`pulumi-sdk-lowest`), which `npm ci` cached.
 * Kept apart from the CLI's build (a stamp of its own per floor), so that a new floor fetches that floor alone and
 * rebuilds nothing, and a second run does nothing.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { SDK_FLOORS } from "../schema/languages";
import { pulumiCliCacheRoot } from "../../testing/cli/pulumi-cli";
import { tool } from "./go";
import { warmGoPrograms } from "./program-deps";

const DONE = ".complete";

/** The wheels of `pulumi==<SDK_FLOORS.python>` (and its dependencies). */
export function pythonFloorWheels(): string {
    return path.join(pulumiCliCacheRoot(), "sdk-floors", `python-${SDK_FLOORS.python}`);
}

function goFloorStamp(): string {
    return path.join(pulumiCliCacheRoot(), "sdk-floors", `go-${SDK_FLOORS.go}`);
}

/** Whether Go's caches were filled with sdk/v3 at its floor (by this machine's `npm run pulumi-cli`). */
export function goFloorFetched(): boolean {
    return fs.existsSync(path.join(goFloorStamp(), DONE));
}

/** Fetches what is missing (see above); `say` tells what it does. */
export async function fetchSdkFloors(say: (message: string) => void): Promise<void> {
    await once(pythonFloorWheels(), async (into) => {
        say(`downloading the Python package pulumi==${SDK_FLOORS.python} (the Python SDK's floor) and what it needs, as wheels (PyPI)`);
        const args = ["-m", "pip", "download", "--disable-pip-version-check", "--only-binary=:all:", "--dest", into, `pulumi==${SDK_FLOORS.python}`];
        await tool("python3", args, path.dirname(into), "no python3: the Python SDK's floor cannot be fetched");
    });
    await once(goFloorStamp(), async (work) => {
        await warmGoPrograms(`v${SDK_FLOORS.go}`, work, say);
        fs.rmSync(path.join(work, "go-program"), { recursive: true, force: true });
    });
}

/** `fill(folder)` unless `target` is complete: filled in a folder of its own, renamed into place when whole. */
async function once(target: string, fill: (dir: string) => Promise<void>): Promise<void> {
    if (fs.existsSync(path.join(target, DONE))) return;
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const work = fs.mkdtempSync(path.join(path.dirname(target), `${path.basename(target)}.fetch-`));
    try {
        await fill(work);
        fs.writeFileSync(path.join(work, DONE), "");
        fs.rmSync(target, { recursive: true, force: true });
        fs.renameSync(work, target);
    } finally {
        fs.rmSync(work, { recursive: true, force: true });
    }
}

if (require.main === module) {
    fetchSdkFloors((m) => process.stderr.write(`pulumi-cli: ${m}\n`)).catch((e: unknown) => {
        process.stderr.write(`pulumi-cli: ${e instanceof Error ? e.message : String(e)}\n`);
        process.exit(1);
    });
}
