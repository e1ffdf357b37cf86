/**
 * Issue 37: the one rule for text on its way to a person (provider/text/printable.ts). quoted() is what every message
 * interpolates a value with; printable() is what every sink applies to a whole message.
 */
import { printable, quoted } from "../../provider/text/printable";
import { expectOneQuotedLine, HOSTILE_VALUES, RAW_UNSAFE } from "../harness/hostile-text";

describe.each(HOSTILE_VALUES)("%s", (_name, value) => {
  it("quoted: one line, in quotes, reading back as the value", () => {
    expectOneQuotedLine(`warning: changed by ${quoted(value)} at 2026-01-01T00:00:00Z`, value);
  });

  it("printable: one line; with keepNewlines, only LF stays", () => {
    expect(printable(value)).not.toMatch(RAW_UNSAFE);
    expect(printable(value)).not.toMatch(/##(vso)?\[/i);
    const kept = printable(value, { keepNewlines: true });
    expect(kept.split("\n").every((line) => !RAW_UNSAFE.test(line))).toBe(true);
    expect(kept.split("\n")).toHaveLength(value.split("\n").length);
  });
});

it("shows each character as a reader of JSON or JavaScript reads it back", () => {
  expect(printable("a\nb\u001b[31m\u202ec\u0000\u009b")).toBe("a\\nb\\u001b[31m\\u202ec\\u0000\\u009b");
  expect(printable("x\ny\rz", { keepNewlines: true })).toBe("x\ny\\rz");
  expect(quoted('say "hi" \\ bye')).toBe('"say \\"hi\\" \\\\ bye"');
  // Azure Pipelines acts on ##vso[ anywhere in a line: its first # is escaped; a lone # or ## stays.
  expect(quoted("##vso[task.complete]# ##x")).toBe('"\\u0023#vso[task.complete]# ##x"');
  expect(printable("a ##[error]b")).toBe("a \\u0023#[error]b");
});

it("already printable text comes back unchanged (a sink may apply printable to a message of quoted values)", () => {
  const message = `creating Flag (checkout) by ${quoted("mallory\u2028::error::x")}: ${quoted("##vso[x]")}`;
  expect(printable(message)).toBe(message);
});
