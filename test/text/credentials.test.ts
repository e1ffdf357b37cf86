// What counts as a credential in a value a message would quote, and the message without it (provider/text/credentials.ts).
import { credentialTexts, HIDDEN, holdsCredential, withoutCredentials, withoutTexts } from "../../provider/text/credentials";
import { quoted } from "../../provider/text/printable";

const TOKEN = "11a3f09c2e4b5d6f7a8b9c0d1e2f3a4b5c";

describe("holdsCredential", () => {
  it.each([
    [`https://admin:${TOKEN}@ci.example.com/`, true],
    ["https://ci.example.com/team-a/?token=abc", true],
    ["https://ci.example.com/#frag", true],
    [TOKEN, true],
    [`ghp_${"a1B2c3".repeat(6)}`, true],
    ["5e95a1b2c3d4e5f6a7b8c9d0", false],
    [["team-a", { deep: [TOKEN] }], true],
    ["https://ci.example.com/team-a/", false],
    ["alice@example.com", false],
    ["team-a/controller-2", false],
    ["ControllerConfiguration2024", false],
    ["a-very-long-name-of-a-bundle-with-words", false],
    [5, false],
  ])("%j: %s", (value, holds) => {
    expect(holdsCredential(value)).toBe(holds);
  });

  it("as a URL input, whatever quotedUrl leaves out counts, with or without a scheme", () => {
    expect(holdsCredential("ci.example.com/?token=abc", true)).toBe(true);
    expect(holdsCredential("admin:secret@ci.example.com/", true)).toBe(true);
    expect(holdsCredential("ci.example.com/?token=abc")).toBe(false);
    expect(credentialTexts("https://ci.example.com/", true)).toEqual([]);
  });

  it("reads a long value in linear time", () => {
    const big = `${"://".repeat(200_000)} ${"a1".repeat(5)}-`.repeat(3) + "//x".repeat(100_000);
    const start = Date.now();
    expect(holdsCredential(big)).toBe(false);
    expect(withoutCredentials(big)).toBe(big);
    expect(Date.now() - start).toBeLessThan(2000);
  });
});

describe("withoutCredentials and withoutTexts", () => {
  it("drop user-info and queries, hide token-like runs, and keep the rest of the text", () => {
    expect(withoutCredentials(`url "https://admin:${TOKEN}@ci.example.com/x/?token=abc" and ${TOKEN}.`)).toBe(
      `url "https://ci.example.com/x/" and ${HIDDEN}.`,
    );
  });

  it("hide a value however a message quotes it, and a part of it a message cut", () => {
    const value = ` https://ci.example.com/?t=${TOKEN} `;
    const text = `x ${quoted(value)} has spaces: write ${quoted(value.trim())}; cut: ${value.slice(0, 40)}`;
    const out = withoutTexts(text, [value]);
    expect(out).toBe(`x ${HIDDEN} has spaces: write ${HIDDEN}; cut:  https://ci.example.com/`);
    expect(out).not.toContain(TOKEN.slice(0, 8));
  });

  it("a short text is hidden only where it is quoted", () => {
    expect(withoutTexts('got "yes", yes', ["yes"])).toBe(`got ${HIDDEN}, yes`);
  });
});
