// A message about an input the program marked secret shows nothing of its value (provider/text/secret-texts.ts).
import { HIDDEN } from "../../provider/text/credentials";
import { quoted } from "../../provider/text/printable";
import { withoutSecretTexts } from "../../provider/text/secret-texts";

const SECRET = "hunter2 is\nmy-s3cr3t-Zq9x";

it("hides the value however a message quotes it", () => {
  expect(withoutSecretTexts(`name ${quoted(SECRET)} holds a control character`, [SECRET])).toBe(`name ${HIDDEN} holds a control character`);
  expect(withoutSecretTexts(`got ${SECRET}.`, [SECRET])).toBe(`got ${HIDDEN}.`);
});

it("hides a part of it that a message cut, and keeps the rest of the message", () => {
  const cut = `${quoted(SECRET).slice(0, 14)}... (28 characters)`;
  const out = withoutSecretTexts(`name must be a list, got ${cut}: e.g. name: ["x"]`, [SECRET]);
  expect(out).toBe(`name must be a list, got "${HIDDEN}... (28 characters): e.g. name: ["x"]`);
});

it("hides a short value where it stands as a word, not inside another word", () => {
  expect(withoutSecretTexts("timeoutSeconds must be a whole number, got number 42: e.g. 420", ["42"])).toBe(
    `timeoutSeconds must be a whole number, got number ${HIDDEN}: e.g. 420`,
  );
});

it("keeps a message that shares nothing with the value, and what is hidden already", () => {
  const text = `instanceUrl ${HIDDEN} must not have a query`;
  expect(withoutSecretTexts(text, [SECRET])).toBe(text);
  expect(withoutSecretTexts(text, [])).toBe(text);
});

it("looks through a huge value once, in bounded work", () => {
  const huge = "abcdefgh".repeat(1_000_000);
  expect(withoutSecretTexts(`got "abcdefghabcd...`, [huge])).toBe(`got "${HIDDEN}...`);
});
