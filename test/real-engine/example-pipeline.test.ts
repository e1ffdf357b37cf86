// examples/pipeline under the real Pulumi CLI and, step for step, the engine stand-in (the scenario in scenarios/pipeline.ts): its
// header says it runs unchanged with `pulumi up`; this is that claim, checked step by step, and the two engines
// compared (life-cycle.ts).
import { describeLifeCycle } from "./life-cycle";
import { pipelineScenario } from "./scenarios/pipeline";

describeLifeCycle("examples/pipeline under the real CLI and the stand-in", pipelineScenario);
