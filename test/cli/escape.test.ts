/**
 * The escaping functions of the generated program (cli/escape.ts), one per place server text can land: each
 * hostile string must come back exactly (a literal's value, a shell word as bash reads it) or stay inert (a comment).
 */
import { execFileSync } from "node:child_process";
import * as ts from "typescript";
import { shellWord, tsComment, tsString } from "../../cli/escape";
import { LINE_TERMINATORS } from "../harness/hostile-text";
const HOSTILE = [
  ...Object.entries(LINE_TERMINATORS).map(([name, t]) => [name, `a${t}globalThis.ran = true; //`] as const),
  ["quotes", `"'\`` + "\\\"\\'"],
  ["template", "`${globalThis.ran = true}`"],
  ["block comment end", "*/ globalThis.ran = true; /*"],
  ["lone high surrogate", "a\ud800b"],
  ["lone low surrogate", "a\udc00b"],
  ["surrogate pair", "a\ud83d\ude00b"],
  ["bidi override", "a\u202eb\u2066c"],
  ["NUL and DEL", "a\u0000b\u007fc"],
  ["CI commands", "##vso[task.setvariable variable=X]y ##[error]z"],
] as const;

/** Runs a transpiled TypeScript snippet and returns what it exports as `value` and whether anything ran. */
function evaluate(source: string): { value: unknown; ran: boolean } {
  const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS } }).outputText;
  const sandbox = { ran: false };
  const exports: { value?: unknown } = {};
  new Function("exports", "globalThis", js)(exports, sandbox);
  return { value: exports.value, ran: sandbox.ran };
}

describe.each(HOSTILE)("%s", (_name, hostile) => {
  it("tsString: a literal whose value is the text, on one line of visible characters", () => {
    const literal = tsString(hostile);
    expect(literal).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
    // Printed without --out, the program is a CI log's lines: no command a CI agent acts on.
    expect(literal).not.toMatch(/##(vso)?\[/);
    const source = `export const value = ${literal};\n`;
    const file = ts.createSourceFile("x.ts", source, ts.ScriptTarget.ES2022);
    expect(file.statements).toHaveLength(1);
    expect(evaluate(source)).toEqual({ value: hostile, ran: false });
  });

  it("tsComment: one comment line, inert, whatever the text", () => {
    const source = `${tsComment(`before ${hostile} after`)}\nexport const value = 1;\n`;
    expect(source.split("\n")).toHaveLength(3);
    expect(source).not.toMatch(/##(vso)?\[/);
    const file = ts.createSourceFile("x.ts", source, ts.ScriptTarget.ES2022);
    expect(file.statements).toHaveLength(1);
    expect(evaluate(source)).toEqual({ value: 1, ran: false });
  });

});

// Lone surrogates have no UTF-8 form, and no argument can carry NUL: the other strings are a shell word's cases.
const SHELL_CASES = HOSTILE.filter(([, text]) => !/\u0000|[\ud800-\udfff]/.test(text.replace(/[\ud800-\udbff][\udc00-\udfff]/g, "")));

it.each(SHELL_CASES)("shellWord: bash reads the word back as the text (%s)", (_name, hostile) => {
  const word = shellWord(hostile);
  expect(word).not.toMatch(/[\n\r\u2028\u2029]/);
  expect(execFileSync("bash", ["-c", `printf %s ${word}`], { encoding: "utf8" })).toBe(hostile);
});

it("shellWord leaves plain words bare and quotes the rest", () => {
  expect(shellWord("team-0[12]")).toBe("'team-0[12]'");
  expect(shellWord("team-01/.*")).toBe("'team-01/.*'");
  expect(shellWord("--default-bundle")).toBe("--default-bundle");
  expect(shellWord("it's")).toBe(`'it'\\''s'`);
});
