/**
 * Issue 37: the emulator's console (emulator/console.ts, printed by emulator/cli.ts) quotes the names clients sent
 * and prints nothing raw: a name with a line break or an escape sequence would write lines of its own into a
 * terminal or a CI job's log (clear the screen, set the clipboard with OSC 52, forge `::error::`). The built
 * command's own output is tested in cli.test.ts.
 */
import { failureText, roxyLine } from "../../emulator/console";
import { expectOneQuotedLine, HOSTILE_VALUES, RAW_UNSAFE } from "../harness/hostile-text";

const URL = "http://127.0.0.1:8080/roxy/0123456789abcdef01234567/";

it.each(HOSTILE_VALUES)("a name holding %s: the roxy line is one line, quoting it", (_name, value) => {
  expectOneQuotedLine(roxyLine(value, "acme", "Production", URL), value);
  expectOneQuotedLine(roxyLine("shop", "acme", value, URL), value);
});

it("a failure keeps its own line breaks (the usage) and escapes everything else", () => {
  const text = failureText(new Error(`unknown argument "x"\nusage: cloudbees-emulator [--port N]\u001b[2J\u2028::error::x`));
  expect(text.split("\n")).toEqual(['unknown argument "x"', "usage: cloudbees-emulator [--port N]\\u001b[2J\\u2028::error::x"]);
  for (const line of text.split("\n")) expect(line).not.toMatch(RAW_UNSAFE);
});
