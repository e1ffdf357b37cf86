// examples/controllers under the real Pulumi CLI (life-cycle.ts): a managed controller created with Items, made
// able to use a bundle and assigned it; destroy stops and deletes the controller.
import * as path from "node:path";
import type { ExampleScenario } from "../life-cycle";
import { startEmulator } from "../../../emulator";
import { emulatorStackConfig } from "../../../testing/emulator-config";
import { setPatternByHand } from "./emulators";

const DIR = path.join(__dirname, "..", "..", "..", "examples", "controllers");
const CONTROLLER = "team-c/controller-c";

export function controllersScenario(): ExampleScenario {
    return {
        dir: DIR,
        // The controller's URL for its ControllerConfiguration: where the emulator serves the controller Items makes.
        async start() {
            const emu = await startEmulator();
            return { emulators: [emu], config: { ...emulatorStackConfig(emu), "controllers:instanceUrl": `${emu.baseUrl}controllers/${CONTROLLER}/` } };
        },
        afterUp({ emulators: [emu], outputs }) {
            expect(outputs().controllerPath).toBe(CONTROLLER);
            expect(emu!.state.controllers()).toContain(CONTROLLER);
            expect(emu!.state.assignments()[CONTROLLER]).toBe("base");
            // Watched: it runs its bundle, applied by the ControllerConfiguration's create.
            expect(outputs().drift).toEqual([]);
            expect(emu!.state.appliedBundle(CONTROLLER)).toMatchObject({ bundle: "base" });
        },
        update: {
            apply: ({ runner }) => runner.setConfig("controllers:memory", 8192),
            updates: ["team-c-controller"],
            check: ({ emulators: [emu] }) => expect(emu!.journal.entries().filter((e) => e.path.endsWith("/casc-items/create-items")).at(-1)?.body.toString()).toContain("memory: 8192"),
        },
        drift: {
            apply: ({ emulators: [emu] }) => setPatternByHand(emu!, "base", ".*"),
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
