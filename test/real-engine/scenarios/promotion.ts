// examples/promotion under the real Pulumi CLI (life-cycle.ts): one stack, two operations centers (named
// connections, their tokens in one secret config object), a production controller with its own credentials.
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator } from "../../../emulator";
import type { ExampleScenario } from "../life-cycle";
import { PRODUCTION_USERS, productionEmulatorOptions, PROMOTION_CONTROLLER, promotionStackConfig } from "../../../examples/promotion-stack";
import { bundleTreeCopy, setPatternByHand } from "./emulators";

const ROOT = path.join(__dirname, "..", "..", "..");

export function promotionScenario(): ExampleScenario {
    let tree = "";
    return {
        dir: path.join(ROOT, "examples", "promotion"),
        async start() {
            // The bundles validated on staging: a checkout of the repository's bundle tree, which the update edits.
            const copy = bundleTreeCopy("promotion");
            tree = copy.tree;
            const [staging, production] = await Promise.all([startEmulator(), startEmulator(productionEmulatorOptions())]);
            return {
                emulators: [staging!, production!],
                config: { ...promotionStackConfig(staging!, production!), "promotion:bundlesDir": tree },
                cleanup: copy.remove,
            };
        },
        afterUp({ emulators: [staging, production], outputs }) {
            expect(staging!.state.assignments()[PROMOTION_CONTROLLER]).toBe("team-a");
            expect(production!.state.assignments()[PROMOTION_CONTROLLER]).toBe("team-a");
            expect(outputs().reloaded).toMatchObject({ reloaded: true });
        },
        update: {
            // A commit changes the promoted bundle: validated on staging again, and production's controller reloads.
            apply() {
                const file = path.join(tree, "team-a", "jenkins.yaml");
                fs.writeFileSync(file, `${fs.readFileSync(file, "utf8")}\n# promoted again\n`);
            },
            updates: ["validate-on-staging", "reload-on-production"],
        },
        drift: {
            apply: ({ emulators: [, production] }) => setPatternByHand(production!, "team-a", ".*", PRODUCTION_USERS.admin),
            resource: "available-on-production",
            property: "controllers",
        },
        secretOutputs: [],
        secrets: ({ emulators: [staging] }) => [staging!.credentials.admin.apiToken, PRODUCTION_USERS.admin.apiToken, PRODUCTION_USERS.controller.apiToken],
        afterDestroy({ emulators: [staging, production] }) {
            expect(staging!.state.apiAvailabilityPatterns()).toEqual({});
            expect(production!.state.apiAvailabilityPatterns()).toEqual({});
        },
    };
}
