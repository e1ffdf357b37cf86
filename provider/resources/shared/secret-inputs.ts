/**
 * Which inputs the program marked secret, for `check`: a failure about one names no property (the engine prints the
 * value of the property a failure names, a secret's too: pulumi/pulumi step_generator.go issueCheckFailures) and
 * quotes nothing of its value; no failure quotes a secret's text, whichever input it is about.
 *
 * The faces learn the marks differently, and tell them here the same way, as the internal input SECRET_INPUTS_KEY
 * (the names, never the values):
 * - the TypeScript face's resource classes know them when they are built (sdk/resources/dynamic-resource.ts): the
 *   dynamic-provider host receives every input without its secret mark, so the program passes the names;
 * - the plugin receives the marks (plugin/secrets.ts) and passes the names of the inputs that held one.
 * The input is taken out before the resource's own check and left out of what check returns: it never reaches the
 * state, a diff or any other call.
 */
import { textsOf } from "../../text/credentials";
import { withoutSecretTexts } from "../../text/secret-texts";
import { valueLeftOut } from "./check";
import type { CheckFailure, Props, ResourceController } from "./types";

export const SECRET_INPUTS_KEY = "__secretInputs";

/**
 * The inputs `news` says are secret. A value of the key that is not a list of names (no program writes it by hand
 * through this package's classes) makes every input secret: never less secret than asked.
 */
export function secretInputsOf(news: Props): Set<string> {
  const v = news[SECRET_INPUTS_KEY];
  if (v === undefined || v === null) return new Set();
  if (Array.isArray(v) && v.every((n) => typeof n === "string")) return new Set(v as string[]);
  return new Set(Object.keys(news).filter((k) => k !== SECRET_INPUTS_KEY));
}

/** `props` without the internal input. */
export function withoutSecretInputsKey(props: Props): Props {
  if (!(SECRET_INPUTS_KEY in props)) return props;
  const { [SECRET_INPUTS_KEY]: _names, ...rest } = props;
  return rest;
}

/**
 * Failures told without the values of the `secret` inputs of `inputs`: one about a secret input names no property
 * and says which input it is about; every reason is without any text of any secret input.
 */
export function failuresWithoutSecrets(failures: CheckFailure[], inputs: Props, secret: Set<string>): CheckFailure[] {
  if (secret.size === 0) return failures;
  const texts = [...secret].flatMap((k) => textsOf(inputs[k]));
  return failures.map((f) => {
    const about = secret.has(f.property.split(/[.[]/, 1)[0]!);
    const told = about ? valueLeftOut(f, texts) : f;
    return { property: told.property, reason: withoutSecretTexts(told.reason, texts) };
  });
}

/** The controller's check told the secret inputs' names, and its failures told without their values. */
export function withSecretInputs(controller: ResourceController): ResourceController {
  return {
    ...controller,
    async check(olds, news) {
      const secret = secretInputsOf(news);
      const plain = withoutSecretInputsKey(news);
      const result = await controller.check(withoutSecretInputsKey(olds), plain);
      return { inputs: withoutSecretInputsKey(result.inputs), failures: failuresWithoutSecrets(result.failures, plain, secret) };
    },
  };
}
