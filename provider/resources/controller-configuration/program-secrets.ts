/**
 * ControllerConfiguration's check told which of the inputs its values come from the program marks secret
 * (secret-values.ts says what follows). Light: loaded with the resource index, the comparison only when a mark is
 * there.
 */
import { secretInputsOf } from "../shared/secret-inputs";
import type { Props, ResourceController } from "../shared/types";

/** The inputs the compared values come from. */
export const VALUE_INPUTS = ["bundleTreePath", "bundleId"] as const;

/** The served controller, its check's `configuration` kept as digests when a value input came secret. Outside withSecretInputs, which takes the marks off. */
export function withProgramSecrets(controller: ResourceController): ResourceController {
  return {
    ...controller,
    async check(olds, news) {
      const marked = VALUE_INPUTS.find((k) => secretInputsOf(news).has(k));
      const result = await controller.check(olds, news);
      const configuration = result.inputs.configuration;
      if (marked === undefined || typeof configuration !== "object" || configuration === null) return result;
      const { hiddenRecord } = require("./secret-values") as typeof import("./secret-values");
      return { ...result, inputs: { ...result.inputs, configuration: hiddenRecord(configuration as Props, marked) } };
    },
  };
}
