/** What the scenarios share: one emulator with the stack config that points at it, and a change made by hand on it. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type Emulator } from "../../../emulator";
import { OperationsCenterClient } from "../../../provider";
import { emulatorStackConfig } from "../../../testing/emulator-config";

/** A scenario's `start` for a program against one emulator with the package's example bundles. */
export async function oneEmulator(): Promise<{ emulators: Emulator[]; config: Record<string, unknown> }> {
    const emu = await startEmulator();
    return { emulators: [emu], config: emulatorStackConfig(emu) };
}

/** A change made outside Pulumi: a bundle's availability pattern set through the CasC API, as an administrator. */
export async function setPatternByHand(emu: Emulator, bundle: string, pattern: string, user = emu.credentials.admin): Promise<void> {
    const oc = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...user });
    try {
        await oc.setAvailabilityPattern(bundle, pattern);
    } finally {
        await oc.close();
    }
}

/** A checkout of the repository's example bundles in a temp folder, which a scenario edits; `remove` deletes it. */
export function bundleTreeCopy(prefix: string): { tree: string; remove(): void } {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
    const tree = path.join(scratch, "bundles");
    fs.cpSync(path.join(__dirname, "..", "..", "..", "examples", "bundles"), tree, { recursive: true });
    return { tree, remove: () => fs.rmSync(scratch, { recursive: true, force: true }) };
}
