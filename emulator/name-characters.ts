/**
 * A name sent to the feature-flag service (an application's, an environment's, a flag's, a target group's, a
 * property's or a label) with a control character (C0, DEL, C1) is refused with a 400 naming the field, as the
 * provider's own checks refuse one before any request (controlCharacterProblem, provider/resources/shared/check.ts):
 * the public sources say nothing of what the service does with one, and such a name would reach the emulator's
 * console and every log that quotes it. One rule, on the provider's own test of a character.
 */
import { controlCharacterIn } from "../provider/clients/inputs";

/** Why `name` cannot be stored (`holds a control character (U+000A): ...`), or undefined. */
export function controlCharacterReason(name: string): string | undefined {
  const control = controlCharacterIn(name);
  return control ? `holds a control character (${control}): a name cannot carry one` : undefined;
}
