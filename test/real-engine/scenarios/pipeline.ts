// examples/pipeline under the real Pulumi CLI (life-cycle.ts): a bundle change in the bundle location is the input
// that changes; the controllers' bundle tokens and link files are secrets in the state and the outputs.
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator } from "../../../emulator";
import { emulatorStackConfig } from "../../../testing/emulator-config";
import type { ExampleScenario } from "../life-cycle";
import { bundleTreeCopy, setPatternByHand } from "./emulators";

const ROOT = path.join(__dirname, "..", "..", "..");
const A = "team-a/controller-a";
const B = "team-b/controller-b";

export function pipelineScenario(): ExampleScenario {
    let tree = "";
    return {
        dir: path.join(ROOT, "examples", "pipeline"),
        async start() {
            const copy = bundleTreeCopy("pipeline");
            tree = copy.tree;
            const emu = await startEmulator({ bundlesDir: tree });
            const controllers = { [A]: { bundle: "team-a", url: emu.controllerUrls[A] }, [B]: { bundle: "team-b", url: emu.controllerUrls[B] } };
            return {
                emulators: [emu],
                config: { ...emulatorStackConfig(emu), "pipeline:bundlesDir": tree, "pipeline:controllers": JSON.stringify(controllers) },
                cleanup: copy.remove,
            };
        },
        afterUp({ emulators: [emu], outputs }) {
            expect(emu!.state.assignments()).toEqual({ [A]: "team-a", [B]: "team-b" });
            expect(emu!.state.appliedBundle(A)).toMatchObject({ bundle: "team-a" });
            expect(outputs().checkedOut).toEqual(["base", "team-a", "team-b"]);
        },
        update: {
            apply() {
                const file = path.join(tree, "team-b", "jenkins.yaml");
                fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace('labelString: "team-b"', 'labelString: "team-b linux"'));
            },
            // The content hash triggers validation, checkout and both reloads; only team-b's controller reloads a new version.
            updates: ["bundles", "checkout", "reload-team-a-controller-a", "reload-team-b-controller-b"],
            check: ({ outputs }) => expect(outputs().reloads).toMatchObject({ [A]: { reloaded: false }, [B]: { reloaded: true } }),
        },
        drift: {
            apply: ({ emulators: [emu] }) => setPatternByHand(emu!, "team-b", "team-b/.*|team-a/.*"),
            resource: "available-team-b",
            property: "controllers",
        },
        secretOutputs: ["linkFiles"],
        secrets: ({ emulators: [emu] }) => [emu!.credentials.admin.apiToken, emu!.state.controllerToken(A), emu!.state.controllerToken(B)],
        afterDestroy({ emulators: [emu] }) {
            expect(emu!.state.apiAvailabilityPatterns()).toEqual({});
        },
    };
}
