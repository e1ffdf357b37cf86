// examples/index.ts (the top-level Pulumi.yaml) under the real Pulumi CLI: its header says it runs unchanged with
// `pulumi up`; this is that claim, checked step by step (life-cycle.ts).
import * as path from "node:path";
import { OperationsCenterClient } from "../../../provider";
import type { ExampleScenario } from "../life-cycle";
import { oneEmulator, setPatternByHand } from "./emulators";

const ROOT = path.join(__dirname, "..", "..", "..");

export function programScenario(): ExampleScenario {
    return {
        dir: ROOT,
        start: oneEmulator,
        afterUp({ emulators: [emu], outputs }) {
            expect(emu!.state.apiAvailabilityPatterns()).toEqual({ base: "sandbox", "team-b": "^(?:team-b/controller-b)$" });
            expect(emu!.state.assignments()).toEqual({ sandbox: "base", "team-b/controller-b": "team-b" });
            expect(emu!.state.defaultBundle()).toBe("base");
            expect(outputs().applicationId).toBe(emu!.state.applications("acme")[0]!.id);
        },
        update: {
            apply: ({ runner }) => runner.setConfig("example:baseRegex", "sandbox|team-a/.*"),
            updates: ["base"],
            check: ({ emulators: [emu] }) => expect(emu!.state.apiAvailabilityPatterns().base).toBe("sandbox|team-a/.*"),
        },
        drift: {
            async apply({ emulators: [emu] }) {
                await setPatternByHand(emu!, "team-b", "team-b/.*|sandbox");
                const oc = new OperationsCenterClient({ baseUrl: emu!.operationsCenterUrl, ...emu!.credentials.admin });
                await oc.setControllerToBundle("team-b", "sandbox").finally(() => oc.close());
            },
            resource: "assign-sandbox",
            property: "bundleId",
        },
        secretOutputs: [],
        secrets: ({ emulators: [emu] }) => [emu!.credentials.admin.apiToken, "fm-token-acme-5d1e0b"],
        afterDestroy({ emulators: [emu] }) {
            // Availability patterns and the global switch are the program's: gone. The API cannot unassign, unset the
            // default bundle or delete an application: those stay, as destroy's warnings say.
            expect(emu!.state.apiAvailabilityPatterns()).toEqual({});
            expect(emu!.state.globalVisibility()).toBe(false);
        },
    };
}
