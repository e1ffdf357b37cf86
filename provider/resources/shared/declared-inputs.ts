import { withPartialProperties } from "./errors";
import type { Props, ReadResult, ResourceController } from "./types";

/**
 * The names of the inputs the program declared, kept in the outputs under an internal key (the engine hides `__`
 * keys from its diffs, as it does `__provider`).
 *
 * Why: a refresh's `read` returns the inputs that would produce what it read, so that the engine shows the drift
 * (for a provider without a detailed diff, the CLI's `[diff: …]` compares the old and the refreshed inputs). A
 * controller can only tell which inputs the program declared from what it is given, and a dynamic provider's read is
 * given the outputs alone (the SDK's host drops the request's inputs): the outputs hold every field the server
 * returned, so the first refresh added to the inputs what the program never declared (a Flag's `availableValues`
 * and `isPermanent`), and the next `pulumi up` or drift check saw a difference. The plugin is given the engine's
 * recorded inputs and passes their names (provider/plugin/provider.ts).
 */
export const DECLARED_INPUTS_KEY = "__declaredInputs";

/** The declared names in outputs, or undefined (a state written before they were kept, or an import). */
export function declaredInputsOf(props: Props): string[] | undefined {
  const names = props[DECLARED_INPUTS_KEY];
  return Array.isArray(names) && names.every((n) => typeof n === "string") ? (names as string[]) : undefined;
}

/** The names of the inputs the engine records: every key with a value, the SDK's own `__` keys aside. */
export function declaredNames(inputs: Props): string[] {
  return Object.keys(inputs)
    .filter((k) => !k.startsWith("__") && inputs[k] !== undefined)
    .sort();
}

/** The outputs without the names (the plugin keeps none: the engine gives it the recorded inputs). */
export function withoutDeclaredInputs(props: Props): Props {
  if (!(DECLARED_INPUTS_KEY in props)) return props;
  const { [DECLARED_INPUTS_KEY]: _, ...rest } = props;
  return rest;
}

/** The read's inputs cut to the declared names: nothing the program left out is added (values are the server's). */
export function asDeclared(result: ReadResult, declared: readonly string[] | undefined): ReadResult {
  if (result.id === undefined || declared === undefined) return result;
  const props = { ...result.props, [DECLARED_INPUTS_KEY]: [...declared] };
  const inputs: Props = {};
  for (const k of declared) if (k in result.inputs) inputs[k] = result.inputs[k];
  return { ...result, props, inputs };
}

/**
 * Create and update record the declared names in the outputs; read returns only those inputs. The controllers
 * below never see the key.
 */
export function keepingDeclaredInputs(controller: ResourceController): ResourceController {
  return {
    check: (olds, news) => controller.check(withoutDeclaredInputs(olds), news),
    diff: (id, olds, news) => controller.diff(id, withoutDeclaredInputs(olds), news),
    async create(inputs) {
      const names = declaredNames(inputs);
      try {
        const result = await controller.create(inputs);
        return { ...result, outs: { ...result.outs, [DECLARED_INPUTS_KEY]: names } };
      } catch (e) {
        throw withPartialProperties(e, (p) => ({ ...p, [DECLARED_INPUTS_KEY]: names }));
      }
    },
    async read(id, props) {
      return asDeclared(await controller.read(id, withoutDeclaredInputs(props)), declaredInputsOf(props));
    },
    async update(id, olds, news) {
      const result = await controller.update(id, withoutDeclaredInputs(olds), news);
      return { outs: { ...result.outs, [DECLARED_INPUTS_KEY]: declaredNames(news) } };
    },
    delete: (id, props) => controller.delete(id, withoutDeclaredInputs(props)),
  };
}
