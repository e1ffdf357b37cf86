// examples/controllers under the real Pulumi CLI (the scenario in scenarios/controllers.ts): its header says it runs unchanged with `pulumi up`; this is that
// claim, checked step by step (life-cycle.ts).
import { describeLifeCycle } from "./life-cycle";
import { controllersScenario } from "./scenarios/controllers";

describeLifeCycle("examples/controllers under the real CLI", controllersScenario());
