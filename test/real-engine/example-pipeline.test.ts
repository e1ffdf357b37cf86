// examples/pipeline under the real Pulumi CLI (the scenario in scenarios/pipeline.ts): its header says it runs unchanged with `pulumi up`; this is that
// claim, checked step by step (life-cycle.ts).
import { describeLifeCycle } from "./life-cycle";
import { pipelineScenario } from "./scenarios/pipeline";

describeLifeCycle("examples/pipeline under the real CLI", pipelineScenario());
