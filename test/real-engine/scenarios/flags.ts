// examples/flags under the real Pulumi CLI (life-cycle.ts): the drift job's warning names who changed a flag and
// when, from the audit log, as docs/drift-detection.md promises.
import * as path from "node:path";
import type { Emulator } from "../../../emulator";
import { featureManagementClientAs } from "../../../testing/out-of-band";
import type { ExampleScenario } from "../life-cycle";
import { oneEmulator } from "./emulators";

const DIR = path.join(__dirname, "..", "..", "..", "examples", "flags");
const ACCOUNT = "acme";

/** The team members the program declares (the account has its API user, and Alice joins to change a flag). */
const members = (emu: Emulator) => emu.state.teamMembers(ACCOUNT).map((m) => m.email).filter((e) => e.endsWith("@checkout.example")).sort();

export function flagsScenario(): ExampleScenario {
    return {
        dir: DIR,
        start: oneEmulator,
        afterUp({ emulators: [emu], outputs }) {
            const appId = outputs().appId as string;
            expect(emu!.state.applications(ACCOUNT).map((a) => a.name)).toEqual(["checkout-flags"]);
            expect(emu!.state.flags(appId).map((f) => f.name).sort()).toEqual(["checkout.bannerColor", "checkout.newFlow"]);
            expect(emu!.state.environments(appId).map((e) => e.name).sort()).toEqual(["Production", "Staging"]);
            expect(members(emu!)).toEqual(["dana@checkout.example", "lee@checkout.example"]);
        },
        update: {
            apply: ({ runner }) => runner.setConfig("flags:stagingPercentage", 25),
            updates: ["new-flow-staging"],
        },
        drift: {
            async apply({ emulators: [emu], outputs }) {
                const ui = featureManagementClientAs(emu!, { email: "alice@example.com", name: "Alice" });
                await ui.patchExperiment(outputs().appId as string, "Production", "checkout.bannerColor", [{ op: "replace", path: "/value", value: "red" }]);
                await ui.close();
            },
            resource: "banner-color-production",
            property: "value",
            warning: /warning: FlagConfiguration checkout\.bannerColor\/Production changed outside this stack by "alice@example\.com" at \d{4}-\d\d-\d\dT[\d:]+Z/,
        },
        secretOutputs: [],
        secrets: () => ["fm-token-acme-5d1e0b", "admin-api-token-7f3c9d"],
        afterDestroy({ emulators: [emu], outputs }) {
            const appId = outputs().appId as string;
            // Flags (with their configurations) and team members are deleted; the API cannot delete environments,
            // target groups or applications, which stay with destroy's warnings.
            expect(emu!.state.flags(appId)).toEqual([]);
            expect(members(emu!)).toEqual([]);
        },
    };
}
