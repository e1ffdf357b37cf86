// examples/controllers under the real Pulumi CLI (life-cycle.ts): a managed controller created with Items, made
// able to use a bundle and assigned it; destroy stops and deletes the controller.
import * as path from "node:path";
import { startEmulator } from "../../../emulator";
import { OperationsCenterClient } from "../../../provider";
import { emulatorStackConfig } from "../../../testing/emulator-config";
import type { ExampleScenario } from "../life-cycle";

const DIR = path.join(__dirname, "..", "..", "..", "examples", "controllers");
const CONTROLLER = "team-c/controller-c";

export function controllersScenario(): ExampleScenario {
    return {
        dir: DIR,
        async start() {
            const emu = await startEmulator();
            return { emulators: [emu], config: emulatorStackConfig(emu) };
        },
        afterUp({ emulators: [emu], outputs }) {
            expect(outputs().controllerPath).toBe(CONTROLLER);
            expect(emu!.state.controllers()).toContain(CONTROLLER);
            expect(emu!.state.assignments()[CONTROLLER]).toBe("base");
        },
        update: {
            apply: ({ runner }) => runner.setConfig("controllers:memory", 8192),
            updates: ["team-c-controller"],
            check: ({ emulators: [emu] }) => expect(emu!.journal.entries().filter((e) => e.path.endsWith("/casc-items/create-items")).at(-1)?.body.toString()).toContain("memory: 8192"),
        },
        drift: {
            async apply({ emulators: [emu] }) {
                const oc = new OperationsCenterClient({ baseUrl: emu!.operationsCenterUrl, ...emu!.credentials.admin });
                await oc.setAvailabilityPattern("base", ".*");
                await oc.close();
            },
            resource: "base-for-team-c",
            property: "controllers",
        },
        secretOutputs: [],
        secrets: ({ emulators: [emu] }) => [emu!.credentials.admin.apiToken],
        afterDestroy({ emulators: [emu] }) {
            expect(emu!.state.controllers()).not.toContain(CONTROLLER);
            expect(emu!.state.apiAvailabilityPatterns()).toEqual({});
        },
    };
}
