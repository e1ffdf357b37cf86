// examples/promotion under the real Pulumi CLI (the scenario in scenarios/promotion.ts): its header says it runs unchanged with `pulumi up`; this is that
// claim, checked step by step (life-cycle.ts).
import { describeLifeCycle } from "./life-cycle";
import { promotionScenario } from "./scenarios/promotion";

describeLifeCycle("examples/promotion under the real CLI", promotionScenario());
