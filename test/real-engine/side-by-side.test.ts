/**
 * The two engines side by side: each example's scenario (up, up again, an input update, drift and the drift job's
 * preview, refresh, repair, destroy) through the testing kit's engine stand-in and through the real Pulumi CLI, each
 * against emulators of its own. Every step must give the same plan per resource, the same writes on the emulators
 * (in any order: steps run in parallel), the same outputs and the same state, ids and times apart. A difference is
 * fixed in the stand-in, or is a row of the table in docs/testing.md saying why it cannot be.
 */
import { recordScenario, type RecordedStep } from "./side-by-side";
import type { ExampleScenario } from "./life-cycle";
import { controllersScenario } from "./scenarios/controllers";
import { flagsScenario } from "./scenarios/flags";
import { pipelineScenario } from "./scenarios/pipeline";
import { programScenario } from "./scenarios/program";
import { promotionScenario } from "./scenarios/promotion";

const SCENARIOS: Array<[string, () => ExampleScenario]> = [
    ["examples/index.ts", programScenario],
    ["examples/flags", flagsScenario],
    ["examples/controllers", controllersScenario],
    ["examples/pipeline", pipelineScenario],
    ["examples/promotion", promotionScenario],
];

describe.each(SCENARIOS)("%s through both engines", (_name, scenario) => {
    let standIn: RecordedStep[];
    let real: RecordedStep[];

    beforeAll(async () => {
        [standIn, real] = await Promise.all([recordScenario("stand-in", scenario()), recordScenario("pulumi", scenario())]);
    });

    it("gives the same steps, writes, outputs and state at every step", () => {
        expect(real.map((s) => s.step)).toEqual(standIn.map((s) => s.step));
        for (let i = 0; i < real.length; i++) expect(real[i]).toEqual(standIn[i]);
    });
});
