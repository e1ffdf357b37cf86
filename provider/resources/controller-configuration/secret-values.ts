/**
 * Values the program marks secret. A controller's compared values come from the bundle that `bundleTreePath` and
 * `bundleId` name: when the program marks either secret (`pulumi.secret(...)`; the faces tell check which inputs came
 * secret, shared/secret-inputs.ts), every value is kept as its digest, with that reason, on both sides and in every
 * warning. Only check learns the marks, so the reason written in `configuration` carries them on: create and update
 * read it in their inputs, a refresh in the state; a change of the marks is a change for diff (one update rewrites the
 * state), never drift.
 */
import { ABSENT, digestOf, digestOfForm, hiddenForm, programSecretReason, reasonOfForm, type Secrecy } from "../../configuration";

const REASON = /^the program marks (\S+) secret$/;

/** The secrecy a record written by this resource carries (undefined `programSecret`: none). */
export function secrecyOf(configuration: unknown): Secrecy {
  if (typeof configuration !== "object" || configuration === null) return {};
  for (const form of Object.values(configuration as Record<string, unknown>)) {
    const reason = typeof form === "string" ? reasonOfForm(form) : undefined;
    const input = reason === undefined ? undefined : REASON.exec(reason)?.[1];
    if (input !== undefined) return { programSecret: input };
  }
  return {};
}

/** Every value of a record kept as its digest, because the program marks `input` secret. */
export function hiddenRecord(record: Record<string, unknown>, input: string): Record<string, string> {
  const reason = programSecretReason(input);
  return Object.fromEntries(
    Object.entries(record).map(([key, form]) => {
      const text = String(form);
      return [key, text === ABSENT ? ABSENT : hiddenForm(digestOfForm(text) ?? digestOf(text), reason)];
    }),
  );
}
